/**
 * Webhook endpoints, their delivery log and replays (docs/decisions/0078-webhooks.md). The company_settings
 * module's holders: view to read, add / modify / delete to change; the secret is shown to those who may
 * modify. The payloads receivers get are described under the document's `WebhookEvent_*` schemas and at
 * /api/webhook-schemas.json.
 */
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, webhookEndpointSchema, webhookReplayRangeSchema, type WebhookEventType } from "~/schemas/webhooks";
import * as endpoints from "~/services/webhooks/endpoints.server";
import type { WebhookEndpointDetails, WebhookEndpointRow } from "~/services/webhooks/endpoints.server";
import * as log from "~/services/webhooks/log.server";
import type { WebhookAttemptRow, WebhookDeliveryRow } from "~/services/webhooks/log.server";
import { wakeWebhooks } from "~/services/webhooks/delivery.server";
import { schema } from "~/utils/db.server";
import { endpoint } from "../define.server";
import { wireObject, withWireFields } from "../wire-fields.server";

const tag = "Webhooks";
const { WEBHOOK_DELIVERY_STATES } = schema;
const MODULE = "company_settings";
const WIRE = { url: "url", description: "description", eventTypes: "event_types", enabled: "enabled" } as const;
const body = wireObject(webhookEndpointSchema, WIRE);
const id = (v: string) => Number(/^\d{1,15}$/.test(v) ? v : NaN);

const endpointShape = z.object({
  id: z.number(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable().describe("why the platform disabled it (failing for days); null when enabled or disabled by an admin"),
  failing_since: z.number().nullable().describe("epoch ms of the first failed attempt since the last success"),
  created_at: z.number(),
});
const detailsShape = endpointShape.extend({
  secret: z.string().nullable().describe("`whsec_` + base64: the signing secret; null for callers without the modify right"),
  previous_secret_until: z.number().nullable().describe("during a rotation: until when (epoch ms) the secret before it signs too"),
});
const attemptShape = z.object({
  attempted_at: z.number(),
  status: z.number().nullable().describe("the receiver's HTTP status; null when none came (timeout, refused)"),
  latency_ms: z.number(),
  response_excerpt: z.string().describe("the first 500 characters of the answer"),
  error: z.string().nullable(),
});
const deliveryShape = z.object({
  id: z.number(),
  event_id: z.string().describe("the webhook-id"),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  occurred_at: z.number(),
  state: z.enum(WEBHOOK_DELIVERY_STATES).describe("pending (waiting or retrying), delivered, or dead after the last retry"),
  attempts: z.number(),
  last_status: z.number().nullable(),
  next_attempt_at: z.number(),
  created_at: z.number(),
  last_attempt: attemptShape.nullable(),
});

const endpointPayload = (r: WebhookEndpointRow) => ({
  id: r.id,
  url: r.url,
  description: r.description,
  event_types: r.eventTypes,
  enabled: r.enabled,
  disabled_reason: r.disabledReason,
  failing_since: r.failingSince,
  created_at: r.createdAt,
});
const attemptPayload = (a: WebhookAttemptRow) => ({ attempted_at: a.attemptedAt, status: a.status, latency_ms: a.latencyMs, response_excerpt: a.responseExcerpt, error: a.error });
const deliveryPayload = (d: WebhookDeliveryRow) => ({
  id: d.id,
  event_id: d.eventId,
  // The column holds only the types the event writer emits (WEBHOOK_EVENT_TYPES).
  type: d.type as WebhookEventType,
  occurred_at: d.occurredAt,
  state: d.state,
  attempts: d.attempts,
  last_status: d.lastStatus,
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
  last_attempt: d.last && attemptPayload(d.last),
});

const message = z.object({ message: z.string() });
const listQuery = z.object({
  state: z.enum(WEBHOOK_DELIVERY_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const webhookEndpoints = [
  endpoint({
    method: "GET",
    path: "/webhooks/eventTypes",
    tag,
    summary: "The event types an endpoint can subscribe to.",
    auth: "token",
    permission: { modules: MODULE },
    response: z.object({ payload: z.array(z.enum(WEBHOOK_EVENT_TYPES)) }),
    async handler() {
      return { payload: [...WEBHOOK_EVENT_TYPES] };
    },
  }),
  endpoint({
    method: "GET",
    path: "/webhooks/endpoints",
    tag,
    summary: "The caller's company's webhook endpoints, newest first.",
    auth: "token",
    permission: { modules: MODULE },
    response: z.object({ payload: z.array(endpointShape) }),
    async handler({ db, auth }) {
      return { payload: (await endpoints.listWebhookEndpoints(db, auth)).rows.map(endpointPayload) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/webhooks/endpoints",
    tag,
    summary:
      "Adds an endpoint ('Webhook Endpoint Created'): url (https; http only outside production), description, event_types, enabled (default true). Answers its id and signing secret (stored encrypted). 400 with field errors; 422 past 20 endpoints, or in production when the MAILER_SECRET key is not set.",
    auth: "token",
    permission: { modules: MODULE, action: "add" },
    body,
    response: message.extend({ payload: z.object({ id: z.number(), secret: z.string() }) }),
    async handler({ db, auth, body, now, env }) {
      const r = await withWireFields(WIRE, () => endpoints.addWebhookEndpoint(db, env, auth, body, now));
      return { message: r.message, payload: { id: r.id, secret: r.secret } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/webhooks/endpoints/:id",
    tag,
    summary: "One endpoint, with its secret for callers who may modify endpoints.",
    auth: "token",
    permission: { modules: MODULE },
    response: z.object({ payload: detailsShape }),
    async handler({ db, auth, params, now, env }) {
      const d: WebhookEndpointDetails = await endpoints.getWebhookEndpoint(db, env, auth, id(params.id), now);
      return { payload: { ...endpointPayload(d), secret: d.secret, previous_secret_until: d.previousSecretUntil } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/webhooks/endpoints/:id",
    tag,
    summary: "Saves an endpoint ('Webhook Endpoint Modified'); the same body as adding. Enabling a disabled endpoint clears its failure streak.",
    auth: "token",
    permission: { modules: MODULE, action: "modify" },
    body,
    response: message,
    async handler({ db, auth, params, body, now, env }) {
      return await withWireFields(WIRE, () => endpoints.modifyWebhookEndpoint(db, env, auth, id(params.id), body, now));
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/webhooks/endpoints/:id",
    tag,
    summary: "Deletes an endpoint with its deliveries and their log ('Webhook Endpoint Removed').",
    auth: "token",
    permission: { modules: MODULE, action: "delete" },
    response: message,
    async handler({ db, auth, params, now }) {
      return await endpoints.deleteWebhookEndpoint(db, auth, id(params.id), now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/webhooks/endpoints/:id/rotateSecret",
    tag,
    summary:
      "A new signing secret ('Webhook Secret Rotated'). For 24 hours every delivery carries a signature by the new and one by the old secret (webhook-signature lists both), so a receiver verifies with either while it switches.",
    auth: "token",
    permission: { modules: MODULE, action: "modify" },
    response: message.extend({ payload: z.object({ secret: z.string(), previous_secret_until: z.number() }) }),
    async handler({ db, auth, params, now, env }) {
      const r = await endpoints.rotateWebhookSecret(db, env, auth, id(params.id), now);
      return { message: r.message, payload: { secret: r.secret, previous_secret_until: r.previousSecretUntil } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/webhooks/endpoints/:id/deliveries",
    tag,
    summary: "The endpoint's delivery log, newest first: each event sent, its state, attempts and latest attempt (status, latency, start of the answer).",
    auth: "token",
    permission: { modules: MODULE },
    query: listQuery,
    response: z.object({ payload: z.object({ rows: z.array(deliveryShape), total: z.number() }) }),
    async handler({ db, auth, params, query }) {
      const r = await log.listWebhookDeliveries(db, auth, id(params.id), { state: query.state, page: { limit: query.limit, offset: query.offset } });
      return { payload: { rows: r.rows.map(deliveryPayload), total: r.total } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/webhooks/endpoints/:id/deliveries/:deliveryId/attempts",
    tag,
    summary: "Every attempt of one delivery, oldest first.",
    auth: "token",
    permission: { modules: MODULE },
    response: z.object({ payload: z.array(attemptShape) }),
    async handler({ db, auth, params }) {
      return { payload: (await log.listWebhookAttempts(db, auth, id(params.id), id(params.deliveryId))).map(attemptPayload) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/webhooks/endpoints/:id/deliveries/:deliveryId/replay",
    tag,
    summary: "Sends one delivery again now, under the event's own webhook-id, with a fresh retry schedule.",
    auth: "token",
    permission: { modules: MODULE, action: "modify" },
    response: message.extend({ payload: z.object({ deliveries: z.number() }) }),
    async handler({ db, auth, params, now, env, waitUntil }) {
      const r = await log.replayWebhookDelivery(db, auth, id(params.id), id(params.deliveryId), now);
      waitUntil(wakeWebhooks(env));
      return { message: r.message, payload: { deliveries: r.deliveries } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/webhooks/endpoints/:id/replay",
    tag,
    summary:
      "Sends again every event of the company that occurred in [from, to) (epoch ms, at most 30 days) and is of a type the endpoint takes, including ones it never received.",
    auth: "token",
    permission: { modules: MODULE, action: "modify" },
    body: webhookReplayRangeSchema,
    response: message.extend({ payload: z.object({ deliveries: z.number() }) }),
    async handler({ db, auth, params, body, now, env, waitUntil }) {
      const r = await log.replayWebhookRange(db, auth, id(params.id), body, now);
      waitUntil(wakeWebhooks(env));
      return { message: r.message, payload: { deliveries: r.deliveries } };
    },
  }),
];
