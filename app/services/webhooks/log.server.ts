/**
 * An endpoint's delivery log and replays (decision 0078): what was sent, each attempt's status, latency
 * and the start of the answer; a replay puts one delivery, or every event of a time range the endpoint
 * takes, back in the outbox, due now, under the event's own `webhook-id`.
 */
import { and, asc, count, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { WEBHOOK_MSG, webhookReplayRangeSchema } from "~/schemas/webhooks";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { findWebhookEndpoint } from "./endpoints.server";
import { newDeliveries } from "./events.server";

const { webhookEvents: ev, webhookDeliveries: wd, webhookAttempts: wa, webhookEndpoints: ep } = schema;
const MODULE = "company_settings";

export type WebhookAttemptRow = { attemptedAt: number; status: number | null; latencyMs: number; responseExcerpt: string; error: string | null };
export type WebhookDeliveryRow = {
  id: number;
  eventId: string;
  type: string;
  occurredAt: number;
  state: "pending" | "delivered" | "dead";
  attempts: number;
  lastStatus: number | null;
  nextAttemptAt: number;
  createdAt: number;
  /** The latest attempt, if any. */
  last: WebhookAttemptRow | null;
};

export const WEBHOOK_DELIVERY_SORTS = { createdAt: wd.createdAt, occurredAt: ev.occurredAt, type: ev.type, state: wd.state } as const;

/** The endpoint's deliveries, newest first, each with its latest attempt. */
export async function listWebhookDeliveries(
  db: Db,
  auth: Auth,
  endpointId: number,
  opts: { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number }; state?: WebhookDeliveryRow["state"] } = {},
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  assertCan(auth, MODULE);
  const endpoint = await findWebhookEndpoint(db, auth, endpointId);
  const where = and(eq(wd.endpointId, endpoint.id), eq(wd.companyId, auth.company.id), opts.state ? eq(wd.state, opts.state) : undefined);
  const key = opts.sort && opts.sort.key in WEBHOOK_DELIVERY_SORTS ? (opts.sort.key as keyof typeof WEBHOOK_DELIVERY_SORTS) : "createdAt";
  const dir = opts.sort?.desc === false ? asc : desc;
  const base = db
    .select({
      id: wd.id,
      eventId: wd.eventId,
      type: ev.type,
      occurredAt: ev.occurredAt,
      state: wd.state,
      attempts: wd.attempts,
      lastStatus: wd.lastStatus,
      nextAttemptAt: wd.nextAttemptAt,
      createdAt: wd.createdAt,
    })
    .from(wd)
    .innerJoin(ev, eq(ev.id, wd.eventId))
    .where(where)
    .orderBy(dir(WEBHOOK_DELIVERY_SORTS[key]), desc(wd.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base.limit(500), db.select({ n: count() }).from(wd).where(where)]);
  const latest = rows.length
    ? await db
        .select({ deliveryId: wa.deliveryId, attemptedAt: wa.attemptedAt, status: wa.status, latencyMs: wa.latencyMs, responseExcerpt: wa.responseExcerpt, error: wa.error })
        .from(wa)
        .where(
          inArray(
            wa.id,
            db
              .select({ id: sql`max(${wa.id})` })
              .from(wa)
              .where(
                inArray(
                  wa.deliveryId,
                  rows.map((r) => r.id),
                ),
              )
              .groupBy(wa.deliveryId),
          ),
        )
    : [];
  const byDelivery = new Map(latest.map(({ deliveryId, ...a }) => [deliveryId, a]));
  return { rows: rows.map((r) => ({ ...r, last: byDelivery.get(r.id) ?? null })), total: totals[0]?.n ?? 0 };
}

/** Every attempt of one delivery of the endpoint, oldest first. */
export async function listWebhookAttempts(db: Db, auth: Auth, endpointId: number, deliveryId: number): Promise<WebhookAttemptRow[]> {
  assertCan(auth, MODULE);
  const delivery = await findDelivery(db, auth, endpointId, deliveryId);
  return db
    .select({ attemptedAt: wa.attemptedAt, status: wa.status, latencyMs: wa.latencyMs, responseExcerpt: wa.responseExcerpt, error: wa.error })
    .from(wa)
    .where(eq(wa.deliveryId, delivery.id))
    .orderBy(asc(wa.attemptedAt), asc(wa.id));
}

async function findDelivery(db: Db, auth: Auth, endpointId: number, deliveryId: number) {
  const endpoint = await findWebhookEndpoint(db, auth, endpointId);
  if (!Number.isInteger(deliveryId) || deliveryId <= 0) notFound(WEBHOOK_MSG.deliveryNotFound);
  const row = await db.query.webhookDeliveries.findFirst({ where: and(eq(wd.id, deliveryId), eq(wd.endpointId, endpoint.id), eq(wd.companyId, auth.company.id)) });
  return row ?? notFound(WEBHOOK_MSG.deliveryNotFound);
}

/** Due again now, with a fresh back-off schedule; its earlier attempts stay in the log. */
const again = (now: number) => ({ state: "pending" as const, attempts: 0, nextAttemptAt: now, claimedUntil: null, updatedAt: now });

export async function replayWebhookDelivery(db: Db, auth: Auth, endpointId: number, deliveryId: number, now: number): Promise<{ message: string; deliveries: number }> {
  assertCan(auth, MODULE, "modify");
  const delivery = await findDelivery(db, auth, endpointId, deliveryId);
  await db.update(wd).set(again(now)).where(eq(wd.id, delivery.id));
  return { message: WEBHOOK_MSG.replayed, deliveries: 1 };
}

/**
 * Every event of the company that occurred in [from, to) and is of a type the endpoint takes: delivered
 * again, or for the first time (an event from before the endpoint existed, or before it took the type).
 */
export async function replayWebhookRange(db: Db, auth: Auth, endpointId: number, input: unknown, now: number): Promise<{ message: string; deliveries: number }> {
  assertCan(auth, MODULE, "modify");
  const endpoint = await findWebhookEndpoint(db, auth, endpointId);
  const { from, to } = parseInput(webhookReplayRangeSchema, input);
  const types = JSON.parse(endpoint.eventTypes) as string[];
  const inRange = and(eq(ev.companyId, auth.company.id), gte(ev.occurredAt, from), lt(ev.occurredAt, to), inArray(ev.type, types.length ? types : [""]));
  const [, updated] = await db.batch([
    newDeliveries(
      db,
      now,
      sql`from ${ev} e join ${ep} p on p.id = ${endpoint.id} where e.company_id = ${auth.company.id} and e.occurred_at >= ${from} and e.occurred_at < ${to} and e.type in (select value from json_each(p.event_types))`,
    ),
    db
      .update(wd)
      .set(again(now))
      .where(and(eq(wd.endpointId, endpoint.id), inArray(wd.eventId, db.select({ id: ev.id }).from(ev).where(inRange))))
      .returning({ id: wd.id }),
  ]);
  return { message: WEBHOOK_MSG.replayed, deliveries: updated.length };
}
