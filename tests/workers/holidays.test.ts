import { and, eq, gt, max } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { api, consoleWorker, createDeviceGroup, db, login, madridZoneId, ORIGIN, schema } from "./helpers";

const BASE = "/api/admin";
// Demo ids (db/seed/demo.ts): ACME staff user 6 and device 2.
const USER = 6;
let acme: string;
let beta: string;
let auditor: string;

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
});

const feedHead = async () =>
  (
    await db()
      .select({ seq: max(schema.gatewayChanges.seq) })
      .from(schema.gatewayChanges)
  )[0]?.seq ?? 0;

describe("holiday calendars (issue 31, decision 0077)", () => {
  it("imports Spain's holidays, keeps them to the company, refuses bad input with 4xx, and a date change reaches the feed of the keys that follow it", async () => {
    const made = await api(acme, "POST", `${BASE}/holidays/addCalendar`, { name: `Spain ${Date.now()}`, source: "ES", year: 2027 });
    expect(made.status).toBe(200);
    const id = made.body.payload.id as number;
    const cal = await api(acme, "GET", `${BASE}/holidays/getCalendar?id=${id}`);
    expect(cal.body.payload.dates.map((d: { date: string }) => d.date)).toContain("2027-01-06");

    // Another company's calendar is not found; a read-only role may not change it; bad input is a 400.
    expect((await api(beta, "GET", `${BASE}/holidays/getCalendar?id=${id}`)).status).toBe(404);
    expect((await api(auditor, "POST", `${BASE}/holidays/saveDate`, { calendarId: id, date: "2027-02-02" })).status).toBe(403);
    expect((await api(acme, "POST", `${BASE}/holidays/saveDate`, { calendarId: id, date: "2027-02-30" })).status).toBe(400);
    expect((await api(acme, "POST", `${BASE}/holidays/saveDate`, { calendarId: id, date: "2027-02-02", openTime: "14:00", closeTime: "09:00" })).status).toBe(400);
    expect((await api(acme, "POST", `${BASE}/holidays/importPublicHolidays`, { calendarId: id, source: "XX", year: 2027 })).status).toBe(400);
    expect((await api(acme, "POST", `${BASE}/holidays/importPublicHolidays`, { calendarId: id, source: "ES", year: 2099 })).status).toBe(400);

    // A key that follows the calendar carries its dates to the gateways; a new date queues that key again.
    const zone = await madridZoneId();
    const key = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, {
      userId: USER,
      eKey: 2,
      type: "device",
      accessType: "custom_access",
      startDate: "2027-01-01",
      isNeverEnd: "1",
      isAllDay: "1",
      scheduleDays: "1111111",
      zone,
      onHolidays: "closed",
      holidayCalendarId: id,
    });
    expect(key.status).toBe(200);
    const entryId = key.body.payload?.entryId ?? (await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.holidayCalendarId, id) }))!.id;
    const before = await feedHead();
    expect((await api(acme, "POST", `${BASE}/holidays/saveDate`, { calendarId: id, date: "2027-02-02", closeTime: "14:00", name: "Half day" })).status).toBe(200);
    const queued = await db()
      .select()
      .from(schema.gatewayChanges)
      .where(and(gt(schema.gatewayChanges.seq, before), eq(schema.gatewayChanges.entity, "ekey"), eq(schema.gatewayChanges.entityId, entryId)));
    expect(queued.length).toBeGreaterThan(0);

    // Another company's calendar cannot be followed.
    const betaCal = await api(beta, "POST", `${BASE}/holidays/addCalendar`, { name: `Beta ${Date.now()}` });
    const refused = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, {
      userId: USER,
      eKey: 2,
      type: "device",
      accessType: "full_access",
      onHolidays: "closed",
      holidayCalendarId: betaCal.body.payload.id,
    });
    expect(refused.status).toBe(400);
  });

  it("a group key follows a calendar too: the gateways get its window with the dates, and a new date queues it again", async () => {
    const id = (await api(acme, "POST", `${BASE}/holidays/addCalendar`, { name: `Group keys ${Date.now()}` })).body.payload.id as number;
    expect((await api(acme, "POST", `${BASE}/holidays/saveDate`, { calendarId: id, date: "2027-01-06", name: "Reyes" })).status).toBe(200);
    const group = await createDeviceGroup(acme, `Holiday group ${Date.now()}`, [2]);
    const cursor = await feedHead();
    const key = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, {
      userId: USER,
      eKey: group,
      type: "group",
      startDate: "2027-01-01",
      onHolidays: "holidayHours",
      holidayCalendarId: id,
    });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?cursor=${cursor}`, { headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}` } });
    const changes = ((await res.json()) as { changes: { type: string; data?: { window?: Record<string, unknown> } }[] }).changes;
    const window = changes.find((c) => c.type === "groupKey")?.data?.window;
    expect(window).toMatchObject({ onHolidays: "holidayHours", holidays: [expect.objectContaining({ date: "2027-01-06" })] });

    const before = await feedHead();
    expect((await api(acme, "POST", `${BASE}/holidays/saveDate`, { calendarId: id, date: "2027-04-01" })).status).toBe(200);
    // Group keys are assignment rows like e-keys: the calendar's trigger queues the row, the feed sends it as a group key.
    const entry = (await db().query.ekeyAssignments.findFirst({ where: and(eq(schema.ekeyAssignments.groupId, group), eq(schema.ekeyAssignments.holidayCalendarId, id)) }))!;
    const queued = await db()
      .select()
      .from(schema.gatewayChanges)
      .where(and(gt(schema.gatewayChanges.seq, before), eq(schema.gatewayChanges.entity, "ekey"), eq(schema.gatewayChanges.entityId, entry.id)));
    expect(queued.length).toBeGreaterThan(0);
  });
});
