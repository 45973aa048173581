/**
 * A company's webhook endpoints (decision 0078): the company_settings module's holders see them, add,
 * modify and delete them by its action rights. Every query is bounded to the caller's company; another
 * company's endpoint is a 404. Each change writes its audit row in its batch.
 */
import { and, asc, count, desc, eq } from "drizzle-orm";
import { WEBHOOK_MSG, webhookEndpointSchema, type WebhookEndpointInput, type WebhookEventType } from "~/schemas/webhooks";
import { activityInsert } from "~/utils/activity-insert.server";
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

/** Where plain http is refused: production (decision 0044). Local runs and tests may post to http://127.0.0.1. */
export type UrlRule = { httpsOnly: boolean };
export const urlRuleOf = (env: { ENVIRONMENT?: string }): UrlRule => ({ httpsOnly: env.ENVIRONMENT !== "development" && env.ENVIRONMENT !== "test" });

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
): Promise<{ rows: WebhookEndpointRow[]; total: number }> {
  assertCan(auth, MODULE);
  const key = opts.sort && opts.sort.key in WEBHOOK_ENDPOINT_SORTS ? (opts.sort.key as keyof typeof WEBHOOK_ENDPOINT_SORTS) : "createdAt";
  const dir = opts.sort?.desc === false ? asc : desc;
  const base = db.select().from(ep).where(inCompany(ep, auth)).orderBy(dir(WEBHOOK_ENDPOINT_SORTS[key]), asc(ep.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, db.select({ n: count() }).from(ep).where(inCompany(ep, auth))]);
  return { rows: rows.map(rowOf), total: totals[0]?.n ?? 0 };
}

/** The endpoint of the caller's company, or 404. */
export async function findWebhookEndpoint(db: Db, auth: Auth, id: number) {
  if (!Number.isInteger(id) || id <= 0) notFound(WEBHOOK_MSG.notFound);
  const row = await db.query.webhookEndpoints.findFirst({ where: inCompany(ep, auth, eq(ep.id, id)) });
  return row ?? notFound(WEBHOOK_MSG.notFound);
}

export async function getWebhookEndpoint(db: Db, auth: Auth, id: number, now: number): Promise<WebhookEndpointDetails> {
  assertCan(auth, MODULE);
  const row = await findWebhookEndpoint(db, auth, id);
  const mayModify = canAct(auth.permissions, "modify");
  return { ...rowOf(row), secret: mayModify ? row.secret : null, previousSecretUntil: row.previousSecretUntil && row.previousSecretUntil > now ? row.previousSecretUntil : null };
}

function checkUrl(v: WebhookEndpointInput, rule: UrlRule) {
  if (rule.httpsOnly && !v.url.startsWith("https:")) throw new ServiceError(400, WEBHOOK_MSG.httpsOnly, { fieldErrors: { url: [WEBHOOK_MSG.httpsOnly] } });
}

const audit = (auth: Auth, name: string, summary: string, now: number, details?: Record<string, unknown>) =>
  ({ companyId: auth.company.id, name, createdByUserId: auth.user.id, summary, details, at: now }) as const;

export async function addWebhookEndpoint(db: Db, auth: Auth, input: unknown, now: number, rule: UrlRule): Promise<{ id: number; secret: string; message: string }> {
  assertCan(auth, MODULE, "add");
  const v = parseInput(webhookEndpointSchema, input);
  checkUrl(v, rule);
  const [{ n }] = await db.select({ n: count() }).from(ep).where(inCompany(ep, auth));
  if (n >= MAX_ENDPOINTS) throw new ServiceError(422, WEBHOOK_MSG.tooMany);
  const secret = newWebhookSecret();
  const [inserted] = await db.batch([
    db
      .insert(ep)
      .values({
        companyId: auth.company.id,
        url: v.url,
        description: v.description,
        eventTypes: JSON.stringify(v.eventTypes),
        enabled: v.enabled,
        secret,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ep.id }),
    activityInsert(db, audit(auth, "Webhook Endpoint Created", v.url, now, { event_types: v.eventTypes })),
  ]);
  return { id: inserted[0].id, secret, message: WEBHOOK_MSG.created };
}

export async function modifyWebhookEndpoint(db: Db, auth: Auth, id: number, input: unknown, now: number, rule: UrlRule): Promise<{ message: string }> {
  assertCan(auth, MODULE, "modify");
  const before = await findWebhookEndpoint(db, auth, id);
  const v = parseInput(webhookEndpointSchema, input);
  checkUrl(v, rule);
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
export async function rotateWebhookSecret(db: Db, auth: Auth, id: number, now: number): Promise<{ secret: string; previousSecretUntil: number; message: string }> {
  assertCan(auth, MODULE, "modify");
  const row = await findWebhookEndpoint(db, auth, id);
  const secret = newWebhookSecret();
  const previousSecretUntil = now + ROTATION_OVERLAP_MS;
  await db.batch([
    db
      .update(ep)
      .set({ secret, previousSecret: row.secret, previousSecretUntil, updatedAt: now })
      .where(inCompany(ep, auth, eq(ep.id, row.id), eq(ep.secret, row.secret))),
    activityInsert(db, audit(auth, "Webhook Secret Rotated", row.url, now)),
  ]);
  return { secret, previousSecretUntil, message: WEBHOOK_MSG.rotated };
}

/** The secrets an attempt at `now` is signed with: the current one, and the one before it during its overlap. */
export const signingSecrets = (row: { secret: string; previousSecret: string | null; previousSecretUntil: number | null }, now: number) =>
  row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > now ? [row.secret, row.previousSecret] : [row.secret];
