/**
 * Sends the texts queued (decision 0073): the alert engine's, and visitor passes' (a guest's link, a host's
 * arrival notice). Beside the mail outbox: after a request that queued one, after the queue consumer's run
 * and every minute from the cron. Each text goes through `sendText`, so the limits
 * apply and a text not delivered is written to the activity log. A text is tried once: a drain claims
 * the row before sending, so two drains never send it twice, and a refused text is not retried (an
 * alert text an hour late says little; the log says why it did not arrive).
 */
import { and, asc, eq, inArray, isNotNull, isNull, lt } from "drizzle-orm";
import { dbFromEnv, nowMs, schema, type Db } from "~/utils/db.server";
import { PRUNE_BATCH } from "../mail/outbox.server";
import { smsSender, type SmsEnv, type SmsSender } from "./sender.server";
import { sendText } from "./texts.server";

const { textOutbox: tx, users: u, visitorPasses: vp } = schema;

export async function drainTexts(env: SmsEnv & { DB: D1Database }, { limit = 50, now = nowMs() } = {}): Promise<{ sent: number; failed: number }> {
  const db = dbFromEnv(env);
  const sender = smsSender(env);
  const rows = await db.select().from(tx).where(isNull(tx.claimedAt)).orderBy(asc(tx.createdAt), asc(tx.id)).limit(limit);
  let sent = 0;
  let failed = 0;
  for (const row of rows) {
    const claimed = await db
      .update(tx)
      .set({ claimedAt: now })
      .where(and(eq(tx.id, row.id), isNull(tx.claimedAt)))
      .returning({ id: tx.id });
    if (!claimed.length) continue;
    const delivered = row.userId == null ? await sendGuestText(db, sender, row, now) : await sendUserText(db, sender, { ...row, userId: row.userId }, now);
    await db.update(tx).set({ delivered }).where(eq(tx.id, row.id));
    if (delivered) sent++;
    else failed++;
  }
  return { sent, failed };
}

type Row = typeof tx.$inferSelect;

/**
 * To the number the company has for its user now; a user gone or made inactive since is not texted. The
 * outbox holds notices (alerts, a guest's arrival), never codes: they count against the notices' own limit.
 */
async function sendUserText(db: Db, sender: SmsSender, row: Row & { userId: number }, now: number) {
  const [user] = await db
    .select({ phone: u.phoneNumber })
    .from(u)
    .where(and(eq(u.id, row.userId), eq(u.companyId, row.companyId), isNull(u.deletedAt), eq(u.isInactive, false)))
    .limit(1);
  return !!user && sendText(db, sender, { companyId: row.companyId, userId: row.userId, to: user.phone, body: row.body, purpose: row.purpose, alerts: true }, now);
}

/** To the number typed for a visitor pass; a pass withdrawn since is not texted (its link would not open). */
async function sendGuestText(db: Db, sender: SmsSender, row: Row, now: number) {
  const [pass] = await db
    .select({ id: vp.id })
    .from(vp)
    .where(and(eq(vp.id, row.passId!), eq(vp.companyId, row.companyId), isNull(vp.revokedAt)))
    .limit(1);
  return !!pass && sendText(db, sender, { companyId: row.companyId, userId: null, passId: pass.id, to: row.toNumber ?? "", body: row.body, purpose: row.purpose }, now);
}

/** Deletes texts queued before `olderThan` that were tried (each is tried once), a bounded number per run. */
export async function pruneSettledTexts(db: Db, olderThan: number): Promise<void> {
  const ids = db
    .select({ id: tx.id })
    .from(tx)
    .where(and(lt(tx.createdAt, olderThan), isNotNull(tx.claimedAt)))
    .limit(PRUNE_BATCH);
  await db.delete(tx).where(inArray(tx.id, ids));
}
