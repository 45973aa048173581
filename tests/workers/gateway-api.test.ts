import { env } from "cloudflare:test";
import { eq, inArray, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedGateway } from "../../db/seed/gateway";
import { auditRows, consoleWorker, db, fromEveryLog, ORIGIN, schema, workerNow } from "./helpers";

const SECRET = String(env.GATEWAY_SECRET);
const DAY = 86_400_000;
/** Board event times inside the hot window whenever the suite runs (older days leave the store, decision 0049); T2 is later. */
const T = (Math.floor(workerNow() / DAY) - 10) * DAY;
const T2 = T + 10_000_000_000;

async function gw(method: string, path: string, body?: unknown, secret: string | null = SECRET) {
  const headers: Record<string, string> = {};
  if (secret !== null) headers.Authorization = `Bearer ${secret}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await consoleWorker.fetch(ORIGIN + path, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  return res;
}
const gwJson = async (method: string, path: string, body?: unknown, secret: string | null = SECRET) => {
  const res = await gw(method, path, body, secret);
  return { status: res.status, body: (await res.json()) as any };
};

const byType = (changes: any[], type: string): any[] => changes.filter((c) => c.type === type);

beforeAll(async () => {
  await seedGateway(db(), { GATEWAY_SECRET: SECRET });
});

describe("gateway auth", () => {
  it("refuses a missing or wrong secret with 401 JSON", async () => {
    for (const secret of [null, "wrong-secret", ""]) {
      const r = await gwJson("GET", "/api/gateway/changes", undefined, secret);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe("unauthorized");
    }
    expect((await gwJson("POST", "/api/gateway/events", { v: 1, events: [] }, "nope")).status).toBe(401);
    expect((await gwJson("GET", "/api/gateway/firmware/1", undefined, null)).status).toBe(401);
  });

  it("answers unknown paths and wrong methods with JSON 404/405", async () => {
    expect((await gwJson("GET", "/api/gateway/nothing")).status).toBe(404);
    expect((await gwJson("POST", "/api/gateway/changes", {})).status).toBe(405);
  });
});

describe("change feed", () => {
  it("starts with a snapshot of every mirrored entity", async () => {
    const r = await gwJson("GET", "/api/gateway/changes?limit=500");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ v: 1, reset: true, more: false });
    const devices = byType(r.body.changes, "device");
    const acmeDoor = devices.find((d: any) => d.id === "1");
    expect(acmeDoor.data).toMatchObject({ id: "1", companyId: "ACME", name: "Main Entrance", deviceType: "AB-100", tz: "Europe/Madrid", active: true });
    expect(acmeDoor.data.groupIds).toEqual(expect.arrayContaining(["1", "2"]));
    const cred = byType(r.body.changes, "boardCredential").find((c: any) => c.id === "1");
    expect(cred.data.hash).toMatch(/^hmac-sha256\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    const ekey = byType(r.body.changes, "ekey")[0];
    expect(ekey.data.window).toMatchObject({ kind: "ekey", access: expect.stringMatching(/full|custom|oneTime/) });
    expect(ekey.data.userLabel).toBeTruthy();
    const groupKey = byType(r.body.changes, "groupKey")[0];
    expect(groupKey.data.window.kind).toBe("group");
    const [groupRow] = await db()
      .select()
      .from(schema.ekeyAssignments)
      .where(eq(schema.ekeyAssignments.id, Number(groupKey.id)));
    expect(groupKey.data.startDate).toBe(groupRow.startDate); // the window has no dates; the assignment's start travels beside it
    const so = byType(r.body.changes, "scheduledOpen");
    expect(so).toHaveLength(1);
    expect(so[0].data).toMatchObject({ companyId: "ACME", window: { kind: "scheduledOpen", tz: "Europe/Madrid", fpi: true } });
    expect(so[0].data.window.week).toHaveLength(7);
    expect(byType(r.body.changes, "user").length).toBeGreaterThan(0);
  });

  it("sends a changed key after the cursor, then nothing more", async () => {
    const first = await gwJson("GET", "/api/gateway/changes");
    const cursor = first.body.cursor;
    const [key] = await db().select().from(schema.ekeyAssignments).where(eq(schema.ekeyAssignments.isGroup, false)).limit(1);
    await db().batch([
      db()
        .update(schema.ekeyAssignments)
        .set({ endDate: "2027-01-31", isNeverEnd: false, accessType: "custom_access", isAllDay: true })
        .where(eq(schema.ekeyAssignments.id, key.id)),
      db().insert(schema.gatewayChanges).values({ companyId: key.companyId, entity: "ekey", entityId: key.id, op: "upsert" }),
    ]);
    const next = await gwJson("GET", `/api/gateway/changes?cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.reset).toBeUndefined();
    expect(Number(next.body.cursor)).toBeGreaterThan(Number(cursor));
    expect(next.body.changes).toEqual([
      expect.objectContaining({ type: "ekey", op: "upsert", id: String(key.id), data: expect.objectContaining({ window: expect.objectContaining({ endDate: "2027-01-31" }) }) }),
    ]);
    const after = await gwJson("GET", `/api/gateway/changes?cursor=${next.body.cursor}`);
    expect(after.body).toMatchObject({ changes: [], cursor: next.body.cursor, more: false });
  });

  it("pages with `more` and sends tombstones for removed rows", async () => {
    const start = (await gwJson("GET", "/api/gateway/changes")).body.cursor;
    await db()
      .insert(schema.gatewayChanges)
      .values([
        { companyId: 3, entity: "ekey", entityId: 999_999, op: "delete" },
        { companyId: 3, entity: "firmware", entityId: 888_888, op: "delete" },
      ]);
    const p1 = await gwJson("GET", `/api/gateway/changes?cursor=${start}&limit=1`);
    expect(p1.body.more).toBe(true);
    expect(p1.body.changes).toEqual(expect.arrayContaining([{ type: "ekey", op: "delete", id: "999999" }]));
    const p2 = await gwJson("GET", `/api/gateway/changes?cursor=${p1.body.cursor}&limit=1`);
    expect(p2.body).toMatchObject({ more: false, changes: [{ type: "firmware", op: "delete", id: "888888" }] });
  });

  it("answers a bad limit with 400 and unreadable or future cursors with 410 (the gateway then resyncs)", async () => {
    expect((await gwJson("GET", "/api/gateway/changes?limit=0")).status).toBe(400);
    expect((await gwJson("GET", "/api/gateway/changes?limit=abc")).status).toBe(400);
    for (const cursor of ["abc", "-1", "99999999"]) {
      const r = await gwJson("GET", `/api/gateway/changes?cursor=${cursor}`);
      expect(r.status).toBe(410);
      expect(r.body.error).toBe("cursor_expired");
    }
  });
});

describe("event ingestion", () => {
  const batch = (ids: string[], deviceId = "1") => ({
    v: 1,
    gatewayId: "gw-test",
    events: ids.map((id, i) => ({
      id: `${deviceId}/${id}`,
      deviceId,
      type: i % 2 ? "door.closed" : "door.opened",
      at: T + i,
      receivedAt: T + 500,
      data: {},
    })),
  });
  const rowsFor = (prefix: string) =>
    fromEveryLog((log) =>
      log
        .select()
        .from(schema.activityLogs)
        .where(like(schema.activityLogs.eventId, `${prefix}%`)),
    );

  it("stores a batch once, however often it is sent", async () => {
    const body = batch(["idem-1", "idem-2", "idem-3"]);
    const first = await gwJson("POST", "/api/gateway/events", body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ accepted: 3, duplicates: 0, rejected: [] });
    const again = await gwJson("POST", "/api/gateway/events", body);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 3 });
    const rows = await rowsFor("1/idem-");
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.companyId === 3 && r.targetDeviceId === 1 && r.operationType === "Device")).toBe(true);
  });

  it("takes the company from the device and maps types to the activity catalogue", async () => {
    const events = [
      { id: "13/map-1", deviceId: "13", type: "access.granted", at: T2 + 1_000, data: { userId: "4", keyId: "1", reason: "Full access" } },
      { id: "13/map-2", deviceId: "13", type: "battery", at: T2 + 2_000, data: { percent: 9 } },
      { id: "13/map-3", deviceId: "13", type: "location", at: T2 + 3_000, data: { lat: 52.5, lon: 13.4 } },
      { id: "13/map-4", deviceId: "13", type: "sensor.contact", at: T2 + 4_000, data: { input: 2, state: "open" }, companyId: 3 },
    ];
    const r = await gwJson("POST", "/api/gateway/events", { v: 1, events });
    expect(r.body).toMatchObject({ accepted: 4, duplicates: 0 });
    const rows = await auditRows(like(schema.activityLogs.eventId, "13/map-%"));
    expect(Object.fromEntries(rows.map((x) => [x.eventId, x.name]))).toEqual({
      "13/map-1": "Access Granted",
      "13/map-2": "Low Battery",
      "13/map-3": "Location Reported",
      "13/map-4": "Sensor 2 Open",
    });
    expect(rows.every((x) => x.companyId === 4)).toBe(true); // device 13 is BETA's, whatever the payload says
    expect(rows.find((x) => x.eventId === "13/map-1")?.targetUserId).toBe(4);
    const [device] = await db().select().from(schema.devices).where(eq(schema.devices.id, 13));
    expect(device).toMatchObject({ lowBattery: true, lastLatitude: 52.5, lastLongitude: 13.4, lastActivityAt: T2 + 4_000 });
  });

  it("logs a sensor measurement as a reading, never as a contact opening", async () => {
    const events = [
      { id: "1/gw/sen-m", deviceId: "1", type: "sensor.measurement", at: T2 + 20_000, data: { name: "temp", value: 21.5, unit: "C" } },
      { id: "1/sen-c1", deviceId: "1", type: "sensor.contact", at: T2 + 21_000, data: { input: 1, state: "closed" } },
      // version 1's sensor event: a number is a reading (the protocol's own example), a state is a contact
      { id: "1/sen-v1-temp", deviceId: "1", type: "sensor", at: T2 + 22_000, data: { name: "temp", value: 21.5, unit: "C" } },
      { id: "1/sen-v1-contact", deviceId: "1", type: "sensor", at: T2 + 23_000, data: { name: "sensor2", state: "open" } },
      { id: "1/sen-bad", deviceId: "1", type: "sensor.contact", at: T2 + 24_000, data: { input: 3, state: "open" } },
    ];
    const r = await gwJson("POST", "/api/gateway/events", { v: 1, events });
    expect(r.body).toEqual({ accepted: 4, duplicates: 0, rejected: [{ id: "1/sen-bad", reason: "sensor.contact events need data.input (1 or 2) and data.state" }] });
    const rows = await auditRows(
      inArray(
        schema.activityLogs.eventId,
        events.map((e) => e.id),
      ),
    );
    const byId = Object.fromEntries(rows.map((x) => [x.eventId, { name: x.name, summary: x.summary }]));
    expect(byId).toEqual({
      "1/gw/sen-m": { name: "Sensor Reading", summary: "temp 21.5 C at Main Entrance" },
      "1/sen-c1": { name: "Sensor 1 Closed", summary: "Sensor 1 closed at Main Entrance" },
      "1/sen-v1-temp": { name: "Sensor Reading", summary: "temp 21.5 C at Main Entrance" },
      "1/sen-v1-contact": { name: "Sensor 2 Open", summary: "Sensor 2 open at Main Entrance" },
    });
  });

  it("records a board's command result and a first-person-in entry as one named activity row each", async () => {
    const events = [
      { id: "1/cmd-ok", deviceId: "1", type: "command.result", at: T2 + 10_000, data: { cmd: "cmd_8", ok: true } },
      { id: "1/cmd-fail", deviceId: "1", type: "command.result", at: T2 + 11_000, data: { cmd: "cmd_9", ok: false, error: "motor jammed" } },
      {
        id: "1/fpi.1.1800000012000",
        deviceId: "1",
        type: "schedule.firstEntry",
        at: T2 + 12_000,
        data: { scheduledOpenId: "1", companyId: "ACME", firstEntryAt: T2 + 12_000 },
      },
    ];
    const first = await gwJson("POST", "/api/gateway/events", { v: 1, events });
    expect(first.body).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    expect((await gwJson("POST", "/api/gateway/events", { v: 1, events })).body).toEqual({ accepted: 0, duplicates: 3, rejected: [] });
    const rows = await fromEveryLog((log) =>
      log
        .select({
          eventId: schema.activityLogs.eventId,
          name: schema.activityTypes.name,
          summary: schema.activityLogs.summary,
          device: schema.activityLogs.targetDeviceId,
          details: schema.activityLogs.detailsJson,
        })
        .from(schema.activityLogs)
        .innerJoin(schema.activityTypes, eq(schema.activityTypes.id, schema.activityLogs.activityTypeId))
        .where(
          inArray(
            schema.activityLogs.eventId,
            events.map((e) => e.id),
          ),
        ),
    );
    expect(rows).toHaveLength(3);
    const byId = Object.fromEntries(rows.map((r) => [r.eventId, r]));
    expect(byId["1/cmd-ok"]).toMatchObject({ name: "Command Succeeded", summary: "Remote command succeeded on Main Entrance", device: 1 });
    expect(byId["1/cmd-fail"]).toMatchObject({ name: "Command Failed", summary: "Remote command failed on Main Entrance: motor jammed" });
    expect(JSON.parse(byId["1/cmd-fail"].details)).toMatchObject({ type: "command.result", cmd: "cmd_9", ok: false });
    expect(byId["1/fpi.1.1800000012000"]).toMatchObject({ name: "Scheduled Open Started" });
  });

  it("sends a company's first person in, seen by one gateway, to every gateway with its scheduled-open window", async () => {
    const cursor = (await gwJson("GET", "/api/gateway/changes")).body.cursor;
    const at = T2 + 30_000;
    const events = [{ id: `2/fpi.1.${at}`, deviceId: "2", type: "schedule.firstEntry", at, data: { scheduledOpenId: "3", companyId: "ACME", firstEntryAt: at } }];
    expect((await gwJson("POST", "/api/gateway/events", { v: 1, events })).body).toMatchObject({ accepted: 1 });
    const schedules = byType((await gwJson("GET", `/api/gateway/changes?cursor=${cursor}`)).body.changes, "scheduledOpen");
    expect(schedules).toHaveLength(1);
    expect(schedules[0].data).toMatchObject({ companyId: "ACME", window: { fpi: true, firstEntryAt: at } });
    // a snapshot carries it too, so a gateway that resyncs does not lock the doors again
    const snapshot = byType((await gwJson("GET", "/api/gateway/changes?limit=1000")).body.changes, "scheduledOpen");
    expect(snapshot.find((c: any) => c.data.companyId === "ACME").data.window.firstEntryAt).toBe(at);
  });

  it("marks a one-time key a gateway spent as used, in the console and in the feed, once", async () => {
    const k = schema.ekeyAssignments;
    const base = { companyId: 3, userId: 3, isGroup: false, deviceId: 1, startDate: "2026-01-01", isNeverEnd: true, isAllDay: true };
    const [once, full, beta] = await db()
      .insert(k)
      .values([
        { ...base, accessType: "one_time_access", status: "2" },
        { ...base, accessType: "full_access" },
        { ...base, companyId: 4, accessType: "one_time_access", status: "2" }, // another company's key id on an ACME door
      ])
      .returning({ id: k.id });
    const cursor = (await gwJson("GET", "/api/gateway/changes")).body.cursor;
    const granted = (key: number, n: number) => ({
      id: `1/acc.once-${key}-${n}`,
      deviceId: "1",
      type: "access.granted",
      at: T2 + 20_000 + n,
      data: { keyId: String(key), keyKind: "ekey", userId: "3", reason: "" },
    });
    const events = [granted(once.id, 1), granted(full.id, 2), granted(beta.id, 3)];
    expect((await gwJson("POST", "/api/gateway/events", { v: 1, events })).body).toMatchObject({ accepted: 3 });
    const usedAt = async (id: number) => (await db().select({ usedAt: k.usedAt }).from(k).where(eq(k.id, id)))[0].usedAt;
    expect(await usedAt(once.id)).toBe(T2 + 20_001);
    expect(await usedAt(full.id)).toBeNull();
    expect(await usedAt(beta.id)).toBeNull();
    const feed = await gwJson("GET", `/api/gateway/changes?cursor=${cursor}`);
    const keys = byType(feed.body.changes, "ekey");
    expect(keys.map((c: any) => c.id)).toEqual([String(once.id)]);
    expect(keys[0].data.window.used).toBe(true);

    // a later grant of the same key (re-sent batch, or another gateway) changes nothing more
    await gwJson("POST", "/api/gateway/events", { v: 1, events: [granted(once.id, 4)] });
    expect(await usedAt(once.id)).toBe(T2 + 20_001);
    expect(byType((await gwJson("GET", `/api/gateway/changes?cursor=${feed.body.cursor}`)).body.changes, "ekey")).toHaveLength(0);
  });

  it("rejects unknown devices and bad entries per event, and bad envelopes with 400", async () => {
    const r = await gwJson("POST", "/api/gateway/events", {
      v: 1,
      events: [
        { id: "x/1", deviceId: "424242", type: "door.opened", at: T, data: {} },
        { id: "x/2", deviceId: "1", type: "door.opened", at: "yesterday" },
        { id: "1/ok-after-bad", deviceId: "1", type: "door.opened", at: T },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.accepted).toBe(1);
    expect(r.body.rejected).toEqual([
      { id: "x/2", reason: expect.any(String) },
      { id: "x/1", reason: "unknown device" },
    ]);
    for (const bad of ["not json", "[]", JSON.stringify({ v: 2, events: [] }), JSON.stringify({ v: 1, events: "x" })]) {
      const res = await gwJson("POST", "/api/gateway/events", bad);
      expect(res.status).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
  });

  it("records firmware progress and the install result", async () => {
    const [release] = await db()
      .insert(schema.firmwareReleases)
      .values({ companyId: 1, deviceTypeId: 1, version: "9.1", r2Key: "firmware/none.zip", fileName: "x.zip", size: 100, sha256: "0".repeat(64) })
      .returning();
    const rid = String(release.id);
    const progress = (n: number) => ({
      id: `2/fwp.${rid}.${n}`,
      deviceId: "2",
      type: "firmware.progress",
      at: T + 10_000 + n,
      data: { releaseId: rid, version: "9.1", received: n, blocks: 10, percent: n * 10 },
    });
    await gwJson("POST", "/api/gateway/events", { v: 1, events: [progress(3), progress(5)] });
    let [p] = await db().select().from(schema.firmwareProgress).where(eq(schema.firmwareProgress.releaseId, release.id));
    expect(p).toMatchObject({ deviceId: 2, companyId: 3, blocksDone: 5, blocksTotal: 10, state: "downloading" });
    await gwJson("POST", "/api/gateway/events", {
      v: 1,
      events: [{ id: "2/fwr-1", deviceId: "2", type: "firmware.result", at: T + 20_000, data: { releaseId: rid, ok: true } }],
    });
    // a re-sent older batch does not undo the install
    await gwJson("POST", "/api/gateway/events", { v: 1, events: [progress(3)] });
    [p] = await db().select().from(schema.firmwareProgress).where(eq(schema.firmwareProgress.releaseId, release.id));
    expect(p).toMatchObject({ state: "installed", blocksDone: 10 });
    const [device] = await db().select().from(schema.devices).where(eq(schema.devices.id, 2));
    expect(device.firmwareVersion).toBe("9.1");
  });
});

describe("firmware download", () => {
  it("streams the R2 object whose bytes match the release's sha256", async () => {
    const bytes = new TextEncoder().encode("PK\u0003\u0004 firmware image bytes ".repeat(50));
    const sha = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
    await env.FIRMWARE.put(`firmware/${sha}.zip`, bytes);
    const [release] = await db()
      .insert(schema.firmwareReleases)
      .values({ companyId: 1, deviceTypeId: 1, version: "9.2", r2Key: `firmware/${sha}.zip`, fileName: "fw.zip", size: bytes.length, sha256: sha })
      .returning();
    const res = await gw("GET", `/api/gateway/firmware/${release.id}`);
    expect(res.status).toBe(200);
    const got = new Uint8Array(await res.arrayBuffer());
    expect(got.length).toBe(bytes.length);
    const gotSha = [...new Uint8Array(await crypto.subtle.digest("SHA-256", got))].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(gotSha).toBe(sha);
    expect(res.headers.get("X-Firmware-Sha256")).toBe(sha);
    const missing = await gw("GET", "/api/gateway/firmware/777777");
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
  });
});
