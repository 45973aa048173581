/**
 * Webhook delivery (decision 0078). D1's `webhook_deliveries` is the outbox: the alert engine's batch
 * writes a row per event and endpoint. `sweepWebhooks` (after that batch, on every queue wake-up and
 * from the cron) claims the due rows for a lease and sends one queue message per row; the queue's
 * consumer makes the attempt (`attemptDelivery`) and records it. A failed attempt is due again after
 * the back-off; after the last one the delivery is dead (kept in the log, replayable). A lost message
 * or a crashed consumer only delays: the lease runs out and the sweep sends the row again. So a
 * receiver may get an event more than once, always under the same `webhook-id`.
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { activityInsertWhen } from "~/utils/activity-insert.server";
import type { AtRestEnv } from "~/utils/at-rest.server";
import { schema, type Db } from "~/utils/db.server";
import { signingSecrets } from "./endpoints.server";
import { envelopeOf } from "./event-payloads";
import { disabledMail } from "./disabled-mail";
import { signedHeaders } from "./signing.server";

const { webhookEndpoints: ep, webhookEvents: ev, webhookDeliveries: wd, webhookAttempts: wa, users: u, companySettings: cs, mailOutbox: mo } = schema;

/**
 * The wait after failed attempt n (1-based) before attempt n+1: the Standard Webhooks reference schedule,
 * about 27.5 hours in all. After the last, the delivery is dead.
 */
export const RETRY_AFTER_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** An endpoint whose attempts have failed this long, with no success between, is disabled. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;
/** How long a sent message's attempt may run before the sweep sends the row again. */
const CLAIM_LEASE_MS = 120_000;
const SWEEP_LIMIT = 100;
const EXCERPT = 500;
const DEFAULT_TIMEOUT_MS = 10_000;

export type WebhookMessage = { wake: true } | { delivery: number };

/**
 * After something wrote deliveries: a message wakes the consumer, which sweeps. `afterMs`: the wake-up
 * comes then (a retry's back-off; the queue delays a message by at most 12 hours, the longest back-off is 10).
 */
export async function wakeWebhooks(env: { WEBHOOKS_QUEUE: Queue }, afterMs = 0) {
  try {
    const delaySeconds = Math.min(43_200, Math.ceil(afterMs / 1000));
    await env.WEBHOOKS_QUEUE.send({ wake: true } satisfies WebhookMessage, delaySeconds > 0 ? { delaySeconds } : undefined);
  } catch (e) {
    console.warn("webhook wake-up not sent; the cron sweep will catch up", e);
  }
}

/** Claims the due deliveries of enabled endpoints and sends each to the queue; answers how many. */
export async function sweepWebhooks(db: Db, queue: Queue, now: number): Promise<number> {
  let sent = 0;
  for (let round = 0; round < 10; round++) {
    const due = db
      .select({ id: wd.id })
      .from(wd)
      .innerJoin(ep, and(eq(ep.id, wd.endpointId), eq(ep.enabled, true)))
      .where(and(eq(wd.state, "pending"), lte(wd.nextAttemptAt, now), or(isNull(wd.claimedUntil), lte(wd.claimedUntil, now))))
      .orderBy(asc(wd.nextAttemptAt))
      .limit(SWEEP_LIMIT);
    const claimed = await db
      .update(wd)
      .set({ claimedUntil: now + CLAIM_LEASE_MS })
      .where(inArray(wd.id, due))
      .returning({ id: wd.id });
    if (claimed.length === 0) break;
    await queue.sendBatch(claimed.map((c) => ({ body: { delivery: c.id } satisfies WebhookMessage })));
    sent += claimed.length;
    if (claimed.length < SWEEP_LIMIT) break;
  }
  return sent;
}

/** `retryAfterMs`: for a retry, how long until it is due. */
export type AttemptResult = { outcome: "delivered" | "retry" | "dead" | "skipped"; status: number | null; retryAfterMs?: number };

/**
 * One attempt of one delivery at `now`: the signed POST, with a timeout, then the attempt, the delivery's
 * new state and the endpoint's failure streak in one batch. A delivery already delivered (a duplicate
 * message) or of a disabled endpoint is left alone.
 */
export async function attemptDelivery(db: Db, env: AtRestEnv, deliveryId: number, now: number, opts: { timeoutMs?: number } = {}): Promise<AttemptResult> {
  const [row] = await db
    .select({ delivery: wd, event: ev, endpoint: ep })
    .from(wd)
    .innerJoin(ev, eq(ev.id, wd.eventId))
    .innerJoin(ep, and(eq(ep.id, wd.endpointId), eq(ep.companyId, wd.companyId)))
    .where(eq(wd.id, deliveryId));
  if (!row || row.delivery.state !== "pending" || !row.endpoint.enabled) return { outcome: "skipped", status: null };
  const { delivery, event, endpoint } = row;
  const body = JSON.stringify(envelopeOf(event));
  const headers = await signedHeaders(event.id, now, body, await signingSecrets(env, endpoint, now));
  const started = Date.now();
  let status: number | null = null;
  let excerpt = "";
  let error: string | null = null;
  try {
    const res = await fetch(endpoint.url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "keyless-access-webhooks/1" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    status = res.status;
    excerpt = (await res.text()).slice(0, EXCERPT);
  } catch (e) {
    error =
      e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError") ? `no answer within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms` : String(e).slice(0, EXCERPT);
  }
  const latencyMs = Date.now() - started;
  const ok = status !== null && status >= 200 && status < 300;
  const attempts = delivery.attempts + 1;
  const outcome = ok ? "delivered" : attempts > RETRY_AFTER_MS.length ? "dead" : "retry";
  const statements: unknown[] = [
    db.insert(wa).values({ deliveryId, endpointId: endpoint.id, attemptedAt: now, status, latencyMs, responseExcerpt: excerpt, error }),
    db
      .update(wd)
      .set({
        state: outcome === "retry" ? "pending" : outcome,
        attempts,
        lastStatus: status,
        nextAttemptAt: outcome === "retry" ? now + RETRY_AFTER_MS[attempts - 1] : delivery.nextAttemptAt,
        claimedUntil: null,
        updatedAt: now,
      })
      // Only the row as this attempt read it: a replay made meanwhile (attempts back to 0, a new
      // updatedAt) stays due, rather than this answer marking it delivered or dead.
      .where(and(eq(wd.id, deliveryId), eq(wd.state, "pending"), eq(wd.attempts, delivery.attempts), eq(wd.updatedAt, delivery.updatedAt))),
    db
      .update(ep)
      .set(ok ? { failingSince: null } : { failingSince: sql`coalesce(${ep.failingSince}, ${now})` })
      .where(eq(ep.id, endpoint.id)),
  ];
  if (!ok) statements.push(...(await disableIfFailingForDays(db, endpoint, now)));
  await db.batch(statements as never);
  return outcome === "retry" ? { outcome, status, retryAfterMs: RETRY_AFTER_MS[attempts - 1] } : { outcome, status };
}

/**
 * An endpoint that has failed since DISABLE_AFTER_MS ago is disabled, audited, and its company's super
 * admins are mailed through the mail outbox (once per failure streak: the dedupe key names it).
 */
async function disableIfFailingForDays(db: Db, endpoint: typeof ep.$inferSelect, now: number): Promise<unknown[]> {
  if (endpoint.failingSince === null || now - endpoint.failingSince < DISABLE_AFTER_MS) return [];
  const [admins, settings] = await db.batch([
    db
      .select({ email: u.email })
      .from(u)
      .where(and(eq(u.companyId, endpoint.companyId), eq(u.isSuperAdmin, true), eq(u.isInactive, false), isNull(u.deletedAt))),
    db.select({ language: cs.language }).from(cs).where(eq(cs.companyId, endpoint.companyId)),
  ]);
  const mail = disabledMail(settings[0]?.language ?? "en", endpoint.url, endpoint.failingSince);
  const reason = `failing since ${new Date(endpoint.failingSince).toISOString()}`;
  return [
    // The audit row first, guarded, so that two attempts racing to disable it write one.
    activityInsertWhen(
      db,
      { companyId: endpoint.companyId, name: "Webhook Endpoint Disabled", summary: endpoint.url, details: { reason }, at: now },
      sql`exists (select 1 from ${ep} where ${ep.id} = ${endpoint.id} and ${ep.enabled} = 1)`,
    ),
    db
      .update(ep)
      .set({ enabled: false, disabledReason: reason, updatedAt: now })
      .where(and(eq(ep.id, endpoint.id), eq(ep.enabled, true))),
    ...admins.map((a) =>
      db
        .insert(mo)
        .values({
          companyId: endpoint.companyId,
          toAddress: a.email,
          subject: mail.subject,
          body: mail.body,
          dedupeKey: `webhook-disabled:${endpoint.id}:${endpoint.failingSince}:${a.email.toLowerCase()}`,
          createdAt: now,
        })
        .onConflictDoNothing(),
    ),
  ];
}
