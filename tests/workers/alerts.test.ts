// @clock: decides at the Worker's instant; scripts/test.sh runs this file again half an hour before the DST switch.
/**
 * The alert calls of the admin API: list, details, add, modify, delete, test mail, activity options
 * and the sentinel feed. Demo data (db/seed/demo.ts): ACME alerts 1 and 2, BETA alert 3; ACME devices
 * 1-12, BETA device 13; users 3 (ACME admin), 4 (BETA admin), 5 (ACME auditor, read-only).
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { isoDay } from "../../db/seed/clock";
import { api, auditsNamed, companyLog, consoleWorker, db, login, ORIGIN, pageCookie, schema, seedNow } from "./helpers";

const BASE = "/api/admin/user";
const BETA_ALERT = 3;
const BETA_DEVICE = 13;
const BETA_USER = 4;

let acme: string;
let beta: string;
let auditor: string;
let madrid: number;

const accessGranted = { name: "Access Granted", type: "Device", alert_conditions: "011" };
const validAlert = () => ({
  displayName: "Night doors",
  activity: accessGranted,
  created_by_users: [],
  target_users: [{ id: null, name: "Any User", type: "Any User" }],
  devices: [
    { id: 2, name: "Door 2", type: "Device" },
    { id: 4, name: "Door 4", type: "Device" },
  ],
  schedule: "custom",
  startDate: "2026-11-23",
  endDate: "",
  isNeverEnd: "1",
  mon: "1",
  tue: "1",
  wed: "1",
  thu: "1",
  fri: "1",
  sat: "0",
  sun: "0",
  isAllDay: "0",
  startTime: "22:00:00",
  endTime: "06:00:00",
  zone: madrid,
  emails: [
    { id: 3, name: "Admin, Alice", type: "User", e_mail: "someone-else@evil.example" },
    { name: "ops@acme.example", type: "Email", e_mail: "ops@acme.example" },
    { name: "OPS@acme.example", type: "Email", e_mail: "OPS@acme.example" },
  ],
});

const alertRow = async (id: number) => db().query.alerts.findFirst({ where: eq(schema.alerts.id, id) });
beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
  madrid = (await db().query.timeZones.findFirst({ where: eq(schema.timeZones.name, "Europe/Madrid") }))!.id;
});

describe("GET /user/getAlerts", () => {
  it("lists only the company's alerts with the activity name and last run", async () => {
    const r = await api(acme, "GET", `${BASE}/getAlerts`);
    expect(r.status).toBe(200);
    const ids = r.body.payload.map((x: { id: number }) => x.id);
    expect(ids).toEqual(expect.arrayContaining([1, 2]));
    expect(ids).not.toContain(BETA_ALERT);
    expect(r.body.payload.find((x: { id: number }) => x.id === 2)).toEqual({
      id: 2,
      name: "Low battery",
      activity: { name: "Low Battery" },
      activities: [{ name: "Low Battery" }],
      lastActivity: null,
      lastActivityID: null,
    });
  });

  it("is readable by the read-only role and refused without a token", async () => {
    expect((await api(auditor, "GET", `${BASE}/getAlerts`)).status).toBe(200);
    expect((await api(null, "GET", `${BASE}/getAlerts`)).status).toBe(401);
  });
});

describe("GET /user/getAlertDetails", () => {
  it("returns the stored alert in the form's names, times as HH:mm:00", async () => {
    const r = await api(acme, "GET", `${BASE}/getAlertDetails?id=1&uid=abc`);
    expect(r.status).toBe(200);
    const p = r.body.payload;
    expect(p).toMatchObject({
      id: 1,
      displayName: "Server room after hours",
      activity: { name: "Access Granted", type: "Device", alert_conditions: "011" },
      schedule: "custom",
      startDate: isoDay(seedNow(), -323), // the seed's (db/seed/demo.ts)
      endDate: null,
      isNeverEnd: "1",
      mon: "1",
      sun: "1",
      isAllDay: "0",
      startTime: "20:00:00",
      endTime: "07:00:00",
      zone: madrid,
      days: "1111111",
      time_zone: { id: madrid, name: "Europe/Madrid" },
    });
    expect(p.devices).toEqual([{ id: 3, name: expect.any(String), type: "Device" }]);
    expect(p.target_users).toEqual([{ id: null, name: "Any User", type: "Any User" }]);
    expect(p.emails).toEqual([{ id: 3, name: "Admin, Alice", type: "User", e_mail: "admin@acme.example", channel: "email" }]);
  });

  it("is 404 for another company's alert and 400 for a bad id", async () => {
    expect((await api(acme, "GET", `${BASE}/getAlertDetails?id=${BETA_ALERT}`)).status).toBe(404);
    expect((await api(acme, "GET", `${BASE}/getAlertDetails?id=x`)).status).toBe(400);
  });
});

describe("POST /user/addAlert", () => {
  it("creates the alert with its targets and recipients, audited, and the details read it back", async () => {
    const r = await api(acme, "POST", `${BASE}/addAlert`, validAlert());
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Alert Created");
    const id = r.body.payload.id;
    const details = (await api(acme, "GET", `${BASE}/getAlertDetails?id=${id}`)).body.payload;
    expect(details).toMatchObject({ displayName: "Night doors", startTime: "22:00:00", endTime: "06:00:00", mon: "1", sat: "0", isNeverEnd: "1", endDate: null });
    expect(details.devices.map((x: { id: number }) => x.id)).toEqual([2, 4]);
    // A picked user is mailed at the company's address for them; typed duplicates are dropped.
    expect(details.emails.map((x: { e_mail: string }) => x.e_mail)).toEqual(["admin@acme.example", "ops@acme.example"]);
    expect(details.created_by_users).toEqual([]); // Access Granted does not ask for created-by users
    expect((await auditsNamed("Alert Created")).map((x) => x.summary)).toContain("Night doors");
  });

  it("answers the spec's validation messages and writes nothing", async () => {
    const before = (await db().select().from(schema.alerts)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ displayName: "" }, "Display name is required"],
      [{ activity: undefined }, "Activity is required"],
      [{ activity: { name: "No Such Activity" } }, "Activity is required"],
      [{ devices: [] }, "Devices are required"],
      [{ activity: { name: "Password Changed" }, created_by_users: [] }, "Created by users are required"],
      [{ activity: { name: "User Modified" }, created_by_users: [3], target_users: [] }, "Target users are required"],
      [{ schedule: "" }, "Schedule is required"],
      [{ startDate: "" }, "Start date is required or invalid"],
      [{ isNeverEnd: "0", endDate: "" }, "End date is required or invalid"],
      [{ isNeverEnd: "0", endDate: "2026-01-01" }, "End date is required or invalid"],
      [{ mon: "0", tue: "0", wed: "0", thu: "0", fri: "0" }, "Please select at least one day"],
      [{ startTime: "" }, "Start and End time are required"],
      [{ zone: "" }, "Time zone is required"],
      [{ emails: [] }, "At least one email or recipient is required"],
      [{ emails: ["not-an-address"] }, "Email is invalid"],
    ];
    for (const [change, message] of cases) {
      const r = await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), ...change });
      expect(r.status, message).toBe(400);
      expect(r.body.message, JSON.stringify(change)).toContain(message);
    }
    expect((await db().select().from(schema.alerts)).length).toBe(before);
  });

  it("names field errors in the spec's fields, whether the schema or the service finds them", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ activity: { name: "Password Changed" }, created_by_users: [] }, "created_by_users"],
      [{ devices: [] }, "devices"],
      [{ zone: "" }, "zone"],
      [{ zone: 99_999 }, "zone"],
      [{ emails: [] }, "emails"],
      [{ emails: [{ id: BETA_USER, type: "User" }] }, "emails"],
      [{ displayName: "" }, "displayName"],
    ];
    for (const [change, field] of cases) {
      const r = await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), ...change });
      expect(Object.keys(r.body.errors ?? {}), JSON.stringify(change)).toEqual([field]);
    }
  });

  it("checks the schedule with the core: equal start and end times are refused", async () => {
    const r = await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), startTime: "09:00:00", endTime: "09:00:00" });
    expect(r.status).toBe(400);
    expect(r.body.errors.endTime).toEqual(["End time must differ from start time"]);
    expect(r.body.message).toBe("End time must differ from start time");
  });

  it("accepts an 'any' schedule without the custom fields", async () => {
    const r = await api(acme, "POST", `${BASE}/addAlert`, {
      displayName: "Any low battery",
      activity: "Low Battery",
      devices: [{ id: null, type: "Any Device" }],
      schedule: "any",
      emails: ["ops@acme.example"],
    });
    expect(r.status).toBe(200);
    expect(await alertRow(r.body.payload.id)).toMatchObject({ schedule: "any", timeZoneId: null, startDate: null });
  });

  it("refuses another company's device, user or recipient with 404", async () => {
    for (const change of [{ devices: [{ id: BETA_DEVICE }] }, { emails: [{ id: BETA_USER, type: "User", e_mail: "x@y.example" }] }]) {
      expect((await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), ...change })).status).toBe(404);
    }
  });

  it("is refused to the read-only role", async () => {
    const r = await api(auditor, "POST", `${BASE}/addAlert`, validAlert());
    expect(r.status).toBe(403);
  });
});

describe("several activities per alert (decision 0059)", () => {
  it("takes the list field, keeps the spec's single field working beside it, and reads both back", async () => {
    const body = { ...validAlert(), activity: undefined, activities: [{ name: "Door Forced Open" }, "Access Denied"] };
    const r = await api(acme, "POST", `${BASE}/addAlert`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const details = (await api(acme, "GET", `${BASE}/getAlertDetails?id=${r.body.payload.id}`)).body.payload;
    expect(details.activity.name).toBe("Door Forced Open");
    expect(details.activities.map((x: { name: string }) => x.name)).toEqual(["Door Forced Open", "Access Denied"]);
    // Access Denied asks for target users, so its picker is kept for the pair.
    expect(details.target_users).toHaveLength(1);
    // The single field joins the list; modify replaces the list.
    const m = await api(acme, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id: r.body.payload.id, activity: { name: "Low Battery" }, activities: ["Tamper Detected"] });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    const after = (await api(acme, "GET", `${BASE}/getAlertDetails?id=${r.body.payload.id}`)).body.payload;
    expect(after.activities.map((x: { name: string }) => x.name)).toEqual(["Low Battery", "Tamper Detected"]);
    const listed = (await api(acme, "GET", `${BASE}/getAlerts`)).body.payload.find((x: { id: number }) => x.id === r.body.payload.id);
    expect(listed.activities).toEqual([{ name: "Low Battery" }, { name: "Tamper Detected" }]);
    const rows = await db().select().from(schema.alertActivityTypes).where(eq(schema.alertActivityTypes.alertId, r.body.payload.id));
    expect(rows).toHaveLength(2);
  });

  it("refuses platform-only activities, alone or among others, and saves nothing", async () => {
    const count = (await db().select().from(schema.alerts)).length;
    for (const activities of [["FAQ Created"], ["Access Denied", { name: "Device Type Created" }], ["Created Company"]]) {
      const r = await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), activity: undefined, activities });
      expect(r.status, JSON.stringify(activities)).toBe(400);
      expect(r.body.message).toBe("This activity cannot happen in your company");
      expect(Object.keys(r.body.errors ?? {})).toEqual(["activities"]);
    }
    const modify = await api(acme, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id: 2, activity: { name: "FAQ Modified" } });
    expect(modify.status).toBe(400);
    expect((await db().select().from(schema.alerts)).length).toBe(count);
    expect((await alertRow(2))?.name).toBe("Low battery");
  });

  it("offers the editor only the activities the company can have", async () => {
    const res = await consoleWorker.fetch(`${ORIGIN}/addAlert.data`, { headers: { Cookie: await pageCookie("acme") } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain("Door Forced Open");
    for (const platform of ["FAQ Created", "Device Type Created", "Created Company", "Moved Company To Cell"]) expect(text).not.toContain(platform);
  });
});

describe("the pickers' search (resources/alert-pickers)", () => {
  const search = async (cookie: string, query: string) => {
    const res = await consoleWorker.fetch(`${ORIGIN}/resources/alert-pickers?${query}`, { headers: { Cookie: cookie }, redirect: "manual" });
    return { status: res.status, body: res.status === 200 ? ((await res.json()) as { items: { id: number; label: string; detail?: string }[] }) : null };
  };

  it("finds the company's users by name or e-mail and its devices, at most 20, never another company's", async () => {
    const cookie = await pageCookie("acme");
    const users = await search(cookie, "kind=users&q=admin");
    expect(users.body!.items).toContainEqual({ id: 3, label: "Admin, Alice", detail: "admin@acme.example" });
    expect(users.body!.items.map((x) => x.id)).not.toContain(BETA_USER);
    const all = await search(cookie, "kind=users&q=");
    expect(all.body!.items.length).toBe(20);
    const devices = await search(cookie, "kind=devices&q=");
    expect(devices.body!.items.map((x) => x.id)).not.toContain(BETA_DEVICE);
    expect(devices.body!.items.length).toBeGreaterThan(0);
    expect((await search(cookie, "kind=roles&q=a")).status).toBe(400);
  });

  it("is refused without a session", async () => {
    const r = await search("", "kind=users&q=a");
    expect(r.status).not.toBe(200);
  });
});

describe("POST /user/modifyAlert", () => {
  it("saves the alert, replacing targets and recipients, audited", async () => {
    const id = (await api(acme, "POST", `${BASE}/addAlert`, validAlert())).body.payload.id;
    const r = await api(acme, "POST", `${BASE}/modifyAlert`, {
      ...validAlert(),
      id,
      displayName: "Night doors (weekend)",
      devices: [{ id: 5 }],
      isAllDay: "1",
      sat: "1",
      sun: "1",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "Alert Modified", payload: { id } });
    expect(await alertRow(id)).toMatchObject({ name: "Night doors (weekend)", isAllDay: true, startTime: null, endTime: null, days: "1111111" });
    const targets = await db().select().from(schema.alertTargets).where(eq(schema.alertTargets.alertId, id));
    expect(targets.filter((x) => x.kind === "device").map((x) => x.refId)).toEqual([5]);
    expect((await auditsNamed("Alert Modified")).map((x) => x.summary)).toContain("Night doors (weekend)");
  });

  it("is 404 for another company's alert, which stays unchanged", async () => {
    const before = await alertRow(BETA_ALERT);
    const r = await api(acme, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id: BETA_ALERT });
    expect(r.status).toBe(404);
    expect(await alertRow(BETA_ALERT)).toEqual(before);
    expect(await db().select().from(schema.alertTargets).where(eq(schema.alertTargets.alertId, BETA_ALERT))).toHaveLength(1);
  });

  it("validates like add and is refused to the read-only role", async () => {
    expect((await api(acme, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id: 1, displayName: " " })).body.message).toContain("Display name is required");
    expect((await api(auditor, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id: 1 })).status).toBe(403);
    expect((await alertRow(1))?.name).toBe("Server room after hours");
  });
});

describe("alert schedules on holidays (decision 0077)", () => {
  const calendar = async (token: string) => {
    const r = await api(token, "POST", "/api/admin/holidays/addCalendar", { name: `Alerts ${crypto.randomUUID().slice(0, 8)}` });
    expect(r.status).toBe(200);
    return r.body.payload.id as number;
  };
  const details = async (id: number) => (await api(acme, "GET", `${BASE}/getAlertDetails?id=${id}`)).body.payload;

  it("take on_holidays and holiday_calendar_id, read them back, keep them when a modify leaves them out, and forget the calendar with ignore", async () => {
    const calendarId = await calendar(acme);
    const r = await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), on_holidays: "closed", holiday_calendar_id: calendarId });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.payload.id as number;
    expect(await alertRow(id)).toMatchObject({ onHolidays: "closed", holidayCalendarId: calendarId });
    expect(await details(id)).toMatchObject({ on_holidays: "closed", holiday_calendar_id: calendarId });

    // The console's spellings are read too; a body without the fields keeps the alert's choice.
    expect((await api(acme, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id, onHolidays: "holidayHours", holidayCalendarId: calendarId })).status).toBe(200);
    expect(await details(id)).toMatchObject({ on_holidays: "holidayHours", holiday_calendar_id: calendarId });
    expect((await api(acme, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id, displayName: "Night doors, renamed" })).status).toBe(200);
    expect(await details(id)).toMatchObject({ displayName: "Night doors, renamed", on_holidays: "holidayHours", holiday_calendar_id: calendarId });

    expect((await api(acme, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id, on_holidays: "ignore", holiday_calendar_id: calendarId })).status).toBe(200);
    expect(await details(id)).toMatchObject({ on_holidays: "ignore", holiday_calendar_id: null });

    // An "any" schedule never follows a calendar.
    const any = await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), schedule: "any", on_holidays: "closed", holiday_calendar_id: calendarId });
    expect(await alertRow(any.body.payload.id)).toMatchObject({ schedule: "any", onHolidays: "ignore", holidayCalendarId: null });
  });

  it("refuses another company's calendar, a missing one and an unknown choice with 400 on the field, and saves nothing", async () => {
    const theirs = await calendar(beta);
    const count = (await db().select().from(schema.alerts)).length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ on_holidays: "closed", holiday_calendar_id: theirs }, "holiday_calendar_id", "The provided calendar is invalid"],
      [{ on_holidays: "holidayHours", holiday_calendar_id: 99_999 }, "holiday_calendar_id", "The provided calendar is invalid"],
      [{ on_holidays: "closed" }, "holiday_calendar_id", "Choose a holiday calendar"],
      [{ on_holidays: "closed", holiday_calendar_id: "x" }, "holiday_calendar_id", "The provided calendar is invalid"],
      [{ on_holidays: "sometimes", holiday_calendar_id: 1 }, "on_holidays", "On holidays must be ignore, closed or holidayHours"],
    ];
    for (const [change, field, message] of cases) {
      const r = await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), ...change });
      expect(r.status, JSON.stringify(change)).toBe(400);
      expect(r.body.errors, JSON.stringify(change)).toEqual({ [field]: [message] });
    }
    expect((await db().select().from(schema.alerts)).length).toBe(count);
    // Nor can a saved alert be moved onto it.
    const before = await alertRow(1);
    expect((await api(acme, "POST", `${BASE}/modifyAlert`, { ...validAlert(), id: 1, on_holidays: "closed", holiday_calendar_id: theirs })).status).toBe(400);
    expect(await alertRow(1)).toEqual(before);
  });

  it("go back to ignoring holidays when their calendar is deleted", async () => {
    const calendarId = await calendar(acme);
    const id = (await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), on_holidays: "closed", holiday_calendar_id: calendarId })).body.payload.id as number;
    expect((await api(acme, "DELETE", `/api/admin/holidays/deleteCalendar?id=${calendarId}`)).status).toBe(200);
    expect(await alertRow(id)).toMatchObject({ onHolidays: "ignore", holidayCalendarId: null });
  });

  it("are saved by the page's form through the shared schema; another company's calendar is refused", async () => {
    const [mine, theirs] = [await calendar(acme), await calendar(beta)];
    const cookie = await pageCookie("acme");
    const post = async (name: string, calendarId: number) => {
      const res = await consoleWorker.fetch(`${ORIGIN}/addAlert.data`, {
        method: "POST",
        body: new URLSearchParams({
          name,
          activities: "Low Battery",
          devices: "any",
          schedule: "custom",
          startDate: "2026-12-01",
          neverEnds: "1",
          allDay: "1",
          "days.monday": "1",
          timeZoneId: String(madrid),
          onHolidays: "closed",
          holidayCalendarId: String(calendarId),
          recipientEmails: "page@acme.example",
        }),
        headers: { Host: new URL(ORIGIN).host, Cookie: cookie, Origin: ORIGIN },
        redirect: "manual",
      });
      await res.arrayBuffer();
      return res.status;
    };
    expect([200, 202, 204, 302]).toContain(await post("Holidays from the page", mine));
    const [row] = await db().select().from(schema.alerts).where(eq(schema.alerts.name, "Holidays from the page"));
    expect(row).toMatchObject({ schedule: "custom", onHolidays: "closed", holidayCalendarId: mine });
    expect(await post("Their calendar from the page", theirs)).toBe(400);
    expect(await db().select().from(schema.alerts).where(eq(schema.alerts.name, "Their calendar from the page"))).toEqual([]);
  });
});

describe("alerts by text message (decision 0073)", () => {
  const SETTINGS = "/api/admin/settings";
  /** Saves ACME's settings as they are, with `alert_texts` as given (left out when undefined). */
  async function allowTexts(value: unknown) {
    const current = (await api(acme, "GET", `${SETTINGS}/getCompanySettings`)).body.payload;
    const { alert_texts: _, ...rest } = current;
    const r = await api(acme, "PUT", `${SETTINGS}/modifyCompanySettings`, value === undefined ? rest : { ...rest, alert_texts: value });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (await api(acme, "GET", `${SETTINGS}/getCompanySettings`)).body.payload.alert_texts;
  }
  const texted = (over: Record<string, unknown> = {}) => ({ ...validAlert(), emails: [{ id: 3, type: "User", channel: "text", ...over }, "ops@acme.example"] });
  const saved = () => db().select().from(schema.alerts);

  it("is a company setting, off by default, read leniently and kept when a body leaves it out", async () => {
    expect((await api(acme, "GET", `${SETTINGS}/getCompanySettings`)).body.payload.alert_texts).toBe("0");
    expect(await allowTexts(true)).toBe("1");
    expect(await allowTexts(undefined)).toBe("1");
    expect(await allowTexts("0")).toBe("0");
    expect(await allowTexts("on")).toBe("1");
    expect(await allowTexts(false)).toBe("0");
  });

  it("refuses a text recipient while the company does not allow texts, and saves nothing", async () => {
    await allowTexts("0");
    const before = (await saved()).length;
    const r = await api(acme, "POST", `${BASE}/addAlert`, texted());
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Your company does not allow alerts by text message");
    expect((await saved()).length).toBe(before);
  });

  it("takes each user's channel (e-mail, text or both), reads it back, and refuses what cannot be texted", async () => {
    await allowTexts("1");
    const r = await api(acme, "POST", `${BASE}/addAlert`, {
      ...validAlert(),
      emails: [{ id: 3, type: "User", channel: "SMS" }, { id: 5, type: "User", channel: "both" }, "ops@acme.example"],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const details = (await api(acme, "GET", `${BASE}/getAlertDetails?id=${r.body.payload.id}`)).body.payload;
    expect(details.emails.map((x: { id: number | null; channel: string }) => [x.id, x.channel])).toEqual([
      [3, "text"],
      [5, "both"],
      [null, "email"],
    ]);
    const before = (await saved()).length;
    const refused: [Record<string, unknown>, string][] = [
      [texted({ channel: "pigeon" }), "Channel must be email, text or both"],
      [{ ...validAlert(), emails: [{ type: "Email", e_mail: "ops@acme.example", channel: "text" }] }, "Only your company's users can receive texts"],
    ];
    for (const [body, message] of refused) {
      const x = await api(acme, "POST", `${BASE}/addAlert`, body);
      expect(x.status).toBe(400);
      expect(x.body.message).toContain(message);
    }
    // A user without a mobile phone number cannot be texted.
    await db().update(schema.users).set({ phoneNumber: "" }).where(eq(schema.users.id, 5));
    try {
      const x = await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), emails: [{ id: 5, type: "User", channel: "both" }] });
      expect([x.status, x.body.message]).toEqual([400, "A recipient chosen for texts has no mobile phone number"]);
    } finally {
      await db().update(schema.users).set({ phoneNumber: "+15551000005" }).where(eq(schema.users.id, 5));
    }
    expect((await saved()).length).toBe(before);
  });

  it("texts only the company's own users: another company's user is a 404 and nothing is saved, by the API or the page", async () => {
    await allowTexts("1");
    const before = (await saved()).length;
    expect((await api(acme, "POST", `${BASE}/addAlert`, texted({ id: BETA_USER }))).status).toBe(404);
    const cookie = await pageCookie("acme");
    const res = await consoleWorker.fetch(`${ORIGIN}/addAlert.data`, {
      method: "POST",
      body: new URLSearchParams([
        ["name", "Texts to Beta"],
        ["activities", "Low Battery"],
        ["devices", "any"],
        ["schedule", "any"],
        ["recipientUsers", String(BETA_USER)],
        ["recipientChannels", `${BETA_USER}:text`],
      ]),
      headers: { Host: new URL(ORIGIN).host, Cookie: cookie, Origin: ORIGIN },
      redirect: "manual",
    });
    await res.arrayBuffer();
    expect(res.status).toBe(404);
    expect((await saved()).length).toBe(before);
    // A number in the body is not a recipient: only the user's id is read (the engine test texts the user's own phone).
    const r = await api(acme, "POST", `${BASE}/addAlert`, texted({ phone: "+15550009999", phoneNumber: "+15550009999" }));
    expect(r.status).toBe(200);
    expect(JSON.stringify((await api(acme, "GET", `${BASE}/getAlertDetails?id=${r.body.payload.id}`)).body.payload)).not.toContain("5550009999");
  });

  it("saves the page's channel choice through the shared form schema", async () => {
    await allowTexts("1");
    const cookie = await pageCookie("acme");
    const res = await consoleWorker.fetch(`${ORIGIN}/addAlert.data`, {
      method: "POST",
      body: new URLSearchParams([
        ["name", "Texted from the page"],
        ["activities", "Low Battery"],
        ["devices", "any"],
        ["schedule", "any"],
        ["recipientUsers", "3"],
        ["recipientUsers", "5"],
        ["recipientChannels", "3:text"],
        ["recipientChannels", "5:both"],
      ]),
      headers: { Host: new URL(ORIGIN).host, Cookie: cookie, Origin: ORIGIN },
      redirect: "manual",
    });
    await res.arrayBuffer();
    expect([200, 202, 204, 302]).toContain(res.status);
    const [row] = await db().select().from(schema.alerts).where(eq(schema.alerts.name, "Texted from the page"));
    const recipients = await db().select().from(schema.alertRecipients).where(eq(schema.alertRecipients.alertId, row.id));
    expect(recipients.map((x) => [x.userId, x.channel])).toEqual([
      [3, "text"],
      [5, "both"],
    ]);
  });
});

describe("DELETE /user/deleteAlert", () => {
  it("deletes the alert ('Alert deleted'), audited; it is gone from list and details", async () => {
    const id = (await api(acme, "POST", `${BASE}/addAlert`, { ...validAlert(), displayName: "Short lived" })).body.payload.id;
    const r = await api(acme, "DELETE", `${BASE}/deleteAlert?id=${id}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Alert deleted");
    expect((await api(acme, "GET", `${BASE}/getAlertDetails?id=${id}`)).status).toBe(404);
    expect((await api(acme, "GET", `${BASE}/getAlerts`)).body.payload.map((x: { id: number }) => x.id)).not.toContain(id);
    expect((await auditsNamed("Alert Removed")).map((x) => x.summary)).toContain("Short lived");
    expect((await api(acme, "DELETE", `${BASE}/deleteAlert?id=${id}`)).status).toBe(404);
  });

  it("is 404 for another company's alert and 403 for the read-only role; both stay", async () => {
    expect((await api(acme, "DELETE", `${BASE}/deleteAlert?id=${BETA_ALERT}`)).status).toBe(404);
    expect((await alertRow(BETA_ALERT))?.deletedAt).toBeNull();
    expect((await api(auditor, "DELETE", `${BASE}/deleteAlert?id=2`)).status).toBe(403);
    expect((await alertRow(2))?.deletedAt).toBeNull();
    expect((await api(beta, "GET", `${BASE}/getAlertDetails?id=${BETA_ALERT}`)).status).toBe(200);
  });
});

describe("POST /user/alertTestEmail", () => {
  it("queues one mail per distinct recipient and answers 'Email Sent'", async () => {
    const r = await api(acme, "POST", `${BASE}/alertTestEmail`, { displayName: "Night doors", emails: [{ id: 3, type: "User" }, "qa@acme.example", "QA@acme.example"] });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Email Sent");
    const queued = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.subject, "Test: alert Night doors"));
    expect(queued.map((x) => x.toAddress).sort()).toEqual(["admin@acme.example", "qa@acme.example"]);
  });

  it("needs a recipient, refuses another company's user, and is refused to the read-only role", async () => {
    const empty = await api(acme, "POST", `${BASE}/alertTestEmail`, { emails: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("At least one email or recipient is required");
    expect((await api(acme, "POST", `${BASE}/alertTestEmail`, { emails: [{ id: BETA_USER, type: "User" }] })).status).toBe(404);
    expect((await api(auditor, "POST", `${BASE}/alertTestEmail`, { emails: ["qa@acme.example"] })).status).toBe(403);
    const tooMany = Array.from({ length: 51 }, (_, i) => `r${i}@acme.example`);
    expect((await api(acme, "POST", `${BASE}/alertTestEmail`, { emails: tooMany })).status).toBe(400);
  });
});

describe("GET /user/getActivityOptions", () => {
  it("gives the pickers the activity conditions and the company's users and devices", async () => {
    const p = (await api(acme, "GET", `${BASE}/getActivityOptions`)).body.payload;
    expect(p.activities).toContainEqual(expect.objectContaining({ name: "Low Battery", type: "Device", alert_conditions: "001" }));
    expect(p.devices.map((x: { id: number }) => x.id)).not.toContain(BETA_DEVICE);
  });
});

describe("GET /user/getSentinelAlerts", () => {
  it("lists the company's firings only, newest first, in the documented shape", async () => {
    const company = async (code: string) => (await db().query.companies.findFirst({ where: eq(schema.companies.code, code) }))!.id;
    const [acmeId, betaId] = [await company("ACME"), await company("BETA")];
    const [acmeAct] = await companyLog(acmeId).select({ id: schema.activityLogs.id }).from(schema.activityLogs).where(eq(schema.activityLogs.companyId, acmeId)).limit(1);
    const [betaAct] = await companyLog(betaId).select({ id: schema.activityLogs.id }).from(schema.activityLogs).where(eq(schema.activityLogs.companyId, betaId)).limit(1);
    await db()
      .insert(schema.alertMatches)
      .values([
        { alertId: 2, companyId: acmeId, activityId: acmeAct.id, state: "sent", matchedAt: 1 },
        { alertId: BETA_ALERT, companyId: betaId, activityId: betaAct.id, state: "held", matchedAt: 2 },
      ]);
    const r = await api(acme, "GET", `${BASE}/getSentinelAlerts`);
    expect(r.status).toBe(200);
    expect(r.body.payload).toHaveLength(1);
    expect(r.body.payload[0]).toMatchObject({ alert_id: 2, alert_name: "Low battery", activity_id: acmeAct.id, state: "sent", matched_at: 1 });
    expect((await api(beta, "GET", `${BASE}/getSentinelAlerts`)).body.payload.map((x: { alert_id: number }) => x.alert_id)).toEqual([BETA_ALERT]);
    await db().delete(schema.alertMatches);
  });
});

describe("OpenAPI", () => {
  it("documents every alert call, including the sentinel feed's shape", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    for (const path of ["getAlerts", "getAlertDetails", "addAlert", "modifyAlert", "deleteAlert", "alertTestEmail", "getSentinelAlerts"]) {
      expect(Object.keys(r.body.paths)).toContain(`${BASE}/${path}`);
    }
    expect(JSON.stringify(r.body.paths[`${BASE}/getSentinelAlerts`])).toContain("alert_name");
    for (const path of ["addAlert", "modifyAlert", "getAlertDetails"]) {
      const doc = JSON.stringify(r.body.paths[`${BASE}/${path}`]);
      expect(doc, path).toContain("on_holidays");
      expect(doc, path).toContain("holiday_calendar_id");
    }
  });
});

describe("the alert pages (form actions)", () => {
  const HOST = new URL(ORIGIN).host;
  /** Posted as the console's client posts (`.data`), so the action's own status comes back. */
  async function post(cookie: string, path: string, form: Record<string, string>) {
    const res = await consoleWorker.fetch(ORIGIN + path, {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { Host: HOST, Cookie: cookie, Origin: ORIGIN },
      redirect: "manual",
    });
    await res.arrayBuffer();
    return res.status;
  }
  const form = (over: Record<string, string> = {}) => ({
    name: "From the page",
    activities: "Low Battery",
    devices: "any",
    schedule: "any",
    recipientEmails: "page@acme.example",
    ...over,
  });

  it("refuses the read-only role on the server: add, modify and delete change nothing", async () => {
    const cookie = await pageCookie("auditor");
    const count = (await db().select().from(schema.alerts)).length;
    const before = await alertRow(2);
    expect(await post(cookie, "/addAlert.data", form())).toBe(403);
    expect(await post(cookie, "/modifyAlert.data?id=2", form({ id: "2", name: "Changed by the auditor" }))).toBe(403);
    expect(await post(cookie, "/modifyAlert.data?id=2", { intent: "test", recipientEmails: "someone@acme.example" })).toBe(403);
    expect(await post(cookie, "/alerts.data", { id: "2" })).toBe(403);
    expect((await db().select().from(schema.alerts)).length).toBe(count);
    expect(await alertRow(2)).toEqual(before);
  });

  it("treats another company's alert as absent: modify is 404, delete and the page change nothing", async () => {
    const cookie = await pageCookie("acme");
    const before = await alertRow(BETA_ALERT);
    expect(await post(cookie, `/modifyAlert.data?id=${BETA_ALERT}`, form({ id: String(BETA_ALERT), name: "Taken over" }))).toBe(404);
    await post(cookie, "/alerts.data", { id: String(BETA_ALERT) });
    expect(await alertRow(BETA_ALERT)).toEqual(before);
    const open = await consoleWorker.fetch(`${ORIGIN}/modifyAlert?id=${BETA_ALERT}`, { headers: { Host: HOST, Cookie: cookie }, redirect: "manual" });
    expect(open.status).toBe(302);
    expect(open.headers.get("Location")).toBe("/alerts");
  });

  it("saves the form through the shared schema: pickers of the activity only, typed duplicates dropped", async () => {
    const cookie = await pageCookie("acme");
    const status = await post(cookie, "/addAlert.data", form({ name: "Page alert", recipientEmails: "a@acme.example, A@acme.example; b@acme.example", targetUsers: "3" }));
    expect([200, 202, 204, 302]).toContain(status);
    const [row] = await db().select().from(schema.alerts).where(eq(schema.alerts.name, "Page alert"));
    const recipients = await db().select().from(schema.alertRecipients).where(eq(schema.alertRecipients.alertId, row.id));
    expect(recipients.map((x) => x.email)).toEqual(["a@acme.example", "b@acme.example"]);
    const targets = await db().select().from(schema.alertTargets).where(eq(schema.alertTargets.alertId, row.id));
    expect(targets.map((x) => [x.kind, x.refId])).toEqual([["device", null]]); // Low Battery asks for devices only
  });

  it("takes which pickers an activity needs from the catalogue, not from the post: a missing one is refused and nothing is saved", async () => {
    const cookie = await pageCookie("acme");
    const count = (await db().select().from(schema.alerts)).length;
    // Access Granted asks for target users and devices; the post names neither.
    const status = await post(cookie, "/addAlert.data", form({ name: "No pickers", activities: "Access Granted", devices: "" }));
    expect(status).toBe(400);
    expect((await db().select().from(schema.alerts)).length).toBe(count);
  });

  it("lists 25 alerts a page, and shows the empty state to a company without alerts", async () => {
    const acmeId = (await db().query.companies.findFirst({ where: eq(schema.companies.code, "ACME") }))!.id;
    const lowBattery = (await db().query.activityTypes.findFirst({ where: eq(schema.activityTypes.name, "Low Battery") }))!.id;
    // D1 binds at most 100 values a statement: a few rows at a time.
    const paged = Array.from({ length: 30 }, (_, i) => ({
      companyId: acmeId,
      name: `Paged ${String(i).padStart(2, "0")}`,
      activityTypeId: lowBattery,
      schedule: "any" as const,
      createdAt: 1,
      updatedAt: 1,
    }));
    for (let i = 0; i < paged.length; i += 5)
      await db()
        .insert(schema.alerts)
        .values(paged.slice(i, i + 5));
    const live = (await api(acme, "GET", `${BASE}/getAlerts`)).body.payload.length;
    expect(live).toBeGreaterThan(25);
    const rowsOn = async (cookie: string, path: string) => {
      const res = await consoleWorker.fetch(ORIGIN + path, { headers: { Host: HOST, Cookie: cookie } });
      expect(res.status).toBe(200);
      return (await res.text()).match(/aria-label="Open alert /g)?.length ?? 0;
    };
    const cookie = await pageCookie("acme");
    expect(await rowsOn(cookie, "/alerts")).toBe(25);
    expect(await rowsOn(cookie, "/alerts?page=2")).toBe(Math.min(25, live - 25));

    await db().update(schema.alerts).set({ deletedAt: 1 }).where(eq(schema.alerts.id, BETA_ALERT));
    const res = await consoleWorker.fetch(`${ORIGIN}/alerts`, { headers: { Host: HOST, Cookie: await pageCookie("beta") } });
    const html = await res.text();
    expect(html).toContain("No alerts yet");
    expect(html).not.toContain('aria-label="Open alert ');
  });
});
