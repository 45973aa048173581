/**
 * Door alarms (decision 0076) from board events posted by a gateway: raised by a held-open past the door's
 * threshold or a forced opening, repeats folded, acknowledged with a note, cleared when the door closes;
 * each new alarm fires the alerts watching it once, through the company store's engine and a real SMTP
 * server. Demo data: ACME doors 1-12, BETA 13-16; admin@acme.example is user 3.
 */
import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { background } from "../../worker-background";
import { drainOutbox } from "../../app/services/mail/outbox.server";
import { companyLogStub, type CompanyLogEnv } from "../../app/utils/company-log.server";
import { ownMailServer } from "./mail-server";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, schema, workerNow } from "./helpers";

const A = "/api/admin";
const ADMIN = 3;
const { smtpPort, inboxUrl } = await ownMailServer();
let acme: string;
let beta: string;
let auditor: string;
let seq = 0;

type Event = { deviceId: number; type: string; at: number; data?: Record<string, unknown>; id?: string };
const wireBatch = (events: Event[]) => ({
  v: 1,
  events: events.map((e) => ({ id: e.id ?? `alarm-test/${++seq}`, deviceId: String(e.deviceId), type: e.type, at: e.at, data: e.data ?? {} })),
});

async function post(body: unknown) {
  const r = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as { accepted: number; rejected: unknown[] };
}
const events = (list: Event[]) => post(wireBatch(list));

const alarmsOf = (deviceId: number) => db().select().from(schema.doorAlarms).where(eq(schema.doorAlarms.deviceId, deviceId));
const setDoor = (id: number, set: { heldOpenSeconds?: number | null; forcedAlarm?: boolean }) => db().update(schema.devices).set(set).where(eq(schema.devices.id, id));

/** The queue's wake-up, every store's alert work at once, then the mail it queued delivered. */
async function wake() {
  const ctx = createExecutionContext();
  await background.queue(createMessageBatch("keyless-alerts", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { wake: true } }]) as never, env, ctx);
  await waitOnExecutionContext(ctx);
  const companies = await db().select({ id: schema.companies.id }).from(schema.companies);
  await Promise.all(companies.map(({ id }) => companyLogStub(env as unknown as CompanyLogEnv, id).runAlerts(id)));
  await drainOutbox(env, { limit: 100, now: workerNow() + 1 });
}
const inbox = async (): Promise<{ to: string[]; raw: string }[]> => (await fetch(inboxUrl)).json();

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
  await db().update(schema.mailerConfigs).set({ hostName: "127.0.0.1", port: smtpPort });
  await db().update(schema.alerts).set({ deletedAt: 1 });
});

beforeEach(async () => {
  await db().delete(schema.doorAlarms);
});

describe("door alarms from board events", () => {
  it("raises one held-open alarm past the door's threshold, folds its repeats, and fires its alert once", async () => {
    await setDoor(4, { heldOpenSeconds: 30 });
    const alert = await api(acme, "POST", `${A}/user/addAlert`, {
      displayName: "Door 4 held open",
      activities: [{ name: "Door Held Open Alarm" }],
      created_by_users: [],
      target_users: [],
      devices: [{ id: 4 }],
      schedule: "any",
      emails: ["guard@acme.example"],
    });
    expect(alert.status, JSON.stringify(alert.body)).toBe(200);
    await fetch(inboxUrl, { method: "DELETE" });
    const t = workerNow();
    // Shorter than the threshold: the board's own timing is not the door's setting.
    await events([{ deviceId: 4, type: "door.heldOpen", at: t, data: { durationMs: 10_000 } }]);
    expect(await alarmsOf(4)).toEqual([]);
    const batch = wireBatch([
      { deviceId: 4, type: "door.heldOpen", at: t + 31_000, data: { durationMs: 31_000 } },
      { deviceId: 4, type: "door.heldOpen", at: t + 60_000, data: { durationMs: 60_000 } },
      { deviceId: 4, type: "door.heldOpen", at: t + 90_000 },
    ]);
    await post(batch);
    await post(batch); // the gateway sends it again after a crash: nothing is counted twice
    const [alarm, ...more] = await alarmsOf(4);
    expect(more).toEqual([]);
    expect(alarm).toMatchObject({ companyId: 3, kind: "heldOpen", state: "active", repeats: 3, raisedAt: t + 31_000, lastSeenAt: t + 90_000 });
    await wake();
    await events([{ deviceId: 4, type: "door.heldOpen", at: t + 120_000 }]);
    await wake();
    expect((await alarmsOf(4))[0].repeats).toBe(4);
    const matches = await db().select().from(schema.alertMatches).where(eq(schema.alertMatches.alertId, alert.body.payload.id));
    expect(matches).toHaveLength(1);
    const mail = await inbox();
    expect(mail.map((m) => m.to[0])).toEqual(["guard@acme.example"]);
    expect(await auditsNamed("Door Held Open Alarm", eq(schema.activityLogs.targetDeviceId, 4))).toHaveLength(1);
    // No threshold: no held-open alarm at all.
    await setDoor(5, { heldOpenSeconds: null });
    await events([{ deviceId: 5, type: "door.heldOpen", at: t + 1 }]);
    expect(await alarmsOf(5)).toEqual([]);
  });

  it("is acknowledged with a note, then cleared when the door closes; every step is in the log", async () => {
    await setDoor(6, { forcedAlarm: false });
    const t = workerNow();
    await events([
      { deviceId: 2, type: "door.forced", at: t },
      { deviceId: 6, type: "door.forced", at: t },
    ]);
    expect(await alarmsOf(6)).toEqual([]); // forced detection off
    const [alarm] = await alarmsOf(2);
    expect(alarm).toMatchObject({ kind: "forced", state: "active" });
    const listed = await api(acme, "GET", `${A}/alarm/getAlarms?state=active`);
    expect(listed.status).toBe(200);
    expect(listed.body.payload).toMatchObject({ total: 1, alarms: [{ id: alarm.id, device_id: 2, type: "forced", state: "active", repeats: 1 }] });

    const ack = await api(acme, "POST", `${A}/alarm/acknowledgeAlarm`, { id: alarm.id, note: "Checked the door: wind" });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(ack.body.payload.state).toBe("acknowledged");
    expect((await alarmsOf(2))[0]).toMatchObject({ state: "acknowledged", acknowledgedByUserId: ADMIN, note: "Checked the door: wind", clearedAt: null });
    const again = await api(acme, "POST", `${A}/alarm/acknowledgeAlarm`, { id: alarm.id, note: "twice" });
    expect(again.status).toBe(409);

    // Folded while acknowledged, then the door contact closes.
    await events([{ deviceId: 2, type: "door.forced", at: t + 1000 }]);
    await events([{ deviceId: 2, type: "sensor.contact", at: t + 5000, data: { input: 1, state: "closed" } }]);
    expect((await alarmsOf(2))[0]).toMatchObject({ state: "cleared", repeats: 2, doorClosedAt: t + 5000, clearedAt: t + 5000 });
    // A new forced opening after the clearing is a new alarm.
    await events([{ deviceId: 2, type: "door.forced", at: t + 9000 }]);
    expect((await alarmsOf(2)).map((x) => x.state).sort()).toEqual(["active", "cleared"]);

    const door = eq(schema.activityLogs.targetDeviceId, 2);
    expect(await auditsNamed("Door Forced Open Alarm", door)).toHaveLength(2);
    const acked = await auditsNamed("Door Alarm Acknowledged", door);
    expect(acked).toMatchObject([{ by: ADMIN, companyId: 3 }]);
    expect(acked[0].summary).toContain("Checked the door: wind");
    expect(await auditsNamed("Door Alarm Cleared", door)).toHaveLength(1);
  });

  it("takes a gateway batch of many door closings (the load run's), and logs the clearing found in its last part", async () => {
    const t = workerNow();
    await events([{ deviceId: 8, type: "door.forced", at: t }]);
    const [alarm] = await alarmsOf(8);
    expect((await api(acme, "POST", `${A}/alarm/acknowledgeAlarm`, { id: alarm.id, note: "Load run" })).status).toBe(200);
    // 99 closings from before the alarm (they clear nothing), then the one that clears it, all in one batch:
    // every closing is read back by its id, more ids than one D1 statement may bind.
    const closings = [...Array.from({ length: 99 }, (_, i) => ({ deviceId: 8, type: "door.closed", at: t - 200 + i })), { deviceId: 8, type: "door.closed", at: t + 5000 }];
    expect(await events(closings)).toMatchObject({ accepted: 100, rejected: [] });
    expect((await alarmsOf(8))[0]).toMatchObject({ state: "cleared", clearedAt: t + 5000 });
    expect(await auditsNamed("Door Alarm Cleared", eq(schema.activityLogs.targetDeviceId, 8))).toHaveLength(1);
  });

  it("stays active when the door closes before anyone acknowledges it; the acknowledgement then clears it", async () => {
    const t = workerNow();
    await events([
      { deviceId: 7, type: "door.forced", at: t },
      { deviceId: 7, type: "door.closed", at: t + 3000 },
    ]);
    const [alarm] = await alarmsOf(7);
    expect(alarm).toMatchObject({ state: "active", doorClosedAt: t + 3000 });
    const ack = await api(acme, "POST", `${A}/alarm/acknowledgeAlarm`, { id: alarm.id, note: "Delivery door" });
    expect(ack.body.payload.state).toBe("cleared");
    expect((await alarmsOf(7))[0]).toMatchObject({ state: "cleared", acknowledgedByUserId: ADMIN });
    expect(await auditsNamed("Door Alarm Cleared", and(eq(schema.activityLogs.targetDeviceId, 7), eq(schema.activityLogs.createdByUserId, ADMIN)))).toHaveLength(1);
  });

  it("keeps each company's alarms its own", async () => {
    const t = workerNow();
    await events([
      { deviceId: 8, type: "door.forced", at: t },
      { deviceId: 13, type: "door.forced", at: t },
    ]);
    const [acmeAlarm] = await alarmsOf(8);
    const [betaAlarm] = await alarmsOf(13);
    expect(betaAlarm.companyId).not.toBe(3);
    const list = await api(beta, "GET", `${A}/alarm/getAlarms`);
    expect(list.body.payload.alarms.map((x: { id: number }) => x.id)).toEqual([betaAlarm.id]);
    expect((await api(beta, "GET", `${A}/alarm/getAlarms?device_id=8`)).body.payload.total).toBe(0);
    const ack = await api(beta, "POST", `${A}/alarm/acknowledgeAlarm`, { id: acmeAlarm.id, note: "not mine" });
    expect(ack.status).toBe(404);
    expect((await alarmsOf(8))[0].state).toBe("active");
  });

  it("checks the right before the body, and answers bad input with a 400", async () => {
    const t = workerNow();
    await events([{ deviceId: 9, type: "door.forced", at: t }]);
    const [alarm] = await alarmsOf(9);
    // The read-only auditor lists alarms but may not acknowledge them, whatever it sends.
    expect((await api(auditor, "GET", `${A}/alarm/getAlarms`)).status).toBe(200);
    expect((await api(auditor, "POST", `${A}/alarm/acknowledgeAlarm`, { id: "x" })).status).toBe(403);
    expect((await api(auditor, "POST", `${A}/alarm/acknowledgeAlarm`, { id: alarm.id, note: "mine" })).status).toBe(403);
    const empty = await api(acme, "POST", `${A}/alarm/acknowledgeAlarm`, { id: alarm.id, note: "  " });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("Write a note about what was found");
    expect((await api(acme, "GET", `${A}/alarm/getAlarms?state=bogus`)).status).toBe(400);
    expect((await alarmsOf(9))[0].state).toBe("active");
  });

  it("takes the door's settings from the device settings, and sends the threshold to the gateways", async () => {
    const base = { id: 10, fullName: "Alarm door", displayName: "AD", lockType: "" };
    const bad = await api(acme, "POST", `${A}/device/updateDeviceSettings`, { ...base, heldOpenSeconds: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Held-open time must be a whole number of seconds from 5 to 3600");
    const feed = () => env.DB.prepare("select count(*) as n from gateway_changes where entity = 'device' and entity_id = 10").first<{ n: number }>();
    const before = (await feed())!.n;
    expect((await api(acme, "POST", `${A}/device/updateDeviceSettings`, { ...base, heldOpenSeconds: 45, forcedAlarm: false })).status).toBe(200);
    expect(await db().query.devices.findFirst({ where: eq(schema.devices.id, 10) })).toMatchObject({ heldOpenSeconds: 45, forcedAlarm: false });
    expect((await feed())!.n).toBeGreaterThan(before);
    // Left out, they stay as they are.
    expect((await api(acme, "POST", `${A}/device/updateDeviceSettings`, base)).status).toBe(200);
    expect(await db().query.devices.findFirst({ where: eq(schema.devices.id, 10) })).toMatchObject({ heldOpenSeconds: 45, forcedAlarm: false });
  });
});
