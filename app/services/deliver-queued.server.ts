/**
 * Sends what a request just queued, mail and texts, without delaying its answer (decisions 0014, 0073);
 * the cron trigger sends whatever this leaves behind.
 */
import { drainOutbox, type MailEnv } from "./mail/outbox.server";
import type { SmsEnv } from "./sms/sender.server";
import { drainTexts } from "./sms/text-outbox.server";

export function deliverQueued(env: MailEnv & SmsEnv, waitUntil: (p: Promise<unknown>) => void): void {
  waitUntil(drainOutbox(env, { limit: 10 }).catch((e) => console.error("mail delivery failed", e)));
  waitUntil(drainTexts(env, { limit: 10 }).catch((e) => console.error("text delivery failed", e)));
}
