// @clock: the dashboard counts today's denials in the company's zone; scripts/test.sh runs this file again half an hour before the DST switch.
/**
 * Live device status (decision 0033): presence and door state arrive through the real gateway API,
 * the devices list filters and sorts by them, staleness turns a silent gateway's boards offline, and
 * the home dashboard counts what the filtered lists show. Devices are made here, never seed ids.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import coreModule from "~core/core.wasm";
import { createCore } from "~core";
import { seedGateway } from "../../db/seed/gateway";
import { PRESENCE_STALE_MS } from "../../app/services/board-presence.server";
import { dashboardNumbers } from "../../app/services/dashboard.server";
import { heldOpenSql, scheduledOpenNow } from "../../app/services/device-status.server";
import { loadCompany, loadScheduledOpen } from "../../app/services/door-decision.server";
import { listDevices, type ListDevicesOptions } from "../../app/services/devices.server";
import { authFromToken, type Auth } from "../../app/utils/auth-guards.server";
import type { DeviceFilters } from "../../app/schemas/device-filters";
import { companyLog, consoleWorker, api, db, login, ORIGIN, schema, workerNow } from "./helpers";

const SECRET = String(env.GATEWAY_SECRET);
/** Whether any door of the company is held open at `at`, by the rule the devices list and the dashboard count with. */
const heldNow = async (companyId: number, at: number) =>
  (
    await db()
      .select({ id: schema.devices.id })
      .from(schema.devices)
      .where(and(eq(schema.devices.companyId, companyId), heldOpenSql(await scheduledOpenNow(db(), core, companyId, at), at)))
  ).length > 0;
const core = createCore(coreModule);
let acme: Auth;
let acmeToken: string;
let beta: Auth;
let ids: Record<"a" | "b" | "c" | "d", number>;
let betaDevice: number;
let t0: number;

async function events(list: unknown[]) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, gatewayId: "gw-status", events: list }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { accepted: number; rejected?: { id: string | null; reason: string }[] };
}
let n = 0;
const presence = (deviceId: number, online: boolean, at: number, instance = "gw-status") => ({
  id: `${deviceId}/gw/prs.1.${++n}`,
  deviceId: String(deviceId),
  type: "board.presence",
  at,
  gatewayId: instance,
  data: { online },
});
const event = (deviceId: number, type: string, data: object, at: number) => ({ id: `${deviceId}/ev-${++n}`, deviceId: String(deviceId), type, at, data });

const list = (auth: Auth, filters: DeviceFilters, sort: ListDevicesOptions["sort"] = { key: "fullName", desc: false }, now = workerNow()) =>
  listDevices(db(), auth, { offset: 0, pageSize: 100, sort, filters }, now, core);
const mine = (rows: { id: number }[]) => rows.map((r) => r.id).filter((id) => Object.values(ids).includes(id));

async function addDevice(companyId: number, name: string, extra: Partial<typeof schema.devices.$inferInsert> = {}) {
  const [row] = await db()
    .insert(schema.devices)
    .values({ companyId, fullName: name, displayName: name, serialNumber: `LIVE-${name}-${companyId}`, status: "configured", ...extra })
    .returning({ id: schema.devices.id });
  return row.id;
}

beforeAll(async () => {
  await seedGateway(db(), { GATEWAY_SECRET: SECRET });
  const now = workerNow();
  acmeToken = await login("acme");
  acme = (await authFromToken(db(), env as never, acmeToken, now))!;
  beta = (await authFromToken(db(), env as never, await login("beta"), now))!;
  const c = acme.company.id;
  ids = { a: await addDevice(c, "Live A"), b: await addDevice(c, "Live B"), c: await addDevice(c, "Live C"), d: await addDevice(c, "Live D") };
  betaDevice = await addDevice(beta.company.id, "Live Beta");
  t0 = now - 60_000;
  // The gateway API also stamps this, after answering; set here so no read races that write.
  await db().update(schema.gateways).set({ lastSeenAt: now });
});

describe("presence from the gateway API", () => {
  it("stores online and offline per device; a late or resent report never moves a row back", async () => {
    const r = await events([presence(ids.a, true, t0), presence(ids.b, true, t0), presence(ids.c, true, t0), presence(ids.c, false, t0 + 1000), presence(betaDevice, true, t0)]);
    expect(r).toMatchObject({ accepted: 5, rejected: [] });
    // The connect of C sent again after its disconnect changes nothing.
    await events([presence(ids.c, true, t0)]);
    const online = await list(acme, { online: "1" });
    expect(mine(online.rows).sort()).toEqual([ids.a, ids.b].sort());
    expect(online.rows.find((x) => x.id === ids.a)).toMatchObject({ online: true, onlineSince: t0 });
    const offline = await list(acme, { online: "0" });
    expect(mine(offline.rows)).toEqual([ids.c]);
    expect(offline.rows[0]).toMatchObject({ online: false, onlineSince: t0 + 1000 });
    expect(mine((await list(acme, { online: "never" })).rows)).toEqual([ids.d]);
    // Another company's board is never in ACME's list, and its presence is its own.
    expect((await list(acme, {})).rows.some((x) => x.id === betaDevice)).toBe(false);
    expect((await list(beta, { online: "1" })).rows.map((x) => x.id)).toContain(betaDevice);
  });

  it("rejects presence of an unknown device or without data.online, and stores nothing for them", async () => {
    const bad = { ...presence(ids.d, true, t0), data: {} };
    const r = await events([presence(999_999_999, true, t0), bad]);
    expect(r.rejected?.map((x) => x.reason).sort()).toEqual(["board.presence events need data.online", "unknown device"]);
    expect(mine((await list(acme, { online: "never" })).rows)).toEqual([ids.d]);
  });

  it("a board is online while any instance has it; a restarted instance drops what it had", async () => {
    await events([presence(ids.b, true, t0 + 2000, "gw-other")]);
    await events([{ id: "gw/start.1", type: "gateway.started", at: t0 + 3000, gatewayId: "gw-status", data: {} }]);
    const rows = (await list(acme, {})).rows;
    expect(rows.find((x) => x.id === ids.a)?.online).toBe(false);
    expect(rows.find((x) => x.id === ids.b)).toMatchObject({ online: true, onlineSince: t0 + 2000 });
    await events([presence(ids.a, true, t0 + 4000)]);
    expect((await list(acme, {})).rows.find((x) => x.id === ids.a)?.online).toBe(true);
  });

  it("a gateway silent for longer than the staleness limit leaves its boards offline, not online forever", async () => {
    const now = workerNow();
    await db()
      .update(schema.gateways)
      .set({ lastSeenAt: now - PRESENCE_STALE_MS - 1000 });
    const stale = await list(acme, { online: "1" }, undefined, now);
    expect(mine(stale.rows)).toEqual([]);
    const a = (await list(acme, { online: "0" }, undefined, now)).rows.find((x) => x.id === ids.a);
    // Offline since it was last known connected: the later of its report and the gateway's last call.
    expect(a).toMatchObject({ online: false, onlineSince: Math.max(t0 + 4000, now - PRESENCE_STALE_MS - 1000) });
    // Within the limit the same rows count again.
    await db()
      .update(schema.gateways)
      .set({ lastSeenAt: now - PRESENCE_STALE_MS + 5000 });
    expect(mine((await list(acme, { online: "1" }, undefined, now)).rows).sort()).toEqual([ids.a, ids.b].sort());
  });
});

describe("devices list filters and sorts", () => {
  it("door state follows contact input 1 and the door events, latest first", async () => {
    await events([event(ids.a, "sensor.contact", { input: 1, state: "open" }, t0 + 10), event(ids.b, "sensor.contact", { input: 2, state: "open" }, t0 + 10)]);
    await events([event(ids.c, "door.opened", {}, t0 + 10), event(ids.c, "door.closed", {}, t0 + 20), event(ids.a, "door.closed", {}, t0 + 5)]);
    expect(mine((await list(acme, { door: "open" })).rows)).toEqual([ids.a]);
    expect(mine((await list(acme, { door: "closed" })).rows)).toEqual([ids.c]);
    const [row] = (await list(acme, { q: "Live A" })).rows;
    expect(row).toMatchObject({ doorState: "open", doorStateAt: t0 + 10 });
  });

  it("battery, search by name or serial (wildcards literal), type and group", async () => {
    await events([event(ids.b, "battery", { percent: 5 }, t0 + 30), event(ids.a, "battery", { percent: 90 }, t0 + 30)]);
    expect(mine((await list(acme, { battery: "low" })).rows)).toEqual([ids.b]);
    expect(mine((await list(acme, { battery: "ok" })).rows)).toEqual(expect.arrayContaining([ids.a, ids.c, ids.d]));
    expect(mine((await list(acme, { q: `LIVE-Live C-${acme.company.id}` })).rows)).toEqual([ids.c]);
    expect((await list(acme, { q: "%" })).total).toBe(0);
    const [type] = await db().insert(schema.deviceTypes).values({ deviceCode: "LIVE-T", deviceType: "Live type" }).returning();
    await db().update(schema.devices).set({ deviceTypeId: type.id }).where(eq(schema.devices.id, ids.d));
    expect((await list(acme, { type: type.id })).rows.map((x) => x.id)).toEqual([ids.d]);
    const [group] = await db().insert(schema.deviceGroups).values({ companyId: acme.company.id, fullName: "Live group", displayName: "Live group" }).returning();
    await db()
      .insert(schema.deviceGroupMembers)
      .values([ids.a, ids.c].map((deviceId) => ({ groupId: group.id, deviceId, companyId: acme.company.id })));
    expect((await list(acme, { group: group.id })).rows.map((x) => x.id).sort()).toEqual([ids.a, ids.c].sort());
    expect((await list(beta, { group: group.id })).total).toBe(0);
  });

  it("sorts by online, battery and door on the server, both ways", async () => {
    const byOnline = mine((await list(acme, { q: "Live" }, { key: "online", desc: true })).rows);
    expect(byOnline.slice(0, 2).sort()).toEqual([ids.a, ids.b].sort());
    expect(byOnline.at(-1)).toBe(ids.d);
    expect(mine((await list(acme, { q: "Live" }, { key: "battery", desc: true })).rows)[0]).toBe(ids.b);
    const byDoor = mine((await list(acme, { q: "Live" }, { key: "door", desc: false })).rows);
    expect(byDoor.slice(-2)).toEqual([ids.c, ids.a]);
  });

  it("sorts by last event (from the gateway's events) and firmware version on the server, both ways", async () => {
    await events([event(ids.b, "battery", { percent: 5 }, t0 + 50), event(ids.c, "battery", { percent: 95 }, t0 + 40)]);
    const byLast = (desc: boolean) => list(acme, { q: "Live" }, { key: "lastActivity", desc }).then((r) => mine(r.rows));
    // A never reported anything since t0 + 30, D nothing at all.
    expect(await byLast(true)).toEqual([ids.b, ids.c, ids.a, ids.d]);
    expect(await byLast(false)).toEqual([ids.d, ids.a, ids.c, ids.b]);
    const [row] = (await list(acme, { q: "Live B" })).rows;
    expect(row.lastActivityAt).toBe(t0 + 50);

    for (const [id, version] of [
      [ids.a, "1.10.0"],
      [ids.b, "1.2.0"],
      [ids.d, "2.0.0"],
    ] as const)
      await db().update(schema.devices).set({ firmwareVersion: version }).where(eq(schema.devices.id, id));
    const byFirmware = (desc: boolean) => list(acme, { q: "Live" }, { key: "firmware", desc }).then((r) => mine(r.rows));
    expect(await byFirmware(false)).toEqual([ids.c, ids.b, ids.a, ids.d]);
    expect(await byFirmware(true)).toEqual([ids.d, ids.a, ids.b, ids.c]);
    // Patch numbers compare as numbers too, and a version without dots sorts by its number.
    await db().update(schema.devices).set({ firmwareVersion: "1.10.9" }).where(eq(schema.devices.id, ids.b));
    await db().update(schema.devices).set({ firmwareVersion: "1.10.10" }).where(eq(schema.devices.id, ids.a));
    await db().update(schema.devices).set({ firmwareVersion: "3" }).where(eq(schema.devices.id, ids.c));
    expect(await byFirmware(false)).toEqual([ids.b, ids.a, ids.d, ids.c]);
  });
});

describe("admin API", () => {
  it("getDevices keeps the grid's names, adds the status as '1'/'0', filters and stays in the company", async () => {
    const r = await api(acmeToken, "GET", `/api/admin/device/getDevices?q=Live&online=1&sort=-online`);
    expect(r.status).toBe(200);
    const rows = r.body.payload.rows as Record<string, unknown>[];
    expect(rows.map((x) => x.id).sort()).toEqual([ids.a, ids.b].sort());
    expect(rows.find((x) => x.id === ids.b)).toMatchObject({
      full_name: "Live B",
      display_name: "Live B",
      serial_number: `LIVE-Live B-${acme.company.id}`,
      online: "1",
      low_battery: "1",
    });
    const never = await api(acmeToken, "GET", `/api/admin/device/getDevices?q=Live&online=never`);
    expect(never.body.payload.rows.map((x: { id: number; online: unknown }) => [x.id, x.online])).toEqual([[ids.d, null]]);
    const other = await api(acmeToken, "GET", `/api/admin/device/getDevices?q=Live%20Beta`);
    expect(other.body.payload.total).toBe(0);
  });
});

describe("home dashboard", () => {
  it("counts what each filtered list shows, for data made here", async () => {
    const now = workerNow();
    await db().update(schema.gateways).set({ lastSeenAt: now });
    // Firmware: an active release of D's type that D does not run.
    const [type] = await db().select().from(schema.deviceTypes).where(eq(schema.deviceTypes.deviceCode, "LIVE-T"));
    const before = (await dashboardNumbers(db(), companyLog(acme.company.id), acme, core, now)).devices!;
    await db()
      .insert(schema.firmwareReleases)
      .values({ companyId: acme.company.id, deviceTypeId: type.id, version: "9.9.9", r2Key: "k", fileName: "f.bin", size: 1, sha256: "0".repeat(64), isActive: true });
    // Scheduled open: open all week, and A and C follow it.
    await db().delete(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, acme.company.id));
    await db()
      .insert(schema.scheduleOpenDays)
      .values(Array.from({ length: 7 }, (_, day) => ({ companyId: acme.company.id, day, openWholeDay: true })));
    await db().update(schema.companySettings).set({ scheduleOpen: true, fpi: false }).where(eq(schema.companySettings.companyId, acme.company.id));
    await db().update(schema.devices).set({ scheduleOpen: true }).where(eq(schema.devices.id, ids.a));
    await db().update(schema.devices).set({ scheduleOpen: true }).where(eq(schema.devices.id, ids.c));
    // Two denials now, one two days ago.
    const deniedBefore = (await dashboardNumbers(db(), companyLog(acme.company.id), acme, core, now)).denied!.count;
    await events([
      event(ids.a, "access.denied", { reason: "no key" }, now - 1000),
      event(ids.b, "access.denied", { reason: "no key" }, now - 2000),
      event(ids.b, "access.denied", { reason: "no key" }, now - 2 * 86_400_000),
    ]);

    const numbers = await dashboardNumbers(db(), companyLog(acme.company.id), acme, core, now);
    const d = numbers.devices!;
    expect(d.firmwarePending).toBe(before.firmwarePending + 1);
    expect(numbers.denied!.count).toBe(deniedBefore + 2);
    expect(d.scheduledOpen).toBeGreaterThanOrEqual(2);
    const total = async (f: DeviceFilters) => (await list(acme, f, undefined, now)).total;
    expect(d.online).toBe(await total({ online: "1" }));
    expect(d.offline).toBe(await total({ online: "0" }));
    expect(d.neverSeen).toBe(await total({ online: "never" }));
    expect(d.lowBattery).toBe(await total({ battery: "low" }));
    expect(d.firmwarePending).toBe(await total({ firmware: "pending" }));
    expect(d.scheduledOpen).toBe(await total({ schedule: "open" }));
    expect(mine((await list(acme, { schedule: "open" }, undefined, now)).rows).sort()).toEqual([ids.a, ids.c].sort());
    expect(mine((await list(acme, { firmware: "pending" }, undefined, now)).rows)).toEqual([ids.d]);

    // Closed hours: nothing is held open.
    await db().update(schema.scheduleOpenDays).set({ openWholeDay: false }).where(eq(schema.scheduleOpenDays.companyId, acme.company.id));
    expect((await dashboardNumbers(db(), companyLog(acme.company.id), acme, core, now)).devices!.scheduledOpen).toBe(0);
    expect(await total({ schedule: "open" })).toBe(0);
  });

  it("reads the scheduled-open hours alone and answers as the whole door state does", async () => {
    const c = acme.company.id;
    await db().delete(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, c));
    await db()
      .insert(schema.scheduleOpenDays)
      .values(Array.from({ length: 5 }, (_, day) => ({ companyId: c, day, openWholeDay: true, openTime: "08:00", closeTime: "18:00" })));
    await db().delete(schema.scheduleOpenExceptions).where(eq(schema.scheduleOpenExceptions.companyId, c));
    await db().insert(schema.scheduleOpenExceptions).values({ companyId: c, date: "2026-12-24", openWholeDay: true, openTime: "09:00", closeTime: "12:00" });
    await db().update(schema.companySettings).set({ scheduleOpen: true, fpi: false }).where(eq(schema.companySettings.companyId, c));
    await db().update(schema.devices).set({ scheduleOpen: true }).where(eq(schema.devices.id, ids.a));

    const [whole, small] = await Promise.all([loadCompany(db(), c), loadScheduledOpen(db(), c)]);
    expect(small.schedule).not.toBeNull();
    expect(small).toEqual({ live: whole.live, schedule: whole.schedule });
    // Every hour of a week and the exception day: the same answer, and the dashboard counts by it.
    const start = Date.UTC(2026, 11, 20, 0, 30);
    let open = 0;
    for (let h = 0; h < 8 * 24; h++) {
      const at = start + h * 3_600_000;
      const expected = Boolean(whole.live && whole.schedule && core.isOpen(whole.schedule, at));
      expect(await heldNow(c, at), new Date(at).toISOString()).toBe(expected);
      if (expected) open++;
    }
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThan(8 * 24);
    const opening = Date.UTC(2026, 11, 21, 9, 30); // Monday 10:30 in Madrid
    const numbers = await dashboardNumbers(db(), companyLog(acme.company.id), acme, core, opening);
    expect(numbers.devices!.scheduledOpen).toBe((await list(acme, { schedule: "open" }, undefined, opening)).total);
    expect(mine((await list(acme, { schedule: "open" }, undefined, opening)).rows)).toContain(ids.a);

    // Hours off: nothing to read beyond the settings.
    await db().update(schema.companySettings).set({ scheduleOpen: false }).where(eq(schema.companySettings.companyId, c));
    expect((await loadScheduledOpen(db(), c)).schedule).toBeNull();
    expect(await heldNow(c, opening)).toBe(false);
  });

  it("a lockdown ends the hold-open of the doors it covers, an evacuation holds its doors open (decision 0087)", async () => {
    const c = acme.company.id;
    const opening = Date.UTC(2026, 11, 21, 9, 30); // Monday 10:30 in Madrid, inside the hours set here
    await db().delete(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, c));
    await db()
      .insert(schema.scheduleOpenDays)
      .values(Array.from({ length: 7 }, (_, day) => ({ companyId: c, day, openWholeDay: true, openTime: "", closeTime: "" })));
    await db().update(schema.companySettings).set({ scheduleOpen: true, fpi: false }).where(eq(schema.companySettings.companyId, c));
    await db().update(schema.devices).set({ scheduleOpen: true }).where(eq(schema.devices.id, ids.a));
    await db().update(schema.devices).set({ scheduleOpen: false }).where(eq(schema.devices.id, ids.b));
    const held = async () => mine((await list(acme, { schedule: "open" }, undefined, opening)).rows);
    const dashboard = async () => (await dashboardNumbers(db(), companyLog(c), acme, core, opening)).devices!.scheduledOpen;
    expect(await held()).toContain(ids.a);
    const before = await dashboard();
    const state = (o: Partial<typeof schema.companyLockdowns.$inferInsert>) =>
      db()
        .insert(schema.companyLockdowns)
        .values({
          companyId: c,
          epoch: 1,
          mode: "lockdown",
          scope: "doors",
          scopeIds: "[]",
          exemptUserIds: "[]",
          exemptRoleIds: "[]",
          planName: "Test",
          startedAt: opening - 60_000,
          startedByName: "Test",
          ...o,
        })
        .onConflictDoUpdate({ target: schema.companyLockdowns.companyId, set: { endedAt: null, endsAt: null, ...o } });
    try {
      await state({ mode: "lockdown", scope: "doors", scopeIds: JSON.stringify([ids.a]) });
      expect(await held()).not.toContain(ids.a);
      expect(await dashboard()).toBe(before - 1);
      // The home's card: the caller's session carries the lockdown in force (resolved again here, as a request does).
      const fresh = (await authFromToken(db(), env as never, acmeToken, workerNow()))!;
      expect((await dashboardNumbers(db(), companyLog(c), fresh, core, opening)).lockdown).toEqual({ mode: "lockdown", doors: 1 });
      // Whole decision agrees: the door decision's scheduledOpen is the same rule.
      const decided = await api(acmeToken, "POST", "/api/admin/device/checkAccess", { checks: [{ deviceId: ids.a, credential: { type: "user", id: "1" }, at: opening }] });
      expect(decided.body.payload[0].scheduledOpen).toBe(false);

      await state({ mode: "evacuation", scope: "doors", scopeIds: JSON.stringify([ids.b]) });
      expect(await held()).toEqual(expect.arrayContaining([ids.a, ids.b]));
      expect(await dashboard()).toBe(before + 1);
      // Ended (or run out): the hours decide again.
      await state({ endsAt: opening - 1 });
      expect(await held()).not.toContain(ids.b);
      expect(await dashboard()).toBe(before);
      expect((await dashboardNumbers(db(), companyLog(c), acme, core, opening)).lockdown).toBeUndefined();
    } finally {
      await db().delete(schema.companyLockdowns).where(eq(schema.companyLockdowns.companyId, c));
    }
  });

  it("shows only the numbers of modules the caller holds", async () => {
    const none = { ...acme, permissions: { ...acme.permissions, users: false, devices: false, activity: false } };
    expect(await dashboardNumbers(db(), companyLog(none.company.id), none, core, workerNow())).toEqual({});
    const usersOnly = { ...acme, permissions: { ...acme.permissions, devices: false, activity: false } };
    const n = await dashboardNumbers(db(), companyLog(usersOnly.company.id), usersOnly, core, workerNow());
    expect(Object.keys(n)).toEqual(["users"]);
    expect(n.users).toBeGreaterThan(0);
  });
});
