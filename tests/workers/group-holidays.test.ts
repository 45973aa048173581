import { and, eq, gt, max } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { api, consoleWorker, createDeviceGroup, db, deviceGroupBody, login, madridZoneId, ORIGIN, schema } from "./helpers";

/**
 * Device-group schedules follow a holiday calendar by the group's own choice (issue 31, decision 0077): a group
 * key whose own choice is ignore follows its group's, at the console's decision and in the gateways' feed.
 */
const BASE = "/api/admin";
// Demo ids (db/seed/demo.ts): ACME staff user 6 and device 2.
const USER = 6;
const DEVICE = 2;
// 2027-01-06 is a Wednesday; noon in Madrid is 11:00 UTC. The demo group body opens weekdays 08:00–18:00.
const HOLIDAY = "2027-01-06";
const NOON_ON_HOLIDAY = Date.parse("2027-01-06T11:00:00Z");
const NOON_DAY_BEFORE = Date.parse("2027-01-05T11:00:00Z");

let acme: string;
let beta: string;

beforeAll(async () => {
  [acme, beta] = await Promise.all([login("acme"), login("beta")]);
});

const feedHead = async () =>
  (
    await db()
      .select({ seq: max(schema.gatewayChanges.seq) })
      .from(schema.gatewayChanges)
  )[0]?.seq ?? 0;

type FeedChange = { type: string; id: string; data?: { window?: Record<string, unknown> } };
const feedSince = async (cursor: number): Promise<FeedChange[]> => {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?cursor=${cursor}`, { headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}` } });
  return ((await res.json()) as { changes: FeedChange[] }).changes;
};

async function calendar(token: string, name: string, date?: Record<string, unknown>): Promise<number> {
  const made = await api(token, "POST", `${BASE}/holidays/addCalendar`, { name: `${name} ${Date.now()} ${Math.random()}` });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = made.body.payload.id as number;
  if (date) expect((await api(token, "POST", `${BASE}/holidays/saveDate`, { calendarId: id, ...date })).status).toBe(200);
  return id;
}

/** A group key of USER on the group from 2027-01-01; `own`: the key's own holiday choice. */
async function groupKey(group: number, own: Record<string, unknown> = {}): Promise<string> {
  const key = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, { userId: USER, eKey: group, type: "group", startDate: "2027-01-01", ...own });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  return String(key.body.payload.entryId);
}

/** The console's decision for that one key of USER at DEVICE. */
async function decide(keyId: string, at: number) {
  const r = await api(acme, "POST", `${BASE}/device/checkAccess`, {
    checks: [{ deviceId: DEVICE, credential: { type: "user", id: String(USER) }, at, key: { id: keyId, kind: "group" } }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.payload[0] as { allowed: boolean; reason: string; key: { id: string } | null };
}

const details = async (group: number) => (await api(acme, "GET", `${BASE}/deviceGroup/getDeviceGroupDetails?id=${group}`)).body.payload;

describe("device-group schedules follow a holiday calendar (issue 31, decision 0077)", () => {
  it("a group that is closed on holidays refuses its key holder on the date and admits the day before; the feed's groupKey carries the dates", async () => {
    const cal = await calendar(acme, "Group closed", { date: HOLIDAY, name: "Reyes" });
    const group = await createDeviceGroup(acme, `Holiday group ${Date.now()}`, [DEVICE], { on_holidays: "closed", holiday_calendar_id: cal });
    expect(await details(group)).toMatchObject({ on_holidays: "closed", holiday_calendar_id: cal });
    const cursor = await feedHead();
    const keyId = await groupKey(group);

    expect(await decide(keyId, NOON_ON_HOLIDAY)).toMatchObject({ allowed: false, reason: expect.stringContaining("Reyes") });
    expect(await decide(keyId, NOON_DAY_BEFORE)).toMatchObject({ allowed: true, key: { id: keyId } });

    // The gateways decide on the same window: the groupKey record carries the group's choice and the dates.
    const record = (await feedSince(cursor)).find((c) => c.type === "groupKey" && c.id === keyId);
    expect(record?.data?.window).toMatchObject({ onHolidays: "closed", holidays: [{ date: HOLIDAY, name: "Reyes" }] });

    // A new date of the group's calendar queues the group again (its keys' windows are rebuilt).
    const before = await feedHead();
    expect((await api(acme, "POST", `${BASE}/holidays/saveDate`, { calendarId: cal, date: "2027-04-01" })).status).toBe(200);
    const queued = await db()
      .select()
      .from(schema.gatewayChanges)
      .where(and(gt(schema.gatewayChanges.seq, before), eq(schema.gatewayChanges.entity, "group"), eq(schema.gatewayChanges.entityId, group)));
    expect(queued.length).toBeGreaterThan(0);
  });

  it("a modify without the choice keeps it; changing it (camelCase spellings) re-sends the group's keys and the holiday opens again", async () => {
    const cal = await calendar(acme, "Group modify", { date: HOLIDAY, name: "Reyes" });
    const name = `Holiday modify ${Date.now()}`;
    const group = await createDeviceGroup(acme, name, [DEVICE], { onHolidays: "closed", holidayCalendarId: cal });
    const keyId = await groupKey(group);
    expect((await decide(keyId, NOON_ON_HOLIDAY)).allowed).toBe(false);

    const body = {
      id: group,
      display_name: name,
      full_name: name,
      sch_monday: "1",
      sch_tuesday: "1",
      sch_wednesday: "1",
      sch_thursday: "1",
      sch_friday: "1",
      start_at: "08:00",
      end_at: "18:00",
      available_devices: [DEVICE],
    };
    expect((await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, body)).status).toBe(200);
    expect(await details(group)).toMatchObject({ on_holidays: "closed", holiday_calendar_id: cal });
    expect((await decide(keyId, NOON_ON_HOLIDAY)).allowed).toBe(false);

    const cursor = await feedHead();
    expect((await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...body, onHolidays: "ignore" })).status).toBe(200);
    expect(await details(group)).toMatchObject({ on_holidays: "ignore", holiday_calendar_id: null });
    expect((await decide(keyId, NOON_ON_HOLIDAY)).allowed).toBe(true);
    const record = (await feedSince(cursor)).find((c) => c.type === "groupKey" && c.id === keyId);
    expect(record?.data?.window).toBeDefined();
    expect(record?.data?.window).not.toHaveProperty("onHolidays");
  });

  it("a key with its own choice keeps it over its group's, at the console and in the feed", async () => {
    const closed = await calendar(acme, "Group whole day", { date: HOLIDAY, name: "Reyes" });
    const hours = await calendar(acme, "Key hours", { date: HOLIDAY, name: "Reyes mañana", openTime: "09:00", closeTime: "14:00" });
    const group = await createDeviceGroup(acme, `Holiday override ${Date.now()}`, [DEVICE], { on_holidays: "closed", holiday_calendar_id: closed });
    const cursor = await feedHead();
    const own = await groupKey(group, { onHolidays: "holidayHours", holidayCalendarId: hours });
    const follows = await groupKey(group);

    // Noon is inside the key's own holiday hours; the group's whole-day closure would refuse it.
    expect(await decide(own, NOON_ON_HOLIDAY)).toMatchObject({ allowed: true, key: { id: own } });
    expect((await decide(own, Date.parse("2027-01-06T14:30:00Z"))).allowed).toBe(false);
    expect((await decide(follows, NOON_ON_HOLIDAY)).allowed).toBe(false);

    const changes = await feedSince(cursor);
    expect(changes.find((c) => c.type === "groupKey" && c.id === own)?.data?.window).toMatchObject({
      onHolidays: "holidayHours",
      holidays: [{ date: HOLIDAY, name: "Reyes mañana", openTime: "09:00", closeTime: "14:00" }],
    });
    expect(changes.find((c) => c.type === "groupKey" && c.id === follows)?.data?.window).toMatchObject({ onHolidays: "closed", holidays: [{ date: HOLIDAY, name: "Reyes" }] });
  });

  it("refuses another company's calendar and a choice without a calendar with 400", async () => {
    const betaCal = await calendar(beta, "Beta");
    const name = `Holiday refused ${Date.now()}`;
    const zone = await madridZoneId();
    const other = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, deviceGroupBody(zone, name, [DEVICE], { on_holidays: "closed", holiday_calendar_id: betaCal }));
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toContain("The provided calendar is invalid");
    expect(JSON.stringify(other.body)).toContain("holiday_calendar_id");
    const none = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, deviceGroupBody(zone, name, [DEVICE], { on_holidays: "holidayHours" }));
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain("Choose a holiday calendar");

    const group = await createDeviceGroup(acme, name, [DEVICE]);
    const modified = await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, {
      ...deviceGroupBody(zone, name, [DEVICE]),
      id: group,
      onHolidays: "closed",
      holidayCalendarId: betaCal,
    });
    expect(modified.status).toBe(400);
    expect(JSON.stringify(modified.body)).toContain("The provided calendar is invalid");
    expect(await details(group)).toMatchObject({ on_holidays: "ignore", holiday_calendar_id: null });
  });

  it("deleting the calendar sets the group back to ignoring holidays, in the same batch, and re-sends its keys", async () => {
    const cal = await calendar(acme, "Group deleted", { date: HOLIDAY, name: "Reyes" });
    const group = await createDeviceGroup(acme, `Holiday delete ${Date.now()}`, [DEVICE], { on_holidays: "closed", holiday_calendar_id: cal });
    const keyId = await groupKey(group);
    expect((await decide(keyId, NOON_ON_HOLIDAY)).allowed).toBe(false);

    const before = await feedHead();
    expect((await api(acme, "DELETE", `${BASE}/holidays/deleteCalendar?id=${cal}`)).status).toBe(200);
    expect(await details(group)).toMatchObject({ on_holidays: "ignore", holiday_calendar_id: null });
    expect((await decide(keyId, NOON_ON_HOLIDAY)).allowed).toBe(true);
    const queued = await db()
      .select()
      .from(schema.gatewayChanges)
      .where(and(gt(schema.gatewayChanges.seq, before), eq(schema.gatewayChanges.entity, "group"), eq(schema.gatewayChanges.entityId, group)));
    expect(queued.length).toBeGreaterThan(0);
  });
});
