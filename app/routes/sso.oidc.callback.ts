/**
 * The OpenID provider's way back (decision 0121): the code and state in the query. A completed sign-in
 * lands signed in on the page asked for; a refused one goes back to the sign-in page with the reason.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { callbackUri, finishOidcSignIn } from "~/services/sso/oidc.server";
import { ssoSignedInResponse } from "~/services/sso/respond.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithMessage } from "~/utils/toast.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  try {
    const result = await finishOidcSignIn(getDb(context), context.cloudflare.env, {
      request,
      state: q.get("state"),
      code: q.get("code"),
      error: q.get("error"),
      redirectUri: callbackUri(request),
      now: nowMs(),
    });
    return ssoSignedInResponse(context, request, result);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return redirectWithMessage({ request, context }, { to: "/login", ns: "auth", message: e.message, type: "error" });
  }
}
