/**
 * Sending a text message on a user's behalf: the rate limits per user and per company, then the
 * provider (`SmsSender`). A text that is not delivered (limit reached, no phone, provider refused or
 * unreachable) is written to the activity log as 'Text Message Not Delivered' (decision 0062).
 */
import { activityInsert } from "~/utils/activity-insert.server";
import { isE164 } from "~/utils/phone";
import type { Db } from "~/utils/db.server";
import { overRateLimit } from "../throttle.server";
import { SmsError, type SmsSender } from "./sender.server";

/** Texts per user and per company in an hour; a code-bearing text is worthless beyond these. */
export const TEXT_LIMIT = { perUser: 5, perCompany: 200, windowMs: 60 * 60 * 1000 } as const;

/**
 * `alerts`: an alert text counts against its own per-user limit, so that alerts cannot use up the
 * texts that carry a user's sign-in or reset codes; the company's limit is shared (decision 0073).
 * A guest's text (no user) counts against its visitor pass's limit instead of a user's.
 */
export type Text = { companyId: number; to: string; body: string; purpose: string; alerts?: boolean } & ({ userId: number } | { userId: null; passId: number });

/** The last four digits only: the log is read by every admin of the company. */
const masked = (phone: string) => (phone ? `…${phone.slice(-4)}` : "no phone number");

/** Sends `text` unless a limit is reached; true when the provider accepted it. Never throws for a delivery failure. */
export async function sendText(db: Db, sender: SmsSender, text: Text, now: number): Promise<boolean> {
  const reason = await refusal(db, sender, text, now);
  if (!reason) return true;
  await activityInsert(db, {
    companyId: text.companyId,
    name: "Text Message Not Delivered",
    targetUserId: text.userId,
    summary: `${text.purpose} to ${masked(text.to)}: ${reason}`,
    details: { purpose: text.purpose, reason, ...(text.userId == null && { passId: text.passId }) },
    at: now,
  });
  return false;
}

/** Why the text was not delivered, or null once the provider accepted it. */
async function refusal(db: Db, sender: SmsSender, text: Text, now: number): Promise<string | null> {
  if (!isE164(text.to)) return "no phone number in E.164 form";
  const own = text.userId == null ? `sms:pass:${text.passId}` : `sms:${text.alerts ? "alerts:" : ""}user:${text.userId}`;
  if (await overRateLimit(db, own, TEXT_LIMIT.perUser, TEXT_LIMIT.windowMs, now))
    return text.userId == null ? "the visitor pass's hourly text limit is reached" : "the user's hourly text limit is reached";
  if (await overRateLimit(db, `sms:company:${text.companyId}`, TEXT_LIMIT.perCompany, TEXT_LIMIT.windowMs, now)) return "the company's hourly text limit is reached";
  try {
    await sender.send(text.to, text.body);
    return null;
  } catch (e) {
    if (e instanceof SmsError) return e.message;
    throw e;
  }
}
