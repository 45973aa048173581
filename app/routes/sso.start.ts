/**
 * "Continue with single sign-on" (decision 0121): the sign-in page posts the company ID (and the page asked
 * for); a company with single sign-on switched on sends the browser to its identity provider, OpenID Connect
 * here, SAML through its own route. Anything else goes back to the sign-in page with a message.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getLanguage } from "~/i18n/i18next.server";
import { SSO_MSG } from "~/services/sso/messages";
import { callbackUri, startOidcSignIn } from "~/services/sso/oidc.server";
import { getDb, nowMs, schema } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { safeRedirect } from "~/utils/redirect";
import { redirectWithMessage } from "~/utils/toast.server";

/** The state's cookie: the callback takes only the state this browser was given (no sign-in planted from another browser). */
export const SSO_STATE_COOKIE = "__sso_state";

async function start(request: Request, context: ActionFunctionArgs["context"], rawCode: string, rawReturnTo: string | null): Promise<Response> {
  const code = rawCode.trim().toUpperCase().slice(0, 8);
  const returnTo = safeRedirect(rawReturnTo ?? "/");
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
    const state = new URL(to).searchParams.get("state") ?? "";
    const secure = (context.cloudflare.env.ENVIRONMENT as string) === "production" ? "; Secure" : "";
    return redirect(to, { headers: { "Set-Cookie": `${SSO_STATE_COOKIE}=${state}; Path=/sso/; Max-Age=600; HttpOnly; SameSite=Lax${secure}` } });
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return redirectWithMessage({ request, context }, { to: back, ns: "auth", message: e.message, type: "error" });
  }
}

/** The sign-in page's button navigates here (a GET: a form's post could not be redirected to the provider under the page's form-action policy). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  return start(request, context, q.get("company") ?? "", q.get("redirectTo"));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => null);
  return start(request, context, String(form?.get("companyId") ?? ""), String(form?.get("redirectTo") ?? new URL(request.url).searchParams.get("redirectTo") ?? "/"));
}
