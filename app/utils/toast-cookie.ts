/**
 * Toast messages shared by server and client.
 *
 * A server action or loader that redirects puts the message in a short-lived cookie; the root
 * loader reads it (and clears it), then passes it to `<Toaster toast={…} />`:
 *
 *   // action
 *   return redirect("/users", { headers: { "Set-Cookie": toastCookieHeader({ type: "success", message: "User saved" }) } });
 *   // root loader
 *   const toast = readToastCookie(request.headers.get("Cookie"));
 *   return json({ toast }, toast ? { headers: { "Set-Cookie": clearToastCookieHeader() } } : undefined);
 *
 * The same `ToastMessage` can instead be stored as a session flash value and checked with `parseToast`.
 */

export const TOAST_TYPES = ["success", "error", "info"] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

export interface ToastMessage {
  type: ToastType;
  title?: string;
  message: string;
}

/** How long a toast stays up (docs/ARCHITECTURE.md §7.3: toasts disappear after 5 s). */
export const TOAST_DURATION_MS = 5000;
export const TOAST_COOKIE_NAME = "toast";
/** Long enough to survive one redirect, short enough not to resurface later. */
const TOAST_COOKIE_MAX_AGE_S = 60;
/** Messages are short sentences; anything longer is a bug or tampering, not something to display. */
const MAX_TEXT_LENGTH = 500;

function isShortText(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_TEXT_LENGTH;
}

/**
 * Validates an untrusted value (an object, or its JSON text) as a toast; returns null when it is
 * not one, never throws. Unknown keys are dropped.
 */
export function parseToast(value: unknown): ToastMessage | null {
  let candidate = value;
  if (typeof candidate === "string") {
    try {
      candidate = JSON.parse(candidate);
    } catch {
      return null;
    }
  }
  if (typeof candidate !== "object" || candidate === null) return null;
  const { type, title, message } = candidate as Record<string, unknown>;
  if (!TOAST_TYPES.includes(type as ToastType) || !isShortText(message)) return null;
  if (title !== undefined && !isShortText(title)) return null;
  return title === undefined ? { type: type as ToastType, message } : { type: type as ToastType, title, message };
}

/** Cookie-safe text for a toast (URI-encoded JSON). */
export function serializeToast(toast: ToastMessage): string {
  return encodeURIComponent(JSON.stringify(toast));
}

const cookieAttributes = "Path=/; HttpOnly; SameSite=Lax";

/** `Set-Cookie` value that carries a toast to the next page load (`secure: false` for plain-http local dev). */
export function toastCookieHeader(toast: ToastMessage, { secure = true }: { secure?: boolean } = {}): string {
  return `${TOAST_COOKIE_NAME}=${serializeToast(toast)}; ${cookieAttributes}; Max-Age=${TOAST_COOKIE_MAX_AGE_S}${secure ? "; Secure" : ""}`;
}

/** `Set-Cookie` value that removes the toast cookie once it has been read. */
export function clearToastCookieHeader({ secure = true }: { secure?: boolean } = {}): string {
  return `${TOAST_COOKIE_NAME}=; ${cookieAttributes}; Max-Age=0${secure ? "; Secure" : ""}`;
}

/** The toast carried in a `Cookie` request header, or null when absent or invalid. */
export function readToastCookie(cookieHeader: string | null | undefined): ToastMessage | null {
  if (!cookieHeader) return null;
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator === -1 || pair.slice(0, separator).trim() !== TOAST_COOKIE_NAME) continue;
    try {
      return parseToast(decodeURIComponent(pair.slice(separator + 1).trim()));
    } catch {
      return null;
    }
  }
  return null;
}
