/**
 * A console sign-in answered as a page: the session cookie and the remembered company on success, the
 * next step for a refusal that is one (an expired password, a second factor). The sign-in page and a
 * set-password link that lands signed in (decision 0055) both answer through it.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { languageCookie } from "~/i18n/i18next.server";
import type { LoginInput } from "~/schemas/auth";
import { AUTH_MSG, login, type CodeDelivery } from "~/services/auth.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import { smsSender } from "~/services/sms/sender.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { rememberCompany } from "~/utils/remembered-companies.server";
import { deleteSession, readSessionToken, readSupportToken, signedInHeaders } from "~/utils/session.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { sha256Hex } from "~/utils/tokens.server";

export async function signInToConsole({ request, context }: { request: Request; context: AppLoadContext }, input: LoginInput, to: string): Promise<Response> {
  const env = context.cloudflare.env;
  const db = getDb(context);
  const who = new URLSearchParams({ username: input.userName, companyCode: input.companyId }).toString();
  const r = await login(db, input, { request, kind: "web", now: nowMs(), sms: smsSender(env) }).catch((e) => {
    // Two refusals are a next step, not an error: the page that takes it.
    if (!(e instanceof ServiceError)) throw e;
    // In the page's language: the toast is read on the next page, set before any session exists.
    if (e.details.errorCode === "password-expired")
      return redirectWithMessage({ request, context }, { to: `/ResetExpiredPassword?${who}`, ns: "auth", type: "info", message: AUTH_MSG.expired });
    if (e.details.errorCode !== "2fa-required") throw e;
    deliverQueued(env, context.cloudflare.ctx.waitUntil);
    return redirectWithMessage(
      { request, context },
      { to: `/twoFactorAuthentication?${codePageQuery(input, e.details.payload as CodeDelivery)}`, ns: "auth", type: "info", message: AUTH_MSG.twoFactor },
    );
  });
  if (r instanceof Response) return r;
  // Rotate: a session the browser already held is ended, the new one replaces it.
  for (const previous of [await readSessionToken(request, env), await readSupportToken(request, env)]) if (previous) await deleteSession(db, await sha256Hex(previous));
  const headers = await signedInHeaders(env, r.token);
  headers.append("Set-Cookie", await rememberCompany(request, r.payload.company.company_name, r.payload.company.company_id));
  if (input.language) headers.append("Set-Cookie", await languageCookie.serialize(input.language));
  return redirect(to, { headers });
}

/** The code page's address: whose code it is, and where the code went (the page says so, masked). */
export function codePageQuery(who: { companyId: string; userName: string }, sent: CodeDelivery): string {
  const q = new URLSearchParams({ username: who.userName, companyCode: who.companyId, sent: sent.channel, to: sent.sentTo });
  if (sent.channel !== sent.preferredChannel) q.set("fallback", "1");
  return q.toString();
}
