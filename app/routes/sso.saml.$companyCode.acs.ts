/**
 * The SAML Assertion Consumer Service (HTTP-POST binding, decision 0122): the identity provider's page
 * posts the signed (perhaps encrypted) Response here, with the RelayState of the attempt it answers.
 * Verified by verifySamlResponse, then the shared completion (decision 0121) opens the session.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { completeSsoSignIn } from "~/services/sso/complete-sign-in.server";
import { SSO_MSG } from "~/services/sso/messages";
import { ssoSignedInResponse } from "~/services/sso/respond.server";
import { samlCompany, spOrigin, verifySamlResponse } from "~/services/sso/saml.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const env = context.cloudflare.env;
  const db = getDb(context);
  const refuse = (message: string) => redirectWithToast("/login", { type: "error", message }, env);
  const found = await samlCompany(db, params.companyCode ?? "");
  if (!found) return refuse(SSO_MSG.notEnabled);
  const form = await request.formData().catch(() => null);
  const samlResponse = form?.get("SAMLResponse");
  const relayState = form?.get("RelayState");
  if (typeof samlResponse !== "string" || typeof relayState !== "string") return refuse(SSO_MSG.failed);
  const now = nowMs();
  try {
    const verified = await verifySamlResponse(db, env, {
      origin: spOrigin(env, request),
      companyCode: found.company.code,
      companyId: found.company.id,
      settings: found.settings,
      samlResponse,
      relayState,
      now,
    });
    const result = await completeSsoSignIn(db, { request, now }, { companyId: found.company.id, protocol: "saml", ...verified });
    return ssoSignedInResponse(context, request, result);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    console.warn(`SAML sign-in refused for ${found.company.code}: ${e.details.errorCode} ${(e.details.extra?.reason as string | undefined) ?? e.message}`);
    return refuse(e.message);
  }
}

/** Only the POST binding is taken. */
export const loader = () => redirect("/login");
