import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { logout } from "~/services/auth.server";
import { oidcLogoutUrl } from "~/services/sso/oidc.server";
import { samlLogoutUrl, spOrigin } from "~/services/sso/saml.server";
import { authFromToken, clearSessionCookies, getAuth } from "~/utils/auth-guards.server";
import { readSessionToken } from "~/utils/session.server";
import { getDb, nowMs } from "~/utils/db.server";
import { isCrossSite } from "~/utils/origin.server";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";

/**
 * Whether the browser says the request comes from the console itself. A sign-out is only taken from
 * the console's own pages: browsers send `Origin` (and `Sec-Fetch-Site`) with every POST, so a request
 * with neither is not one of ours, and a cross-site one cannot end (or clear the cookie of) a session.
 */
function fromOwnPage(request: Request): boolean {
  const hasOrigin = request.headers.get("Origin") !== null;
  const site = request.headers.get("Sec-Fetch-Site");
  if (!hasOrigin && site !== "same-origin") return false;
  return !isCrossSite(request);
}

/** Ends the session (recording 'User Logs Out' once) and clears the cookie; the language cookie stays. POST only. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!fromOwnPage(request)) return new Response("Sign-out is only accepted from the console's own pages", { status: 403 });
  // A body-less POST (no form content type) is a plain sign-out, not a 500.
  const form = await request.formData().catch(() => null);
  const reason = form?.get("reason") === "idle" ? "idle" : "user";
  const auth = await getAuth(request, context);
  // A session single sign-on opened ends at the identity provider too, when it offers that (decision 0121).
  const idpLogout =
    auth && !auth.support
      ? ((await oidcLogoutUrl(getDb(context), context.cloudflare.env, {
          sessionId: auth.session.id,
          postLogoutRedirectUri: `${new URL(request.url).origin}/login`,
          now: nowMs(),
        })) ??
        // SAML single logout: a LogoutRequest for the session's NameID and SessionIndex (decision 0122).
        (await samlLogoutUrl(getDb(context), context.cloudflare.env, { origin: spOrigin(context.cloudflare.env, request), sessionId: auth.session.id })))
      : null;
  if (auth) await logout(getDb(context), auth, nowMs(), reason);
  // Signing out of a support session signs the staff member out of their own session too.
  const own = auth?.support ? await readSessionToken(request, context.cloudflare.env) : null;
  const me = own ? await authFromToken(getDb(context), context.cloudflare.env, own) : null;
  if (me) await logout(getDb(context), me, nowMs(), reason);
  const headers = await clearSessionCookies(context.cloudflare.env);
  if (!idpLogout) return redirect("/login", { headers });
  return await continueAtProvider(request, idpLogout, headers);
}

/**
 * The identity provider's sign-out, reached from a page rather than a redirect: sign-out is a form post,
 * and the console's `form-action 'self'` stops a browser from following a form's redirect to another origin.
 * A refresh (no script, so the answer's default CSP holds) and a link for a browser that ignores it.
 */
async function continueAtProvider(request: Request, url: string, headers: Headers): Promise<Response> {
  const lang = await getLanguage(request);
  const t = await getFixedT(lang, "sso");
  const href = escapeHtml(url);
  headers.set("Content-Type", "text/html; charset=utf-8");
  const body = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>${escapeHtml(t("logout.title"))}</title></head><body><p>${escapeHtml(t("logout.continuing"))} <a href="${href}">${escapeHtml(t("logout.continue"))}</a></p></body></html>`;
  return new Response(body, { headers });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A link or an image cannot sign anyone out. */
export const loader = () => redirect("/");
