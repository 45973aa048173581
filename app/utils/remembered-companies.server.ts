import { createCookie } from "@remix-run/cloudflare";

/** Companies signed in to from this browser (name → code), offered on the login form; logout keeps them. */
const cookie = createCookie("companies", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 });

export type Remembered = Record<string, string>;

export async function readRemembered(request: Request): Promise<Remembered> {
  const v = await cookie.parse(request.headers.get("Cookie"));
  if (!v || typeof v !== "object") return {};
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, code]) => typeof code === "string" && /^[A-Z0-9]{4}$/.test(code))) as Remembered;
}

export async function rememberCompany(request: Request, name: string, code: string): Promise<string> {
  const current = await readRemembered(request);
  const next = { ...current, [name]: code };
  const trimmed = Object.fromEntries(Object.entries(next).slice(-10));
  return cookie.serialize(trimmed);
}
