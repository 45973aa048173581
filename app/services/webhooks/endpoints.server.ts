/**
 * A company's webhook endpoints (decision 0078): the company_settings module's holders see them, add,
 * modify and delete them by its action rights. Every query is bounded to the caller's company; another
 * company's endpoint is a 404. Each change writes its audit row in its batch. Signing secrets are
 * stored sealed (`app/utils/at-rest.server.ts`, the mailer password's key): production without the key
 * refuses to make one.
 */
import { and, asc, count, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { WEBHOOK_MSG, webhookEndpointSchema, type WebhookEndpointInput, type WebhookEventType } from "~/schemas/webhooks";
import { activityInsert } from "~/utils/activity-insert.server";
import { AtRestKeyMissing, openSecret, sealSecret, type AtRestEnv } from "~/utils/at-rest.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { canAct } from "~/utils/permissions";
import { inCompany } from "~/utils/tenant.server";
import { newWebhookSecret } from "./signing.server";

const { webhookEndpoints: ep, webhookDeliveries: wd, webhookAttempts: wa } = schema;
const MODULE = "company_settings";
const MAX_ENDPOINTS = 20;
/** How long the secret before a rotation still signs. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** What the endpoint calls read from the Worker's environment: where http is allowed, and the at-rest key. */
export type EndpointEnv = AtRestEnv;
/** Plain http is refused in production (decision 0044). Local runs and tests may post to http://127.0.0.1. */
const httpsOnly = (env: EndpointEnv) => env.ENVIRONMENT !== "development" && env.ENVIRONMENT !== "test";

export type WebhookEndpointRow = {
  id: number;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: number | null;
  createdAt: number;
};
/** A row of the endpoints list: with the state of its newest delivery, if any. */
export type WebhookEndpointListRow = WebhookEndpointRow & { lastDeliveryState: "pending" | "delivered" | "dead" | null };
export type WebhookEndpointDetails = WebhookEndpointRow & {
  /** Only for those who may modify endpoints. */
  secret: string | null;
  previousSecretUntil: number | null;
};

export const WEBHOOK_ENDPOINT_SORTS = { url: ep.url, description: ep.description, createdAt: ep.createdAt } as const;

const rowOf = (x: typeof ep.$inferSelect): WebhookEndpointRow => ({
  id: x.id,
  url: x.url,
  description: x.description,
  eventTypes: JSON.parse(x.eventTypes),
  enabled: x.enabled,
  disabledReason: x.disabledReason,
  failingSince: x.failingSince,
  createdAt: x.createdAt,
});

export async function listWebhookEndpoints(
  db: Db,
  auth: Auth,
  opts: { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } } = {},
): Promise<{ rows: WebhookEndpointListRow[]; total: number }> {
  assertCan(auth, MODULE);
  const key = opts.sort && opts.sort.key in WEBHOOK_ENDPOINT_SORTS ? (opts.sort.key as keyof typeof WEBHOOK_ENDPOINT_SORTS) : "createdAt";
  const dir = opts.sort?.desc === false ? asc : desc;
  // Spelt out with an alias: a one-table select renders its columns unqualified, so `${ep.id}` here would
  // read the subquery's own id.
  const lastDeliveryState = sql<WebhookEndpointListRow["lastDeliveryState"]>`(select d.state from ${wd} d where d.endpoint_id = ${ep}."id" order by d.id desc limit 1)`;
  const base = db
    .select({ ...getTableColumns(ep), lastDeliveryState })
    .from(ep)
    .where(inCompany(ep, auth))
    .orderBy(dir(WEBHOOK_ENDPOINT_SORTS[key]), asc(ep.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, db.select({ n: count() }).from(ep).where(inCompany(ep, auth))]);
  return { rows: rows.map((r) => ({ ...rowOf(r), lastDeliveryState: r.lastDeliveryState })), total: totals[0]?.n ?? 0 };
}

/** The endpoint of the caller's company, or 404. */
export async function findWebhookEndpoint(db: Db, auth: Auth, id: number) {
  if (!Number.isInteger(id) || id <= 0) notFound(WEBHOOK_MSG.notFound);
  const row = await db.query.webhookEndpoints.findFirst({ where: inCompany(ep, auth, eq(ep.id, id)) });
  return row ?? notFound(WEBHOOK_MSG.notFound);
}

export async function getWebhookEndpoint(db: Db, env: EndpointEnv, auth: Auth, id: number, now: number): Promise<WebhookEndpointDetails> {
  assertCan(auth, MODULE);
  const row = await findWebhookEndpoint(db, auth, id);
  const mayModify = canAct(auth.permissions, "modify");
  return {
    ...rowOf(row),
    secret: mayModify ? await openSecret(env, row.secret) : null,
    previousSecretUntil: row.previousSecretUntil && row.previousSecretUntil > now ? row.previousSecretUntil : null,
  };
}

function checkUrl(v: WebhookEndpointInput, env: EndpointEnv) {
  if (httpsOnly(env) && !v.url.startsWith("https:")) throw new ServiceError(400, WEBHOOK_MSG.httpsOnly, { fieldErrors: { url: [WEBHOOK_MSG.httpsOnly] } });
}

/** A new secret, and the value stored for it; production without the at-rest key is refused (422), like the mailer. */
async function newSealedSecret(env: EndpointEnv): Promise<{ secret: string; sealed: string }> {
  const secret = newWebhookSecret();
  try {
    return { secret, sealed: await sealSecret(env, secret) };
  } catch (e) {
    if (e instanceof AtRestKeyMissing) throw new ServiceError(422, e.message);
    throw e;
  }
}

const audit = (auth: Auth, name: string, summary: string, now: number, details?: Record<string, unknown>) =>
  ({ companyId: auth.company.id, name, createdByUserId: auth.user.id, summary, details, at: now }) as const;

export async function addWebhookEndpoint(db: Db, env: EndpointEnv, auth: Auth, input: unknown, now: number): Promise<{ id: number; secret: string; message: string }> {
  assertCan(auth, MODULE, "add");
  const v = parseInput(webhookEndpointSchema, input);
  checkUrl(v, env);
  const [{ n }] = await db.select({ n: count() }).from(ep).where(inCompany(ep, auth));
  if (n >= MAX_ENDPOINTS) throw new ServiceError(422, WEBHOOK_MSG.tooMany);
  const { secret, sealed } = await newSealedSecret(env);
  const [inserted] = await db.batch([
    db
      .insert(ep)
      .values({
        companyId: auth.company.id,
        url: v.url,
        description: v.description,
        eventTypes: JSON.stringify(v.eventTypes),
        enabled: v.enabled,
        secret: sealed,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ep.id }),
    activityInsert(db, audit(auth, "Webhook Endpoint Created", v.url, now, { event_types: v.eventTypes })),
  ]);
  return { id: inserted[0].id, secret, message: WEBHOOK_MSG.created };
}

export async function modifyWebhookEndpoint(db: Db, env: EndpointEnv, auth: Auth, id: number, input: unknown, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULE, "modify");
  const before = await findWebhookEndpoint(db, auth, id);
  const v = parseInput(webhookEndpointSchema, input);
  checkUrl(v, env);
  // Enabling again forgets the failures that disabled it.
  const revived = v.enabled && !before.enabled ? { failingSince: null, disabledReason: null } : {};
  await db.batch([
    db
      .update(ep)
      .set({ url: v.url, description: v.description, eventTypes: JSON.stringify(v.eventTypes), enabled: v.enabled, updatedAt: now, ...revived })
      .where(inCompany(ep, auth, eq(ep.id, id))),
    activityInsert(db, audit(auth, "Webhook Endpoint Modified", v.url, now, { event_types: v.eventTypes, enabled: v.enabled })),
  ]);
  return { message: WEBHOOK_MSG.modified };
}

/** The endpoint goes with its deliveries and their log. */
export async function deleteWebhookEndpoint(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULE, "delete");
  const row = await findWebhookEndpoint(db, auth, id);
  await db.batch([
    db.delete(wa).where(eq(wa.endpointId, row.id)),
    db.delete(wd).where(and(eq(wd.endpointId, row.id), eq(wd.companyId, auth.company.id))),
    db.delete(ep).where(inCompany(ep, auth, eq(ep.id, row.id))),
    activityInsert(db, audit(auth, "Webhook Endpoint Removed", row.url, now)),
  ]);
  return { message: WEBHOOK_MSG.deleted };
}

/** A new secret; the current one keeps signing beside it for ROTATION_OVERLAP_MS, so receivers can switch. */
export async function rotateWebhookSecret(
  db: Db,
  env: EndpointEnv,
  auth: Auth,
  id: number,
  now: number,
): Promise<{ secret: string; previousSecretUntil: number; message: string }> {
  assertCan(auth, MODULE, "modify");
  const row = await findWebhookEndpoint(db, auth, id);
  const { secret, sealed } = await newSealedSecret(env);
  const previousSecretUntil = now + ROTATION_OVERLAP_MS;
  await db.batch([
    db
      .update(ep)
      .set({ secret: sealed, previousSecret: row.secret, previousSecretUntil, updatedAt: now })
      .where(inCompany(ep, auth, eq(ep.id, row.id), eq(ep.secret, row.secret))),
    activityInsert(db, audit(auth, "Webhook Secret Rotated", row.url, now)),
  ]);
  return { secret, previousSecretUntil, message: WEBHOOK_MSG.rotated };
}

/** The secrets an attempt at `now` is signed with, opened: the current one, and the one before it during its overlap. */
export async function signingSecrets(env: AtRestEnv, row: { secret: string; previousSecret: string | null; previousSecretUntil: number | null }, now: number): Promise<string[]> {
  const stored = row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > now ? [row.secret, row.previousSecret] : [row.secret];
  return Promise.all(stored.map((s) => openSecret(env, s)));
}
