/**
 * Delivers the mail outbox. Services queue mail in the same D1 batch as the change that sends it;
 * this drains it right after such a request (waitUntil) and every minute from the cron trigger,
 * which also retries failures with a backoff.
 */
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import { openSecret } from "../../utils/at-rest.server";
import { dbFromEnv, nowMs, schema, type Db } from "../../utils/db.server";
import { assertAddress, buildMessage, InvalidAddressError, parseMailbox } from "./message.server";
import { sendMail, SmtpError, type SmtpServer } from "./smtp.server";

export type MailEnv = { DB: D1Database; MAIL_FROM?: string; MAILER_SECRET?: string; ENVIRONMENT?: string };

export const MAX_ATTEMPTS = 6;
/** Earliest start of attempt n+1, counted from when the mail was queued: now, 1 min, 5 min, 15 min, 1 h, 4 h. */
const RETRY_AFTER_MS = [0, 60_000, 300_000, 900_000, 3_600_000, 14_400_000];
/**
 * How long a claimed row is left to the drain that claimed it. A retry becomes due by the time since
 * the row was queued, so without a lease a second drain (cron, queue consumer, a request) could claim
 * a row that is still being sent and send it again. Longer than any SMTP exchange's timeouts.
 */
const CLAIM_LEASE_MS = 120_000;
/** Rows the cron deletes per run at most, so one run stays short whatever piled up. */
export const PRUNE_BATCH = 500;
const DEFAULT_FROM = "Keyless Access <no-reply@keyless.example>";

const o = schema.mailOutbox;

/**
 * Secrets some mails carry (reset links, sign-in codes). The outbox keeps them only until the mail
 * is delivered or given up; then the body keeps its text with the secret removed.
 */
const SECRETS: [RegExp, string][] = [
  [/(\/resetPassword\/)[A-Za-z0-9_-]+/g, "$1[removed after delivery]"],
  [/(sign-in code is )\d{4,8}/g, "$1[removed after delivery]"],
  [/(\/m#pass=)[A-Za-z0-9._-]+/g, "$1[removed after delivery]"],
];
export const REDACTED = "[removed after delivery]";

export function redactSecrets(body: string): string {
  return SECRETS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), body);
}
const mc = schema.mailerConfigs;

/** The company's own mailer, else the platform default (company_id null). */
async function mailerFor(db: Db, companyId: number) {
  const rows = await db
    .select()
    .from(mc)
    .where(or(eq(mc.companyId, companyId), isNull(mc.companyId)));
  const row = rows.find((r) => r.companyId === companyId) ?? rows.find((r) => r.companyId === null);
  if (!row) throw new SmtpError("no mailer is configured (neither the company's nor the platform default)");
  return row;
}

export async function drainOutbox(env: MailEnv, { limit = 20, now = nowMs() } = {}): Promise<{ sent: number; failed: number }> {
  const db = dbFromEnv(env);
  const from = parseMailbox(env.MAIL_FROM || DEFAULT_FROM);
  assertAddress(from.address);
  const domain = from.address.split("@")[1];
  const due = sql`${o.createdAt} + (case ${o.attempts} ${sql.join(
    RETRY_AFTER_MS.map((ms, n) => sql`when ${n} then ${ms}`),
    sql` `,
  )} end) <= ${now}`;
  const rows = await db
    .select()
    .from(o)
    .where(and(isNull(o.sentAt), lt(o.attempts, MAX_ATTEMPTS), due, or(isNull(o.claimedUntil), lte(o.claimedUntil, now))))
    .orderBy(asc(o.createdAt), asc(o.id))
    .limit(limit);

  const mailers = new Map<number, Promise<SmtpServer>>();
  let sent = 0;
  let failed = 0;
  for (const row of rows) {
    // Claim the row first: a drain running beside this one (cron and a request) then skips it.
    const claimed = await db
      .update(o)
      .set({ attempts: row.attempts + 1, claimedUntil: now + CLAIM_LEASE_MS })
      .where(and(eq(o.id, row.id), eq(o.attempts, row.attempts), isNull(o.sentAt)))
      .returning({ id: o.id });
    if (!claimed.length) continue;
    try {
      if (!mailers.has(row.companyId)) {
        mailers.set(
          row.companyId,
          mailerFor(db, row.companyId).then(async (m) => ({
            host: m.hostName,
            port: m.port,
            user: m.userName,
            password: await openSecret(env, m.userPassword),
            heloName: domain,
          })),
        );
      }
      const server = await mailers.get(row.companyId)!;
      const data = buildMessage({
        from,
        to: row.toAddress,
        subject: row.subject,
        body: row.body,
        date: new Date(),
        messageId: `${crypto.randomUUID()}@${domain}`,
      });
      await sendMail(server, { from: from.address, to: row.toAddress, data });
      await db
        .update(o)
        .set({ sentAt: nowMs(), lastError: null, body: redactSecrets(row.body) })
        .where(eq(o.id, row.id));
      sent++;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // A refusal of this very message (or an unusable address) will not change: stop retrying it.
      const permanent = (e instanceof SmtpError && e.permanent) || e instanceof InvalidAddressError;
      await db
        .update(o)
        .set({
          lastError: message.slice(0, 500),
          claimedUntil: null,
          ...(permanent || row.attempts + 1 >= MAX_ATTEMPTS ? { attempts: MAX_ATTEMPTS, body: redactSecrets(row.body) } : {}),
        })
        .where(eq(o.id, row.id));
      console.warn(`mail ${row.id} not delivered: ${message}`);
      failed++;
    }
  }
  return { sent, failed };
}

/**
 * Mail still waiting after its secrets have expired (reset links live an hour, sign-in codes five
 * minutes) no longer needs them: the cron removes them (`purgeSignInLeftovers`).
 */
export async function redactStaleSecrets(db: Db, olderThan: number): Promise<void> {
  const rows = await db
    .select({ id: o.id, body: o.body })
    .from(o)
    .where(and(lt(o.createdAt, olderThan), sql`${o.body} not like ${`%${REDACTED}%`}`, or(sql`${o.body} like '%/resetPassword/%'`, sql`${o.body} like '%sign-in code is %'`)))
    .limit(200);
  const changed = rows.map((r) => ({ id: r.id, body: redactSecrets(r.body) })).filter((r, i) => r.body !== rows[i].body);
  if (changed.length) await db.batch(changed.map((r) => db.update(o).set({ body: r.body }).where(eq(o.id, r.id))) as never);
}

/** Deletes mail queued before `olderThan` that was sent or given up, a bounded number per run. */
export async function pruneSettledMail(db: Db, olderThan: number): Promise<void> {
  const settled = or(isNotNull(o.sentAt), gte(o.attempts, MAX_ATTEMPTS));
  const ids = db
    .select({ id: o.id })
    .from(o)
    .where(and(lt(o.createdAt, olderThan), settled))
    .limit(PRUNE_BATCH);
  await db.delete(o).where(inArray(o.id, ids));
}
