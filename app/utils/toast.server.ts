import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { toastCookieHeader, type ToastMessage, type ToastType } from "~/utils/toast-cookie";
import { isProduction } from "./session.server";

/** Redirects and shows `toast` on the next page (the root loader reads and clears it). */
export function redirectWithToast(url: string, toast: ToastMessage, env: Env, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", toastCookieHeader(toast, { secure: isProduction(env) }));
  return redirect(url, { ...init, headers });
}

/**
 * Redirects with a service's message (the spec's English text) translated in `ns` into the page's
 * language: the end of most page actions. Without `to`, back to the page that posted.
 */
export async function redirectWithMessage(
  { request, context }: { request: Request; context: AppLoadContext },
  { to, ns, message, type = "success" }: { to?: string; ns: string; message: string; type?: ToastType },
): Promise<Response> {
  const t = await getFixedT(await getLanguage(request), ns);
  const here = new URL(request.url);
  return redirectWithToast(to ?? here.pathname + here.search, { type, message: translateMessage(t, message, ns) }, context.cloudflare.env);
}
