import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { logout } from "~/services/auth.server";
import { oidcLogoutUrl } from "~/services/sso/oidc.server";
import { samlLogoutUrl, spOrigin } from "~/services/sso/saml.server";
import { authFromToken, clearSessionCookies, getAuth } from "~/utils/auth-guards.server";
import { readSessionToken } from "~/utils/session.server";
import { getDb, nowMs } from "~/utils/db.server";
import { isCrossSite } from "~/utils/origin.server";

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
  return redirect(idpLogout ?? "/login", { headers: await clearSessionCookies(context.cloudflare.env) });
}

/** A link or an image cannot sign anyone out. */
export const loader = () => redirect("/");
