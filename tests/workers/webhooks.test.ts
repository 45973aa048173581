/**
 * Webhooks end to end (docs/decisions/0078-webhooks.md): endpoints through the admin API, events written
 * by the alert engine from real activity (admin API changes drained from D1's outbox, gateway events on
 * the store's alarm), delivered by the console's webhook queue consumer to a real HTTP receiver on
 * 127.0.0.1 (scripts/webhook-receiver.mjs), verified here with the `standardwebhooks` package as a
 * receiver would. The back-off, the dead letter and disabling are driven with an injected clock.
 */
import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { eq, like } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { background } from "../../worker-background";
import { ENVELOPES } from "../../app/services/webhooks/event-payloads";
import { attemptDelivery, DISABLE_AFTER_MS, RETRY_AFTER_MS, sweepWebhooks } from "../../app/services/webhooks/delivery.server";
import { api, companyLog, consoleWorker, db, login, ORIGIN, schema, workerNow } from "./helpers";
import { RECEIVER, received, receivedAtLeast, wake, type Received } from "./webhook-delivery";

const BASE = "/api/admin/webhooks/endpoints";
const ACME = 3;
/** admin@acme.example, whose session `acme` is. */
const ADMIN = 3;

/** Waits until the consumer has recorded the endpoint's delivery's `n`th attempt (a message in flight holds its lease). */
async function attemptsRecorded(endpointId: number, n: number) {
  for (let i = 0; i < 200; i++) {
    const [d] = await db().select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, endpointId));
    if (d && d.attempts >= n && d.claimedUntil === null) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`attempt ${n} of endpoint ${endpointId} not recorded`);
}

let acme: string;
let beta: string;
let auditor: string;

const newUser = () => ({
  firstName: "Wen",
  lastName: "Hook",
  displayName: "Hook, Wen",
  emailId: `wen.${Math.random().toString(36).slice(2, 8)}@acme.example`,
  countryCode: "34",
  phoneNumer: `6${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
  userNotes: "",
  isSentinel: "0",
  isSuperAdmin: "0",
  isInstaller: "0",
  isFob: "0",
  isInactive: "0",
  isSOInterrupt: "0",
});

async function addEndpoint(name: string, eventTypes: string[], query = "") {
  const r = await api(acme, "POST", BASE, { url: `${RECEIVER}/hooks/${name}${query}`, description: name, event_types: eventTypes });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.payload as { id: number; secret: string };
}

async function addUser() {
  const r = await api(acme, "POST", "/api/admin/user/addUser", newUser());
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

const verify = (secret: string, m: Received) => new Webhook(secret).verify(m.body, m.headers);

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
});

describe("webhook endpoints in the admin API", () => {
  it("creates, reads, lists, modifies and deletes within the caller's company", async () => {
    const { id, secret } = await addEndpoint("crud", ["user.created"]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const one = await api(acme, "GET", `${BASE}/${id}`);
    expect(one.body.payload).toMatchObject({ id, event_types: ["user.created"], enabled: true, secret });
    expect((await api(acme, "GET", BASE)).body.payload.map((e: { id: number }) => e.id)).toContain(id);
    const put = await api(acme, "PUT", `${BASE}/${id}`, { url: `${RECEIVER}/hooks/crud2`, event_types: ["user.deleted", "key.assigned"], enabled: false });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await api(acme, "GET", `${BASE}/${id}`)).body.payload).toMatchObject({ url: `${RECEIVER}/hooks/crud2`, event_types: ["user.deleted", "key.assigned"], enabled: false });
    // Another company's endpoint does not exist for BETA.
    expect((await api(beta, "GET", `${BASE}/${id}`)).status).toBe(404);
    expect((await api(beta, "DELETE", `${BASE}/${id}`)).status).toBe(404);
    expect((await api(beta, "GET", BASE)).body.payload.map((e: { id: number }) => e.id)).not.toContain(id);
    // Without the company settings module: refused before the body is read.
    expect((await api(auditor, "GET", `${BASE}/${id}`)).status).toBe(403);
    expect((await api(auditor, "POST", BASE, { url: "not even a url" })).status).toBe(403);
    expect((await api(acme, "DELETE", `${BASE}/${id}`)).status).toBe(200);
    expect((await api(acme, "GET", `${BASE}/${id}`)).status).toBe(404);
  });

  it("refuses bad input with 400 and field errors", async () => {
    const bad = await api(acme, "POST", BASE, { url: "ftp://example.com/hook", event_types: ["user.created"] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.url).toBeTruthy();
    const noTypes = await api(acme, "POST", BASE, { url: "https://example.com/hook", event_types: [] });
    expect(noTypes.status).toBe(400);
    const unknown = await api(acme, "POST", BASE, { url: "https://example.com/hook", event_types: ["door.exploded"] });
    expect(unknown.status).toBe(400);
  });

  it("publishes a JSON Schema per event type beside the OpenAPI document", async () => {
    const doc = (await (await consoleWorker.fetch(`${ORIGIN}/api/webhook-schemas.json`)).json()) as { $defs: Record<string, unknown> };
    for (const type of Object.keys(ENVELOPES)) expect(doc.$defs[`WebhookEvent_${type}`], type).toBeTruthy();
    const openapi = (await (await consoleWorker.fetch(`${ORIGIN}/api/openapi.json`)).json()) as {
      components: { schemas: Record<string, unknown> };
      paths: Record<string, unknown>;
    };
    expect(openapi.components.schemas["WebhookEvent_access.denied"]).toBeTruthy();
    expect(openapi.paths["/api/admin/webhooks/endpoints/{id}/rotateSecret"]).toBeTruthy();
  });
});

describe("delivery", () => {
  it("retries a receiver that fails three times, then delivers once by webhook-id, signed; the log shows every attempt", async () => {
    const { id, secret } = await addEndpoint("flaky", ["user.created"], "?fail=3");
    await addUser();
    await wake();
    // The store's engine wrote the event and woke the webhook queue: the console's consumer made attempt 1.
    await receivedAtLeast("flaky", 1);
    for (let n = 2; n <= 4; n++) {
      await attemptsRecorded(id, n - 1);
      // Each retry is due after its back-off: the sweep runs with a clock a day on.
      await sweepWebhooks(db(), env.WEBHOOKS_QUEUE, workerNow() + 86_400_000);
      await receivedAtLeast("flaky", n);
    }
    await attemptsRecorded(id, 4);
    const got = await received("flaky");
    expect(got.map((m) => m.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(got.map((m) => m.headers["webhook-id"])).size).toBe(1);
    const accepted = got.filter((m) => m.answered === 200);
    expect(accepted).toHaveLength(1);
    for (const m of got) verify(secret, m);
    const body = ENVELOPES["user.created"].parse(JSON.parse(accepted[0].body));
    expect(body).toMatchObject({ version: 1, type: "user.created", company: { id: ACME }, id: got[0].headers["webhook-id"] });

    const log = await api(acme, "GET", `${BASE}/${id}/deliveries`);
    expect(log.body.payload.rows).toHaveLength(1);
    expect(log.body.payload.rows[0]).toMatchObject({ state: "delivered", attempts: 4, last_status: 200, event_id: body.id, type: "user.created" });
    const attempts = await api(acme, "GET", `${BASE}/${id}/deliveries/${log.body.payload.rows[0].id}/attempts`);
    expect(attempts.body.payload.map((a: { status: number }) => a.status)).toEqual([500, 500, 500, 200]);
    expect(attempts.body.payload[0].response_excerpt).toContain("scripted failure");
    expect(attempts.body.payload.every((a: { latency_ms: number }) => a.latency_ms >= 0)).toBe(true);
    // A sweep finds nothing more to send for it.
    const before = (await received("flaky")).length;
    await sweepWebhooks(db(), env.WEBHOOKS_QUEUE, workerNow() + 2 * 86_400_000);
    expect((await api(acme, "GET", `${BASE}/${id}/deliveries`)).body.payload.rows[0].attempts).toBe(4);
    expect((await received("flaky")).length).toBe(before);
  });

  it("replays one delivery and a time range under the same webhook-id", async () => {
    const { id, secret } = await addEndpoint("replay", ["user.created"]);
    const from = workerNow();
    await addUser();
    await wake();
    const [first] = await receivedAtLeast("replay", 1);
    await attemptsRecorded(id, 1);
    const [delivery] = (await api(acme, "GET", `${BASE}/${id}/deliveries`)).body.payload.rows;
    expect(delivery.state).toBe("delivered");

    expect((await api(acme, "POST", `${BASE}/${id}/deliveries/${delivery.id}/replay`)).status).toBe(200);
    const again = await receivedAtLeast("replay", 2);
    expect(again[1].headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(again[1].body).toBe(first.body);
    verify(secret, again[1]);
    await attemptsRecorded(id, 1);

    const range = await api(acme, "POST", `${BASE}/${id}/replay`, { from, to: workerNow() + 1 });
    expect(range.status, JSON.stringify(range.body)).toBe(200);
    expect(range.body.payload.deliveries).toBe(1);
    const third = await receivedAtLeast("replay", 3);
    expect(third[2].headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect((await api(acme, "POST", `${BASE}/${id}/replay`, { from: 10, to: 5 })).status).toBe(400);
    expect((await api(beta, "POST", `${BASE}/${id}/deliveries/${delivery.id}/replay`)).status).toBe(404);
  });

  it("a replay made while an attempt is in flight is not undone by that attempt's answer", async () => {
    const { id } = await addEndpoint("inflight", ["user.created"], "?delay=700");
    await db().update(schema.webhookEndpoints).set({ enabled: false }).where(eq(schema.webhookEndpoints.id, id));
    await db()
      .insert(schema.webhookEvents)
      .values({ id: "msg_inflight_test", companyId: ACME, type: "user.created", source: "test:inflight", occurredAt: workerNow(), dataJson: "{}" });
    const [d] = await db()
      .insert(schema.webhookDeliveries)
      .values({ companyId: ACME, endpointId: id, eventId: "msg_inflight_test", nextAttemptAt: workerNow(), updatedAt: workerNow() - 1_000 })
      .returning();
    await db().update(schema.webhookEndpoints).set({ enabled: true }).where(eq(schema.webhookEndpoints.id, id));
    const inFlight = attemptDelivery(db(), env, d.id, workerNow());
    await receivedAtLeast("inflight", 1); // the receiver holds its answer for 700 ms
    expect((await api(acme, "POST", `${BASE}/${id}/deliveries/${d.id}/replay`)).status).toBe(200);
    expect((await inFlight).outcome).toBe("delivered");
    const [after] = await db().select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, d.id));
    expect(after).toMatchObject({ state: "pending", attempts: 0 });
  });

  it("keeps signing secrets encrypted at rest; signatures verify, and a row stored before encryption still signs", async () => {
    const { id, secret } = await addEndpoint("sealed", ["user.created"]);
    const stored = async () => (await db().select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, id)))[0];
    const row = await stored();
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(secret.slice("whsec_".length));
    expect((await api(acme, "GET", `${BASE}/${id}`)).body.payload.secret).toBe(secret);
    await addUser();
    await wake();
    const [m] = await receivedAtLeast("sealed", 1);
    verify(secret, m);
    // A rotation seals the new secret and keeps the old one sealed beside it.
    const fresh = (await api(acme, "POST", `${BASE}/${id}/rotateSecret`)).body.payload.secret as string;
    const rotated = await stored();
    expect([rotated.secret, rotated.previousSecret].every((s) => s?.startsWith("enc:v1:"))).toBe(true);
    expect(rotated.previousSecret).toBe(row.secret);
    expect(rotated.secret).not.toContain(fresh.slice("whsec_".length));
    // A row written before secrets were sealed (plain text) still signs.
    const plain = "whsec_" + btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    await db().update(schema.webhookEndpoints).set({ secret: plain, previousSecret: null }).where(eq(schema.webhookEndpoints.id, id));
    const [delivery] = (await api(acme, "GET", `${BASE}/${id}/deliveries`)).body.payload.rows;
    await db().update(schema.webhookDeliveries).set({ state: "pending" }).where(eq(schema.webhookDeliveries.id, delivery.id));
    await attemptDelivery(db(), env, delivery.id, workerNow());
    verify(plain, (await received("sealed")).at(-1)!);
  });

  it("signs with both secrets during a rotation, and with the new one alone after it", async () => {
    const { id, secret: old } = await addEndpoint("rotate", ["user.created"]);
    const rotated = await api(acme, "POST", `${BASE}/${id}/rotateSecret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.payload.secret as string;
    expect(fresh).not.toBe(old);
    await addUser();
    await wake();
    const [m] = await receivedAtLeast("rotate", 1);
    expect(m.headers["webhook-signature"].split(" ")).toHaveLength(2);
    verify(old, m);
    verify(fresh, m);
    // Once the overlap is over, an attempt is signed with the new secret alone.
    await db()
      .update(schema.webhookEndpoints)
      .set({ previousSecretUntil: workerNow() - 1 })
      .where(eq(schema.webhookEndpoints.id, id));
    const [delivery] = (await api(acme, "GET", `${BASE}/${id}/deliveries`)).body.payload.rows;
    await db().update(schema.webhookDeliveries).set({ state: "pending" }).where(eq(schema.webhookDeliveries.id, delivery.id));
    await attemptDelivery(db(), env, delivery.id, workerNow());
    const late = (await received("rotate")).at(-1)!;
    expect(late.headers["webhook-signature"].split(" ")).toHaveLength(1);
    verify(fresh, late);
    expect(() => verify(old, late)).toThrow();
  });

  it("backs off for more than 24 hours, then the delivery is dead; an endpoint failing for days is disabled and its admins mailed", async () => {
    const { id } = await addEndpoint("down", ["user.created"], "?fail=1000");
    await addUser();
    await wake();
    await attemptsRecorded(id, 1);
    const row = async () => (await db().select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, id)))[0];
    let d = await row();
    expect(d.attempts).toBe(1);
    const start = d.updatedAt;
    expect(d.nextAttemptAt - start).toBe(RETRY_AFTER_MS[0]);
    // Each retry at the instant it is due, by the injected clock.
    for (let n = 2; n <= RETRY_AFTER_MS.length + 1; n++) {
      const at = d.nextAttemptAt;
      expect((await attemptDelivery(db(), env, d.id, at)).outcome).toBe(n <= RETRY_AFTER_MS.length ? "retry" : "dead");
      d = await row();
      if (n <= RETRY_AFTER_MS.length) expect(d.nextAttemptAt - at).toBe(RETRY_AFTER_MS[n - 1]);
    }
    expect(d.state).toBe("dead");
    expect(d.updatedAt - start).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(await received("down")).toHaveLength(RETRY_AFTER_MS.length + 1);
    // A dead delivery is not sent again by the sweep.
    await sweepWebhooks(db(), env.WEBHOOKS_QUEUE, d.updatedAt + 86_400_000);
    expect((await attemptDelivery(db(), env, d.id, d.updatedAt + 86_400_000)).outcome).toBe("skipped");

    // Still failing five days after its first failure: replayed, the next failure disables it.
    const ep = (await db().select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, id)))[0];
    expect(ep.failingSince).toBe(start);
    await db().update(schema.webhookDeliveries).set({ state: "pending", attempts: 0 }).where(eq(schema.webhookDeliveries.id, d.id));
    await attemptDelivery(db(), env, d.id, start + DISABLE_AFTER_MS + 1);
    const after = (await db().select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, id)))[0];
    expect(after.enabled).toBe(false);
    expect(after.disabledReason).toMatch(/^failing since /);
    const mails = await db()
      .select()
      .from(schema.mailOutbox)
      .where(like(schema.mailOutbox.dedupeKey, `webhook-disabled:${id}:%`));
    expect(mails.map((m) => m.toAddress)).toContain("admin@acme.example");
    expect(mails[0].subject).toBe("Webhook disabled: its endpoint is not answering");
    // Disabled: nothing more is attempted.
    expect((await attemptDelivery(db(), env, d.id, start + DISABLE_AFTER_MS + 2)).outcome).toBe("skipped");
  });

  it("after a failed attempt the consumer wakes the queue when the retry is due, not at the next cron", async () => {
    const { id } = await addEndpoint("wake", ["user.created"], "?fail=1");
    await db().update(schema.webhookEndpoints).set({ enabled: false }).where(eq(schema.webhookEndpoints.id, id));
    await db().insert(schema.webhookEvents).values({ id: "msg_wake_test", companyId: ACME, type: "user.created", source: "test:wake", occurredAt: workerNow(), dataJson: "{}" });
    const [d] = await db().insert(schema.webhookDeliveries).values({ companyId: ACME, endpointId: id, eventId: "msg_wake_test", nextAttemptAt: workerNow() }).returning();
    await db().update(schema.webhookEndpoints).set({ enabled: true }).where(eq(schema.webhookEndpoints.id, id));
    // The real queue, with what the consumer sends to it noted on the way.
    const sent: { body: unknown; options?: QueueSendOptions }[] = [];
    const queue = { send: (body: unknown, options?: QueueSendOptions) => (sent.push({ body, options }), env.WEBHOOKS_QUEUE.send(body, options)) };
    const batch = createMessageBatch("keyless-webhooks", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { delivery: d.id } }]);
    const ctx = createExecutionContext();
    await background.queue(batch as never, { ...env, WEBHOOKS_QUEUE: queue } as never, ctx);
    await waitOnExecutionContext(ctx);
    expect(await received("wake")).toMatchObject([{ answered: 500 }]);
    expect(sent).toEqual([{ body: { wake: true }, options: { delaySeconds: RETRY_AFTER_MS[0] / 1000 } }]);
  });

  it("times out an attempt that gets no answer in time", async () => {
    const { id } = await addEndpoint("slow", ["user.created"], "?delay=1500");
    await db().update(schema.webhookEndpoints).set({ enabled: false }).where(eq(schema.webhookEndpoints.id, id));
    await db()
      .insert(schema.webhookEvents)
      .values({ id: "msg_timeout_test", companyId: ACME, type: "user.created", source: "test:timeout", occurredAt: workerNow(), dataJson: "{}" });
    const [d] = await db().insert(schema.webhookDeliveries).values({ companyId: ACME, endpointId: id, eventId: "msg_timeout_test", nextAttemptAt: workerNow() }).returning();
    await db().update(schema.webhookEndpoints).set({ enabled: true }).where(eq(schema.webhookEndpoints.id, id));
    const r = await attemptDelivery(db(), env, d.id, workerNow(), { timeoutMs: 200 });
    expect(r).toEqual({ outcome: "retry", status: null, retryAfterMs: RETRY_AFTER_MS[0] });
    const [attempt] = await db().select().from(schema.webhookAttempts).where(eq(schema.webhookAttempts.deliveryId, d.id));
    expect(attempt.error).toBe("no answer within 200 ms");
    expect(attempt.latencyMs).toBeLessThan(1500);
  });

  it("sends gateway events with their reason code, and the alerts they fire", async () => {
    const { secret } = await addEndpoint("doors", ["access.denied", "door.forced_open", "alert.fired"]);
    const alert = await api(acme, "POST", "/api/admin/user/addAlert", {
      displayName: "Webhook night watch",
      activity: { name: "Door Forced Open", type: "Device", alert_conditions: "001" },
      created_by_users: [],
      target_users: [],
      devices: [{ id: null, type: "Any Device" }],
      schedule: "any",
      emails: ["night-watch@acme.example"],
    });
    expect(alert.status, JSON.stringify(alert.body)).toBe(200);
    const at = workerNow();
    const events = [
      { id: `webhooks-test/denied-${at}`, deviceId: "2", type: "access.denied", at, data: { reason: "outside the schedule", code: "outside_schedule" } },
      { id: `webhooks-test/forced-${at}`, deviceId: "2", type: "door.forced", at: at + 1, data: {} },
    ];
    const r = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
      method: "POST",
      headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
      body: JSON.stringify({ v: 1, events }),
    });
    expect(r.status).toBe(200);
    await wake();
    const got = await receivedAtLeast("doors", 3);
    const bodies = got.map((m) => {
      verify(secret, m);
      return JSON.parse(m.body);
    });
    const denied = ENVELOPES["access.denied"].parse(bodies.find((b) => b.type === "access.denied"));
    expect(denied.data).toMatchObject({ device: { id: 2 }, reason: "outside the schedule", reason_code: "outside_schedule" });
    expect(denied.occurred_at).toBe(new Date(at).toISOString());
    ENVELOPES["door.forced_open"].parse(bodies.find((b) => b.type === "door.forced_open"));
    const fired = ENVELOPES["alert.fired"].parse(bodies.find((b) => b.type === "alert.fired"));
    expect(fired.data).toMatchObject({ alert: { name: "Webhook night watch" }, activity: { name: "Door Forced Open" }, device: { id: 2 } });
    expect(new Set(got.map((m) => m.headers["webhook-id"])).size).toBe(3);
  });

  it("sends a lockdown's start and its end, signed, with its mode and whether a person ended it", async () => {
    const { secret } = await addEndpoint("lockdown", ["lockdown.started", "lockdown.ended"]);
    const plan = await api(acme, "POST", "/api/admin/lockdown/plans", { name: "Webhook drill", mode: "lockdown", scope: "doors", scope_ids: [12] });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect((await api(acme, "POST", `/api/admin/lockdown/plans/${plan.body.payload.id}/start`)).status).toBe(200);
    // Ended at once: the other tests of this file decide ACME's doors.
    expect((await api(acme, "POST", "/api/admin/lockdown/end")).status).toBe(200);
    await wake();
    const got = await receivedAtLeast("lockdown", 2);
    const bodies = got.map((m) => {
      verify(secret, m);
      return JSON.parse(m.body);
    });
    const started = ENVELOPES["lockdown.started"].parse(bodies.find((b) => b.type === "lockdown.started"));
    const ended = ENVELOPES["lockdown.ended"].parse(bodies.find((b) => b.type === "lockdown.ended"));
    expect(started.data).toMatchObject({ mode: "lockdown", automatic: false });
    expect(ended.data).toMatchObject({ automatic: false });
    expect(got).toHaveLength(2);
  });

  it("sends a door alarm once when it is raised (its repeats folded), its acknowledgement with the note, and its clearing when the door closes", async () => {
    const { id, secret } = await addEndpoint("alarms", ["door_alarm.raised", "door_alarm.acknowledged", "door_alarm.cleared"]);
    const DOOR = 11;
    await db().update(schema.devices).set({ heldOpenSeconds: 30 }).where(eq(schema.devices.id, DOOR));
    const [door] = await db().select({ name: schema.devices.fullName }).from(schema.devices).where(eq(schema.devices.id, DOOR));
    const t0 = workerNow();
    const send = async (events: { n: number; type: string; at: number; data?: Record<string, unknown> }[]) => {
      const r = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
        body: JSON.stringify({ v: 1, events: events.map((e) => ({ id: `webhooks-alarm/${t0}.${e.n}`, deviceId: String(DOOR), type: e.type, at: e.at, data: e.data ?? {} })) }),
      });
      expect(((await r.json()) as { rejected: unknown[] }).rejected).toEqual([]);
    };
    const held = (n: number, ms: number) => ({ n, type: "door.heldOpen", at: t0 + ms, data: { durationMs: ms } });
    const bodies = async (n: number) =>
      (await receivedAtLeast("alarms", n)).map((m) => {
        verify(secret, m);
        const b = JSON.parse(m.body);
        return ENVELOPES[b.type as "door_alarm.raised"].parse(b);
      });
    // Raised by the board, then repeated while it is active: in the same batch, in later batches, and a batch sent again.
    await send([held(1, 31_000), held(2, 45_000)]);
    await wake();
    await send([held(3, 60_000)]);
    await send([held(3, 60_000), held(4, 90_000)]);
    await wake();
    const [alarm, ...more] = await db().select().from(schema.doorAlarms).where(eq(schema.doorAlarms.deviceId, DOOR));
    expect(more).toEqual([]);
    expect(alarm).toMatchObject({ kind: "heldOpen", state: "active", repeats: 4 });
    const [raised] = await bodies(1);
    expect(raised).toMatchObject({
      type: "door_alarm.raised",
      occurred_at: new Date(t0 + 31_000).toISOString(),
      data: { alarm: { id: alarm.id }, device: { id: DOOR, name: door.name }, kind: "heldOpen", state: "active", acknowledged_by: null, note: null },
    });
    // Folded: the outbox holds one delivery for the four reports.
    expect(await db().select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, id))).toHaveLength(1);

    const ack = await api(acme, "POST", "/api/admin/alarm/acknowledgeAlarm", { id: alarm.id, note: "Propped open by a delivery" });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    await wake();
    const acked = (await bodies(2)).find((b) => b.type === "door_alarm.acknowledged");
    expect(acked?.data).toMatchObject({
      alarm: { id: alarm.id },
      device: { id: DOOR, name: door.name },
      kind: "heldOpen",
      state: "acknowledged",
      acknowledged_by: { id: ADMIN },
      note: "Propped open by a delivery",
    });

    await send([{ n: 5, type: "door.closed", at: t0 + 120_000 }]);
    await wake();
    const all = await bodies(3);
    const cleared = all.find((b) => b.type === "door_alarm.cleared");
    expect(cleared).toMatchObject({
      occurred_at: new Date(t0 + 120_000).toISOString(),
      data: { alarm: { id: alarm.id }, device: { id: DOOR, name: door.name }, state: "cleared", acknowledged_by: { id: ADMIN }, note: "Propped open by a delivery" },
    });
    expect(all.map((b) => b.type)).toEqual(["door_alarm.raised", "door_alarm.acknowledged", "door_alarm.cleared"]);
    expect(new Set(all.map((b) => b.id)).size).toBe(3);
    expect(await db().select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, id))).toHaveLength(3);
  });

  it("sends a board's clock flags as device.clock_drift and device.zone_data_outdated, once per flag raised", async () => {
    const { secret } = await addEndpoint("clock", ["device.clock_drift", "device.zone_data_outdated"]);
    const t0 = workerNow();
    const reading = (n: number, driftMs: number, tzdata: string) => ({
      id: `4/gw/clk.${t0}.${n}`,
      deviceId: "4",
      type: "board.clock",
      at: t0 + n,
      gatewayId: "gw-webhooks",
      data: { driftMs, tzdata, coreTzdata: "2025b" },
    });
    // Raised, then reported again while it stays raised: one event each.
    for (const events of [[reading(1, 41_000, "2019c")], [reading(2, 48_000, "2019c")]]) {
      const r = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
        body: JSON.stringify({ v: 1, gatewayId: "gw-webhooks", events }),
      });
      expect(((await r.json()) as { rejected: unknown[] }).rejected).toEqual([]);
    }
    await wake();
    const got = await receivedAtLeast("clock", 2);
    const bodies = got.map((m) => {
      verify(secret, m);
      const b = JSON.parse(m.body);
      return ENVELOPES[b.type as "device.clock_drift"].parse(b);
    });
    expect(bodies.map((b) => [b.type, b.data]).sort()).toEqual([
      ["device.clock_drift", { device: { id: 4 }, summary: expect.stringMatching(/ clock is 41 s ahead$/), drift_ms: 41_000 }],
      ["device.zone_data_outdated", { device: { id: 4 }, summary: expect.stringMatching(/ older than 2025b$/), tzdata: "2019c", core_tzdata: "2025b" }],
    ]);
    expect(got).toHaveLength(2);
  });

  it("sends a board's presence changes as device.online and device.offline; a reconnect within a batch and a batch sent again send nothing", async () => {
    const { id, secret } = await addEndpoint("presence", ["device.online", "device.offline"]);
    const t0 = workerNow();
    const instance = `gw-webhooks-${t0}`;
    const board = (n: number, online: boolean, at: number) => ({ id: `2/gw/prs.${t0}.${n}`, deviceId: "2", type: "board.presence", at, gatewayId: instance, data: { online } });
    const batches = [
      [board(1, true, t0)],
      // aedes' reconnect: the old connection's disconnect, then the connect, in one batch
      [board(2, false, t0 + 1_000), board(3, true, t0 + 1_000)],
      [board(4, false, t0 + 2_000)],
      [board(5, true, t0 + 3_000)],
      // the instance restarted: whatever it had connected before is gone
      [{ id: `gw/start.${t0 + 4_000}`, type: "gateway.started", at: t0 + 4_000, gatewayId: instance, data: {} }],
    ];
    for (const events of [...batches, batches[2]]) {
      const r = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
        body: JSON.stringify({ v: 1, gatewayId: instance, events }),
      });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { rejected: unknown[] }).rejected).toEqual([]);
    }
    await wake();
    const got = await receivedAtLeast("presence", 4);
    const bodies = got.map((m) => {
      verify(secret, m);
      const b = JSON.parse(m.body);
      return ENVELOPES[b.type as "device.online"].parse(b);
    });
    const seen = bodies.map((b) => [b.type, Date.parse(b.occurred_at) - t0]).sort((a, b) => Number(a[1]) - Number(b[1]));
    expect(seen).toEqual([
      ["device.online", 0],
      ["device.offline", 2_000],
      ["device.online", 3_000],
      ["device.offline", 4_000],
    ]);
    expect(bodies[0].data).toMatchObject({ device: { id: 2 } });
    expect(new Set(got.map((m) => m.headers["webhook-id"])).size).toBe(4);
    // The outbox holds these four and no more (a fifth could still be on its way to the receiver).
    expect(await db().select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, id))).toHaveLength(4);
    // The activity log holds the four changes, by the board's name.
    const rows = await companyLog(ACME).select({ summary: schema.activityLogs.summary }).from(schema.activityLogs).where(eq(schema.activityLogs.targetDeviceId, 2));
    const summaries = rows.map((r) => r.summary).filter((x) => / (came online|went offline)$/.test(x));
    expect(summaries).toHaveLength(4);
  });
});
