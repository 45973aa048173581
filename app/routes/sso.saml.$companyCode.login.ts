/**
 * Starts a SAML sign-in (decision 0122): the browser goes to the company's identity provider with an
 * AuthnRequest (HTTP-Redirect binding). `returnTo` is kept server-side with the attempt, never sent out.
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { SSO_MSG } from "~/services/sso/messages";
import { samlCompany, samlConfigured, spOrigin, startSamlSignIn } from "~/services/sso/saml.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const env = context.cloudflare.env;
  const db = getDb(context);
  const found = await samlCompany(db, params.companyCode ?? "");
  if (!found || !samlConfigured(found.settings)) {
    return redirectWithToast("/login", { type: "error", message: SSO_MSG.notEnabled }, env);
  }
  const url = await startSamlSignIn(db, env, {
    origin: spOrigin(env, request),
    companyCode: found.company.code,
    companyId: found.company.id,
    settings: found.settings,
    // The sign-in page's "Continue with single sign-on" (/sso/start, decision 0121) sends the path as RelayState.
    returnTo: new URL(request.url).searchParams.get("returnTo") ?? new URL(request.url).searchParams.get("RelayState"),
    now: nowMs(),
  });
  return redirect(url, { headers: { "Cache-Control": "no-store" } });
}
