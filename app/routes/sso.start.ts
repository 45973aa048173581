/**
 * "Continue with single sign-on" (decision 0121): the sign-in page posts the company ID (and the page asked
 * for); a company with single sign-on switched on sends the browser to its identity provider, OpenID Connect
 * here, SAML through its own route. Anything else goes back to the sign-in page with a message.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getLanguage } from "~/i18n/i18next.server";
import { SSO_MSG } from "~/services/sso/messages";
import { callbackUri, startOidcSignIn } from "~/services/sso/oidc.server";
import { getDb, nowMs, schema } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { consolePath } from "~/services/sso/complete-sign-in.server";
import { redirectWithMessage } from "~/utils/toast.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => null);
  const code = String(form?.get("ssoCompany") ?? form?.get("companyId") ?? "")
    .trim()
    .toUpperCase()
    .slice(0, 8);
  const returnTo = consolePath(String(form?.get("redirectTo") ?? new URL(request.url).searchParams.get("redirectTo") ?? "/"));
  const db = getDb(context);
  const back = `/login${returnTo !== "/" ? `?redirectTo=${encodeURIComponent(returnTo)}` : ""}`;
  const [row] = code
    ? await db
        .select({ companyId: schema.companies.id, code: schema.companies.code, sso: schema.ssoSettings })
        .from(schema.companies)
        .innerJoin(schema.ssoSettings, eq(schema.ssoSettings.companyId, schema.companies.id))
        .where(and(sql`upper(${schema.companies.code}) = ${code}`, isNull(schema.companies.deletedAt), eq(schema.ssoSettings.enabled, true)))
        .limit(1)
    : [];
  if (!row) return redirectWithMessage({ request, context }, { to: back, ns: "auth", message: SSO_MSG.notEnabled, type: "error" });
  if (row.sso.protocol === "saml") return redirect(`/sso/saml/${encodeURIComponent(row.code)}/login?RelayState=${encodeURIComponent(returnTo)}`);
  try {
    const to = await startOidcSignIn(db, context.cloudflare.env, {
      companyId: row.companyId,
      returnTo,
      redirectUri: callbackUri(request),
      now: nowMs(),
      uiLocales: await getLanguage(request),
    });
    return redirect(to);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return redirectWithMessage({ request, context }, { to: back, ns: "auth", message: e.message, type: "error" });
  }
}

export const loader = () => redirect("/login");
