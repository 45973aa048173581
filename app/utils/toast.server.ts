import { redirect } from "@remix-run/cloudflare";
import { toastCookieHeader, type ToastMessage } from "~/utils/toast-cookie";
import { isProduction } from "./session.server";

/** Redirects and shows `toast` on the next page (the root loader reads and clears it). */
export function redirectWithToast(url: string, toast: ToastMessage, env: Env, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", toastCookieHeader(toast, { secure: isProduction(env) }));
  return redirect(url, { ...init, headers });
}
