/**
 * The text-message channel's one sender: a Twilio-compatible REST call (POST a form to
 * `{SMS_API_URL}/2010-04-01/Accounts/{SID}/Messages.json` with HTTP basic auth), the API most SMS
 * providers offer. Fails closed (decision 0062): without a configured provider, or with a clear-text
 * provider URL in production, sending throws `SmsError`; nothing is ever reported as sent that was not
 * accepted by a provider. Locally and in the tests the provider is scripts/sms-sink.mjs.
 */
export type SmsEnv = { SMS_API_URL?: string; SMS_ACCOUNT_SID?: string; SMS_AUTH_TOKEN?: string; SMS_FROM?: string; ENVIRONMENT?: string };

export class SmsError extends Error {}

export interface SmsSender {
  /** Hands one message to the provider; resolves with the provider's message id, throws `SmsError` otherwise. */
  send(to: string, body: string): Promise<{ id: string }>;
}

const SEND_TIMEOUT_MS = 10_000;
const NOT_CONFIGURED = "no text-message provider is configured (SMS_API_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM)";

export function smsSender(env: SmsEnv): SmsSender {
  return {
    async send(to, body) {
      const { SMS_API_URL: api, SMS_ACCOUNT_SID: sid, SMS_AUTH_TOKEN: token, SMS_FROM: from } = env;
      if (!api || !sid || !token || !from) throw new SmsError(NOT_CONFIGURED);
      if (env.ENVIRONMENT === "production" && !api.startsWith("https://")) throw new SmsError("the text-message provider must be reached over https in production");
      let res: Response;
      try {
        res = await fetch(`${api.replace(/\/$/, "")}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`, {
          method: "POST",
          headers: { Authorization: `Basic ${btoa(`${sid}:${token}`)}`, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ To: to, From: from, Body: body }),
          // A provider that does not answer is a failed delivery, not a request left hanging.
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
      } catch (e) {
        throw new SmsError(`the text-message provider could not be reached: ${e instanceof Error ? e.message : String(e)}`);
      }
      const answer = (await res.json().catch(() => ({}))) as { sid?: string; message?: string };
      if (!res.ok || !answer.sid) throw new SmsError(`the text-message provider refused the message (${res.status}): ${answer.message ?? "no reason given"}`);
      return { id: answer.sid };
    },
  };
}
