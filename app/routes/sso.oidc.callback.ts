/**
 * The OpenID provider's way back (decision 0121): the code and state in the query. A completed sign-in
 * lands signed in on the page asked for; a refused one goes back to the sign-in page with the reason.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { callbackUri, finishOidcSignIn } from "~/services/sso/oidc.server";
import { ssoSignedInResponse } from "~/services/sso/respond.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { SSO_MSG } from "~/services/sso/messages";
import { redirectWithMessage } from "~/utils/toast.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  // Only the state this browser was given at /sso/start (a code and state from another browser sign nobody in here).
  const given = /(?:^|;\s*)__sso_state=([^;]+)/.exec(request.headers.get("Cookie") ?? "")?.[1] ?? null;
  const clear = { "Set-Cookie": "__sso_state=; Path=/sso/; Max-Age=0; HttpOnly; SameSite=Lax" };
  try {
    if (!given || given !== q.get("state")) throw new ServiceError(401, SSO_MSG.expired, { errorCode: "sso-bad-state" });
    const result = await finishOidcSignIn(getDb(context), context.cloudflare.env, {
      request,
      state: q.get("state"),
      code: q.get("code"),
      error: q.get("error"),
      redirectUri: callbackUri(request),
      now: nowMs(),
    });
    const res = await ssoSignedInResponse(context, request, result);
    res.headers.append("Set-Cookie", clear["Set-Cookie"]);
    return res;
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    const res = await redirectWithMessage({ request, context }, { to: "/login", ns: "auth", message: e.message, type: "error" });
    res.headers.append("Set-Cookie", clear["Set-Cookie"]);
    return res;
  }
}
