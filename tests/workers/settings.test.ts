// @clock: a zone's today at the Worker's instant; scripts/test.sh runs this file again half an hour before the DST switch.
import { env } from "cloudflare:test";
import { and, desc, eq, max } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { demoDates } from "../../db/seed/clock";
import { consoleWorker, api, companyLog, db, login, ORIGIN, pageCookie, schema, seedNow, workerNow } from "./helpers";

const BASE = "/api/admin/settings";
const ACME = 3;
const BETA = 4;

let acme: string;
let beta: string;
let auditor: string;
let madrid: number;
let berlin: number;
let acmeAdmin: number;

const CLOSED = { openWholeDay: false, openTime: "", closeTime: "" };
const week = (monday = CLOSED) => [0, 1, 2, 3, 4, 5, 6].map((scheduleDay) => ({ scheduleDay, ...(scheduleDay === 0 ? monday : CLOSED) }));

/** The activity log's policy before any company sets one (migration 0026). */
const POLICY_DEFAULTS = { activity_hot_days: 90, activity_retention_days: null, activity_retention_action: "delete" };

const validSettings = () => ({
  is_multi_phone_login: "0",
  offline_reconect: 12,
  schedule_open: "1",
  default_time_zone_id: madrid,
  ekey_duration: 8,
  default_country_code: "001",
  allowed_firmware: "Installer Only",
  password_expiry_duration: 3,
  biometric_security: "1",
  require_2fa: "0",
  password_reset_security: "admin",
  password_reset_secondary_action: "flag",
  password_reset_phone: "555-000-0003",
});

/** Audit rows of `name` written for a company, newest first. */
const audits = (companyId: number, name: string) =>
  companyLog(companyId)
    .select({ id: schema.activityLogs.id, by: schema.activityLogs.createdByUserId, summary: schema.activityLogs.summary })
    .from(schema.activityLogs)
    .innerJoin(schema.activityTypes, eq(schema.activityTypes.id, schema.activityLogs.activityTypeId))
    .where(and(eq(schema.activityLogs.companyId, companyId), eq(schema.activityTypes.name, name)))
    .orderBy(desc(schema.activityLogs.id));

const feedHead = async () =>
  (
    await db()
      .select({ seq: max(schema.gatewayChanges.seq) })
      .from(schema.gatewayChanges)
  )[0].seq ?? 0;

/** What a gateway following the feed receives after `cursor`. */
async function feedAfter(cursor: number) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?cursor=${cursor}`, { headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { changes: { type: string; op: string; id: string; data?: any }[] }).changes;
}

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
  const zones = await db().select().from(schema.timeZones);
  madrid = zones.find((z) => z.name === "Europe/Madrid")!.id;
  berlin = zones.find((z) => z.name === "Europe/Berlin")!.id;
  acmeAdmin = (await db().query.users.findFirst({ where: eq(schema.users.email, "admin@acme.example") }))!.id;
});

describe("GET /settings/getCompanySettings", () => {
  it("returns the caller's own settings with the schedule and assigned programmers", async () => {
    const r = await api(acme, "GET", `${BASE}/getCompanySettings`);
    expect(r.status).toBe(200);
    expect(r.body.payload).toMatchObject({
      company_id: ACME,
      schedule_open: "1",
      fpi: "1",
      default_time_zone_id: madrid,
      password_reset_security: "admin",
      password_reset_phone: "+15550000003",
      fob_programmers: [{ display_name: "Reception Programmer" }],
    });
    expect(r.body.payload.schedule_opens).toHaveLength(7);
    expect(r.body.payload.schedule_opens[0]).toEqual({ scheduleDay: 0, openWholeDay: true, openTime: "08:00", closeTime: "18:00" });
    const { christmas, newYearsEve } = demoDates(seedNow());
    expect(r.body.payload.schedule_exceptions.map((e: { exceptionDate: string }) => e.exceptionDate)).toEqual([christmas, newYearsEve].sort());

    const b = await api(beta, "GET", `${BASE}/getCompanySettings`);
    expect(b.body.payload).toMatchObject({ company_id: BETA, default_time_zone_id: berlin, schedule_open: "0", fob_programmers: [] });
  });
});

describe("PUT /settings/modifyCompanySettings", () => {
  it("an install window and a rollout opt-out: checked, stored, cleared when empty, kept when absent, and on the company's feed record", async () => {
    const both = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), firmware_window_start: "01:00" });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe("firmware_window_end: Set both ends of the install window, or neither");
    const badTime = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), firmware_window_start: "25:00", firmware_window_end: "04:00" });
    expect(badTime.body.message).toBe("firmware_window_start: Install window times must be HH:mm");
    const badDate = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), rollout_deferred_until: "2026-02-30" });
    expect(badDate.body.message).toBe("rollout_deferred_until: Rollout opt-out date must be a date (YYYY-MM-DD)");

    const cursor = await feedHead();
    const saved = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, {
      ...validSettings(),
      firmware_window_start: "22:00",
      firmware_window_end: "04:30",
      rollout_deferred_until: "2027-01-15",
    });
    expect(saved.status).toBe(200);
    const company = (await feedAfter(cursor)).filter((c) => c.type === "company" && c.id === "ACME").at(-1);
    expect(company?.data).toMatchObject({ firmwareWindow: { start: "22:00", end: "04:30" }, rolloutDeferredUntil: "2027-01-15" });
    expect((await api(acme, "GET", `${BASE}/getCompanySettings`)).body.payload).toMatchObject({
      firmware_window_start: "22:00",
      firmware_window_end: "04:30",
      rollout_deferred_until: "2027-01-15",
    });

    await api(acme, "PUT", `${BASE}/modifyCompanySettings`, validSettings());
    expect((await api(acme, "GET", `${BASE}/getCompanySettings`)).body.payload).toMatchObject({ firmware_window_start: "22:00", rollout_deferred_until: "2027-01-15" });
    await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), firmware_window_start: "", firmware_window_end: "", rollout_deferred_until: "" });
    expect((await api(acme, "GET", `${BASE}/getCompanySettings`)).body.payload).toMatchObject({
      firmware_window_start: null,
      firmware_window_end: null,
      rollout_deferred_until: null,
    });
  });

  it("rejects invalid values with field errors and changes nothing", async () => {
    const before = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ offline_reconect: 0 }, "offline_reconect", "Choose from 1 to 24 hours"],
      [{ ekey_duration: 25 }, "ekey_duration", "Choose from 1 to 24 hours"],
      [{ default_country_code: "12a4" }, "default_country_code", "Country code must be 1 to 3 digits"],
      [{ password_expiry_duration: 2 }, "password_expiry_duration", "Choose a password change interval"],
      [{ password_reset_phone: "555" }, "password_reset_phone", "Contact phone must have at least 10 digits"],
      [{ password_reset_security: "pigeon" }, "password_reset_security", ""],
      [{ default_time_zone_id: 999_999 }, "default_time_zone_id", "Time zone is required"],
    ];
    for (const [patch, field, message] of cases) {
      const r = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), ...patch });
      expect(r.status, field).toBe(400);
      expect(Object.keys(r.body.errors), field).toContain(field);
      if (message) expect(r.body.errors[field]).toContain(message);
    }
    const after = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) });
    expect(after).toEqual(before);
  });

  it("saves, keeps only the extra field of the chosen mode, and writes the audit row", async () => {
    const r = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), is_force_firmware_update: "1" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "Company Settings Updated", payload: { is_force_firmware_update: "1" } });
    const row = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) });
    expect(row).toMatchObject({
      offlineReconnectHours: 12,
      ekeyDurationHours: 8,
      allowedFirmware: "Installer Only",
      passwordExpiryMonths: 3,
      biometricSecurity: true,
      passwordResetSecurity: "admin",
      passwordResetSecondaryAction: "nothing",
      passwordResetPhone: "+15550000003",
      isForceFirmwareUpdate: true,
    });
    expect((await audits(ACME, "Company Settings Updated"))[0]).toMatchObject({ by: acmeAdmin });

    const text = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), password_reset_security: "text", password_reset_secondary_action: "alert" });
    expect(text.status).toBe(200);
    const row2 = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) });
    expect(row2).toMatchObject({ passwordResetSecurity: "text", passwordResetSecondaryAction: "alert", passwordResetPhone: "", isForceFirmwareUpdate: true });
  });

  it("switching scheduled open off sends the gateways a tombstone for the company's window", async () => {
    const cursor = await feedHead();
    expect((await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), schedule_open: "0" })).status).toBe(200);
    expect(await feedAfter(cursor)).toContainEqual({ type: "scheduledOpen", op: "delete", id: String(ACME) });
    const back = await feedHead();
    expect((await api(acme, "PUT", `${BASE}/modifyCompanySettings`, validSettings())).status).toBe(200);
    expect((await feedAfter(back)).find((c) => c.type === "scheduledOpen")).toMatchObject({ op: "upsert", id: String(ACME) });
  });

  it("a new default zone re-sends the company's devices and hours in that zone", async () => {
    const cursor = await feedHead();
    expect((await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), default_time_zone_id: berlin })).status).toBe(200);
    const changes = await feedAfter(cursor);
    expect(changes.find((c) => c.type === "device" && c.id === "1")?.data.tz).toBe("Europe/Berlin");
    expect(changes.find((c) => c.type === "scheduledOpen" && c.id === String(ACME))?.data.window.tz).toBe("Europe/Berlin");
    expect((await api(acme, "PUT", `${BASE}/modifyCompanySettings`, validSettings())).status).toBe(200);
  });

  it("the first save (no settings row) creates a closed week and one closed exception dated today", async () => {
    const d = db();
    await d.delete(schema.companySettings).where(eq(schema.companySettings.companyId, BETA));
    await d.delete(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, BETA));
    await d.delete(schema.scheduleOpenExceptions).where(eq(schema.scheduleOpenExceptions.companyId, BETA));
    const empty = await api(beta, "GET", `${BASE}/getCompanySettings`);
    expect(empty.body.payload.id).toBeNull();
    expect(empty.body.payload).toMatchObject(POLICY_DEFAULTS);
    expect((await api(beta, "PUT", `${BASE}/modifyScheduleOpen`, { fpi: "0", schedule_opens: week() })).status).toBe(409);

    const berlinDay = (at: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(at);
    const before = berlinDay(workerNow());
    const r = await api(beta, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), default_time_zone_id: berlin, password_reset_security: "email" });
    expect(r.status).toBe(200);
    const after = berlinDay(workerNow());
    const days = await d.select().from(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, BETA));
    expect(days.map((x) => x.day).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(days.every((x) => !x.openWholeDay && x.openTime === "" && x.closeTime === "")).toBe(true);
    // Today in the company's zone on the Worker's clock (either side of a midnight passing meanwhile).
    const exceptions = await d.select().from(schema.scheduleOpenExceptions).where(eq(schema.scheduleOpenExceptions.companyId, BETA));
    expect(exceptions).toEqual([expect.objectContaining({ openWholeDay: false })]);
    expect([before, after]).toContain(exceptions[0].date);

    // A second save keeps the schedule as it is.
    await d
      .update(schema.scheduleOpenDays)
      .set({ openWholeDay: true })
      .where(and(eq(schema.scheduleOpenDays.companyId, BETA), eq(schema.scheduleOpenDays.day, 2)));
    expect((await api(beta, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), default_time_zone_id: berlin, password_reset_security: "email" })).status).toBe(200);
    const wednesday = await d
      .select()
      .from(schema.scheduleOpenDays)
      .where(and(eq(schema.scheduleOpenDays.companyId, BETA), eq(schema.scheduleOpenDays.day, 2)));
    expect(wednesday[0].openWholeDay).toBe(true);
    expect(await d.select().from(schema.scheduleOpenExceptions).where(eq(schema.scheduleOpenExceptions.companyId, BETA))).toHaveLength(1);
  });
});

describe("PUT /settings/modifyScheduleOpen", () => {
  it("rejects bad times and dates through the core, naming the row", async () => {
    const bad = await api(acme, "PUT", `${BASE}/modifyScheduleOpen`, {
      fpi: "0",
      schedule_opens: week({ openWholeDay: true, openTime: "18:00", closeTime: "08:00" }),
      schedule_exceptions: [
        { exceptionDate: "2027-02-30", openWholeDay: false },
        { exceptionDate: "2027-03-01", openWholeDay: true, openTime: "10:00", closeTime: "" },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      "schedule_opens.0.closeTime": ["Close time must be after open time"],
      "schedule_exceptions.0.exceptionDate": ["Exception date is required or invalid"],
      "schedule_exceptions.1.closeTime": ["Open and close times are both required"],
    });
    expect(bad.body.errorCode).toBe("closeTime.notAfterOpen");
    const sixDays = await api(acme, "PUT", `${BASE}/modifyScheduleOpen`, { fpi: "0", schedule_opens: week().slice(1) });
    expect(sixDays.status).toBe(400);
    expect(sixDays.body.errors.schedule_opens).toContain("The schedule needs one row for each day, Monday to Sunday");
  });

  it("saves the rows, clears unchecked times, audits, and the gateway feed carries the new window", async () => {
    const cursor = await feedHead();
    const r = await api(acme, "PUT", `${BASE}/modifyScheduleOpen`, {
      fpi: false,
      schedule_opens: [
        ...week({ openWholeDay: true, openTime: "07:30:00", closeTime: "19:00" }).slice(0, 6),
        { scheduleDay: 6, openWholeDay: false, openTime: "09:00", closeTime: "10:00" },
      ],
      schedule_exceptions: [{ exceptionDate: "2027-01-06", openWholeDay: true, openTime: "", closeTime: "" }],
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Default Scheduled Open Changed");

    const days = await db().select().from(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, ACME));
    expect(days.find((x) => x.day === 0)).toMatchObject({ openWholeDay: true, openTime: "07:30", closeTime: "19:00" });
    expect(days.find((x) => x.day === 6)).toMatchObject({ openWholeDay: false, openTime: "", closeTime: "" });
    const exceptions = await db().select().from(schema.scheduleOpenExceptions).where(eq(schema.scheduleOpenExceptions.companyId, ACME));
    expect(exceptions).toEqual([expect.objectContaining({ date: "2027-01-06", openWholeDay: true })]);
    expect((await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) }))!.fpi).toBe(false);
    expect((await audits(ACME, "Default Scheduled Open Changed"))[0]).toMatchObject({ by: acmeAdmin });

    const change = (await feedAfter(cursor)).find((c) => c.type === "scheduledOpen");
    expect(change).toMatchObject({ op: "upsert", id: String(ACME), data: { companyId: "ACME" } });
    expect(change!.data.window).toEqual({
      kind: "scheduledOpen",
      tz: "Europe/Madrid",
      fpi: false,
      firstEntryAt: null,
      week: [{ openWholeDay: true, openTime: "07:30", closeTime: "19:00" }, ...Array(6).fill(CLOSED)],
      exceptions: [{ date: "2027-01-06", openWholeDay: true, openTime: "", closeTime: "" }],
    });
  });
});

describe("scheduled-open hours on holidays (decision 0077)", () => {
  const monday = { openWholeDay: true, openTime: "08:00", closeTime: "18:00" };
  const settingsRow = () => db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) });

  it("follow a calendar by choice: the window carries its dates, leaving the fields out keeps the choice, and ignore forgets the calendar", async () => {
    const made = await api(acme, "POST", "/api/admin/holidays/addCalendar", { name: `Scheduled open ${workerNow()}` });
    expect(made.status).toBe(200);
    const calendarId = made.body.payload.id as number;
    expect((await api(acme, "POST", "/api/admin/holidays/saveDate", { calendarId, date: "2027-01-06", name: "Reyes" })).status).toBe(200);

    const cursor = await feedHead();
    const r = await api(acme, "PUT", `${BASE}/modifyScheduleOpen`, { fpi: "0", schedule_opens: week(monday), on_holidays: "closed", holiday_calendar_id: calendarId });
    expect(r.status).toBe(200);
    expect(await settingsRow()).toMatchObject({ onHolidays: "closed", holidayCalendarId: calendarId });
    const window = (await feedAfter(cursor)).find((c) => c.type === "scheduledOpen")!.data.window;
    expect(window).toMatchObject({ onHolidays: "closed", holidays: [expect.objectContaining({ date: "2027-01-06" })] });
    const read = (await api(acme, "GET", `${BASE}/getCompanySettings`)).body.payload;
    expect(read).toMatchObject({ on_holidays: "closed", holiday_calendar_id: calendarId });

    // A client that does not know the fields keeps the company's choice.
    expect((await api(acme, "PUT", `${BASE}/modifyScheduleOpen`, { fpi: "0", schedule_opens: week(monday) })).status).toBe(200);
    expect(await settingsRow()).toMatchObject({ onHolidays: "closed", holidayCalendarId: calendarId });

    expect((await api(acme, "PUT", `${BASE}/modifyScheduleOpen`, { fpi: "0", schedule_opens: week(monday), on_holidays: "ignore", holiday_calendar_id: calendarId })).status).toBe(
      200,
    );
    expect(await settingsRow()).toMatchObject({ onHolidays: "ignore", holidayCalendarId: null });
  });

  it("refuses a choice without a calendar, another company's calendar and an unknown choice with 400, and stores nothing", async () => {
    const theirs = (await api(beta, "POST", "/api/admin/holidays/addCalendar", { name: `Beta ${workerNow()}` })).body.payload.id as number;
    const before = await settingsRow();
    for (const [body, field] of [
      [{ on_holidays: "closed" }, "holiday_calendar_id"],
      [{ on_holidays: "holidayHours", holiday_calendar_id: theirs }, "holiday_calendar_id"],
      [{ on_holidays: "sometimes", holiday_calendar_id: 1 }, "on_holidays"],
      [{ on_holidays: "closed", holiday_calendar_id: "x" }, "holiday_calendar_id"],
    ] as const) {
      const r = await api(acme, "PUT", `${BASE}/modifyScheduleOpen`, { fpi: "1", schedule_opens: week(), ...body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(r.body.errors), JSON.stringify(body)).toContain(field);
    }
    expect(await settingsRow()).toEqual(before);
  });
});

describe("fob programmers", () => {
  it("lists available and assigned, moves them on save, and audits", async () => {
    const before = await api(acme, "GET", `${BASE}/getFobProgrammers`);
    expect(before.status).toBe(200);
    expect(before.body.payload.assigned_programmers.map((p: { display_name: string }) => p.display_name)).toEqual(["Reception Programmer"]);
    expect(before.body.payload.available_programmers.map((p: { display_name: string }) => p.display_name)).toEqual(["Facilities Programmer", "Security Desk Programmer"]);
    const facilities = before.body.payload.available_programmers[0].id;

    const r = await api(acme, "PUT", `${BASE}/modifyFobProgrammers`, { fob_programmers: [facilities] });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Changed Fob Programmers");
    const after = await api(acme, "GET", `${BASE}/getFobProgrammers`);
    expect(after.body.payload.assigned_programmers).toEqual([{ id: facilities, display_name: "Facilities Programmer" }]);
    expect(after.body.payload.available_programmers).toHaveLength(2);
    expect((await audits(ACME, "Changed Fob Programmers"))[0]).toMatchObject({ by: acmeAdmin, summary: "Facilities Programmer" });
  });

  it("refuses another company's programmer with 404 and changes nothing", async () => {
    const [lab] = await db().select().from(schema.fobProgrammers).where(eq(schema.fobProgrammers.companyId, BETA));
    const before = await db().select().from(schema.fobProgrammers).orderBy(schema.fobProgrammers.id);
    const r = await api(acme, "PUT", `${BASE}/modifyFobProgrammers`, { fob_programmers: [lab.id] });
    expect(r.status).toBe(404);
    expect(await db().select().from(schema.fobProgrammers).orderBy(schema.fobProgrammers.id)).toEqual(before);
  });
});

describe("the activity log's policy", () => {
  const policyOf = async (companyId: number) => {
    const row = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, companyId) });
    return { hot: row!.activityHotDays, days: row!.activityRetentionDays, action: row!.activityRetentionAction };
  };
  const HOST = new URL(ORIGIN).host;
  /** The settings page's post as the browser sends it (`.data`), so the action's own status comes back. */
  async function postPage(cookie: string, fields: Record<string, string>) {
    const res = await consoleWorker.fetch(`${ORIGIN}/companySettings.data`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Host: HOST, Cookie: cookie, Origin: ORIGIN },
      redirect: "manual",
    });
    return { status: res.status, text: await res.text() };
  }
  /** ACME's settings as the page posts them, without the activity log's fields. */
  const pageFields = () => ({
    offlineReconnect: "12",
    scheduleOpen: "on",
    defaultTimeZoneId: String(madrid),
    ekeyDuration: "8",
    defaultCountryCode: "001",
    allowedFirmware: "Installer Only",
    passwordExpiryMonths: "0",
    biometricSecurity: "on",
    passwordResetSecurity: "admin",
    passwordResetPhone: "555-000-0003",
  });

  // Values the company-log store may act on while the file runs are long ones: nothing seeded is that old.
  it("reads the defaults (90 days at hand, kept indefinitely, delete), which saves without the fields keep", async () => {
    for (const token of [acme, beta]) expect((await api(token, "GET", `${BASE}/getCompanySettings`)).body.payload).toMatchObject(POLICY_DEFAULTS);
    expect(await policyOf(ACME)).toEqual({ hot: 90, days: null, action: "delete" });
    // Rows saved before migration 0026 take its SQL defaults; the rows above were written with drizzle's.
    const { results } = await env.DB.prepare("SELECT name, dflt_value FROM pragma_table_info('company_settings') WHERE name LIKE 'activity_%' ORDER BY cid").all();
    expect(results).toEqual([
      { name: "activity_hot_days", dflt_value: "90" },
      { name: "activity_retention_days", dflt_value: null },
      { name: "activity_retention_action", dflt_value: "'delete'" },
    ]);
  });

  it("saves the three through the API; absent keeps each, and null goes back to indefinitely", async () => {
    const r = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, {
      ...validSettings(),
      activity_hot_days: 180,
      activity_retention_days: 3650,
      activity_retention_action: "anonymise",
    });
    expect(r.status).toBe(200);
    expect(await policyOf(ACME)).toEqual({ hot: 180, days: 3650, action: "anonymise" });
    expect((await api(acme, "GET", `${BASE}/getCompanySettings`)).body.payload).toMatchObject({
      activity_hot_days: 180,
      activity_retention_days: 3650,
      activity_retention_action: "anonymise",
    });

    expect((await api(acme, "PUT", `${BASE}/modifyCompanySettings`, validSettings())).status).toBe(200);
    expect(await policyOf(ACME)).toEqual({ hot: 180, days: 3650, action: "anonymise" });
    expect((await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), activity_hot_days: 120 })).status).toBe(200);
    expect(await policyOf(ACME)).toEqual({ hot: 120, days: 3650, action: "anonymise" });

    expect((await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), activity_retention_days: null })).status).toBe(200);
    expect(await policyOf(ACME)).toEqual({ hot: 120, days: null, action: "anonymise" });
    expect((await api(acme, "GET", `${BASE}/getCompanySettings`)).body.payload.activity_retention_days).toBeNull();
  });

  it("refuses values out of range or of the wrong kind with 400 naming the range, and stores nothing", async () => {
    const before = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ activity_hot_days: 6 }, "activity_hot_days", "Choose from 7 to 180 days"],
      [{ activity_hot_days: 181 }, "activity_hot_days", "Choose from 7 to 180 days"],
      [{ activity_hot_days: 90.5 }, "activity_hot_days", "Choose from 7 to 180 days"],
      [{ activity_hot_days: "ninety" }, "activity_hot_days", "Choose from 7 to 180 days"],
      [{ activity_hot_days: null }, "activity_hot_days", "Choose from 7 to 180 days"],
      [{ activity_retention_days: 0 }, "activity_retention_days", "Choose from 1 to 3650 days"],
      [{ activity_retention_days: 3651 }, "activity_retention_days", "Choose from 1 to 3650 days"],
      [{ activity_retention_days: "forever" }, "activity_retention_days", "Choose from 1 to 3650 days"],
      [{ activity_retention_action: "archive" }, "activity_retention_action", "Choose delete or anonymise"],
      [{ activity_retention_action: 1 }, "activity_retention_action", "Choose delete or anonymise"],
    ];
    for (const [patch, field, message] of cases) {
      const r = await api(acme, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), offline_reconect: 3, ...patch });
      expect(r.status, JSON.stringify(patch)).toBe(400);
      expect(r.body, JSON.stringify(patch)).toMatchObject({ message: `${field}: ${message}`, errors: { [field]: [message] } });
    }
    expect(await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) })).toEqual(before);
  });

  it("saves through the page's form: the retention choice, the days it needs, and a post without the fields", async () => {
    // Earlier tests leave ACME's passwords expiring after 3 months: at a later clock its admin could not sign in.
    await db().update(schema.companySettings).set({ passwordExpiryMonths: 0 }).where(eq(schema.companySettings.companyId, 3));
    const cookie = await pageCookie("acme");
    const saved = await postPage(cookie, {
      ...pageFields(),
      activityHotDays: "150",
      activityRetentionMode: "days",
      activityRetentionDays: "2000",
      activityRetentionAction: "delete",
    });
    expect([200, 202, 204, 302], saved.text).toContain(saved.status);
    expect(await policyOf(ACME)).toEqual({ hot: 150, days: 2000, action: "delete" });

    // Kept indefinitely, the page posts neither the days nor the action: the action stays for later.
    expect([200, 202, 204, 302]).toContain((await postPage(cookie, { ...pageFields(), activityHotDays: "150", activityRetentionMode: "indefinitely" })).status);
    expect(await policyOf(ACME)).toEqual({ hot: 150, days: null, action: "delete" });

    const refusals: [Record<string, string>, string][] = [
      [{ activityRetentionMode: "days" }, "Choose from 1 to 3650 days"],
      [{ activityRetentionMode: "days", activityRetentionDays: "3651" }, "Choose from 1 to 3650 days"],
      [{ activityHotDays: "181" }, "Choose from 7 to 180 days"],
      [{ activityRetentionAction: "archive" }, "Choose delete or anonymise"],
    ];
    for (const [patch, message] of refusals) {
      const r = await postPage(cookie, { ...pageFields(), offlineReconnect: "3", ...patch });
      expect(r.status, JSON.stringify(patch)).toBe(400);
      expect(r.text, JSON.stringify(patch)).toContain(message);
    }
    expect(await policyOf(ACME)).toEqual({ hot: 150, days: null, action: "delete" });
    expect((await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) }))!.offlineReconnectHours).toBe(12);

    // A page loaded before these fields existed posts none of them: the stored policy stays.
    expect([200, 202, 204, 302]).toContain((await postPage(cookie, pageFields())).status);
    expect(await policyOf(ACME)).toEqual({ hot: 150, days: null, action: "delete" });
  });
});

describe("tenant isolation and permissions", () => {
  it("a save touches only the caller's company", async () => {
    const acmeBefore = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) });
    const acmeDays = await db().select().from(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, ACME));
    expect((await api(beta, "PUT", `${BASE}/modifyCompanySettings`, { ...validSettings(), offline_reconect: 3, default_time_zone_id: berlin })).status).toBe(200);
    expect((await api(beta, "PUT", `${BASE}/modifyScheduleOpen`, { fpi: "1", schedule_opens: week({ openWholeDay: true, openTime: "", closeTime: "" }) })).status).toBe(200);
    expect(await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, ACME) })).toEqual(acmeBefore);
    expect(await db().select().from(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, ACME))).toEqual(acmeDays);
    expect((await api(acme, "GET", `${BASE}/getCompanySettings`)).body.payload.offline_reconect).not.toBe(3);
  });

  it("a role without the company_settings module gets 403 on every call", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "getCompanySettings"],
      ["PUT", "modifyCompanySettings", validSettings()],
      ["PUT", "modifyScheduleOpen", { fpi: "0", schedule_opens: week() }],
      ["GET", "getFobProgrammers"],
      ["PUT", "modifyFobProgrammers", { fob_programmers: [] }],
    ];
    for (const [method, path, body] of calls) expect((await api(auditor, method, `${BASE}/${path}`, body)).status, path).toBe(403);
    expect((await api(null, "GET", `${BASE}/getCompanySettings`)).status).toBe(401);
  });
});

describe("OpenAPI", () => {
  it("documents the settings calls with the fob-programmer save path", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    for (const path of ["getCompanySettings", "modifyCompanySettings", "modifyScheduleOpen", "getFobProgrammers", "modifyFobProgrammers"]) {
      expect(Object.keys(r.body.paths)).toContain(`${BASE}/${path}`);
    }
    expect(JSON.stringify(r.body.paths[`${BASE}/modifyFobProgrammers`])).toContain("fob_programmers");
  });

  it("describes the activity log's policy with its ranges, in the body and the answer", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    const body = r.body.paths[`${BASE}/modifyCompanySettings`].put.requestBody.content["application/json"].schema;
    expect(body.required ?? []).not.toContain("activity_hot_days");
    expect(body.properties.activity_hot_days).toMatchObject({ type: "integer", minimum: 7, maximum: 180, description: expect.stringContaining("archive") });
    expect(body.properties.activity_retention_days).toMatchObject({
      minimum: 1,
      maximum: 3650,
      nullable: true,
      description: expect.stringContaining("null keeps it indefinitely"),
    });
    expect(body.properties.activity_retention_action).toMatchObject({ enum: ["delete", "anonymise"], description: expect.stringContaining("anonymise keeps them") });
    const answer = r.body.paths[`${BASE}/getCompanySettings`].get.responses["200"].content["application/json"].schema.properties.payload;
    expect(answer.required).toEqual(expect.arrayContaining(["activity_hot_days", "activity_retention_days", "activity_retention_action"]));
    expect(answer.properties.activity_retention_days).toMatchObject({ nullable: true, description: expect.stringContaining("null keeps it indefinitely") });
  });
});
