// @clock: an alert's schedule and the digest's window are read at the Worker's instant; scripts/test.sh runs this file again half an hour before the DST switch.
/**
 * The alert engine on real activity sources: audit rows written by admin API changes, events
 * posted by a gateway, and app events the phone reports through /api/mobile. Each company's log store
 * runs the engine over what reaches it: audit rows when the Worker's queue consumer drains D1's outbox
 * (a wake-up message, as a write request sends it), events on the store's alarm (run here at once, as
 * `runAlerts`). Its mail goes through the mail outbox to a real SMTP server on 127.0.0.1
 * (tests/workers/smtp-global-setup.ts). The digest flush, which waits for its window to close, is
 * run with a later `now`, as it takes its clock as an argument.
 */
import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import coreModule from "~core/core.wasm";
import { createCore } from "~core";
import { background } from "../../worker-background";
import { ACTIVITY_COLUMNS, alertActivities, DIGEST_WINDOW_MS, flushDigests, type Activity } from "../../app/services/alert-engine.server";
import { companyLogStub, type CompanyLogEnv } from "../../app/utils/company-log.server";
import { drainOutbox, MAX_ATTEMPTS } from "../../app/services/mail/outbox.server";
import { drainTexts } from "../../app/services/sms/text-outbox.server";
import { TEXT_LIMIT } from "../../app/services/sms/texts.server";
import { ownMailServer } from "./mail-server";
import type { ReceivedMail } from "./smtp-global-setup";
import { api, auditsNamed, companyLog, consoleWorker, db, fromEveryLog, login, ORIGIN, resetThrottles, schema, workerNow, textsTo } from "./helpers";

const BASE = "/api/admin/user";
const ADMIN = 3; // admin@acme.example
const AUDITOR = 5; // auditor@acme.example
const STAFF = 6; // an ACME phone user (signs in through /api/mobile below)
const { smtpPort, inboxUrl } = await ownMailServer();
const core = createCore(coreModule);

let acme: string;
let madrid: number;
let eventSeq = 0;

const inbox = async (): Promise<ReceivedMail[]> => (await fetch(inboxUrl)).json();
/** A mail's body as people read it: quoted-printable undone. */
const bodyOf = (raw: string) =>
  new TextDecoder().decode(
    Uint8Array.from(
      raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join("\n\n")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})|[\s\S]/g, (c, hex: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : c)),
      (c) => c.charCodeAt(0),
    ),
  );
const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(raw)?.[1] ?? "";

/**
 * The queue consumer's entry point with one wake-up message, then every company store's alarm work (the
 * engine over events written to it) run at once, then the mail they queued is delivered.
 */
async function wake() {
  const batch = createMessageBatch("keyless-alerts", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { wake: true } }]);
  const ctx = createExecutionContext();
  await background.queue(batch as never, env, ctx);
  await waitOnExecutionContext(ctx);
  const companies = await db().select({ id: schema.companies.id }).from(schema.companies);
  await Promise.all(companies.map(({ id }) => companyLogStub(env as unknown as CompanyLogEnv, id).runAlerts(id)));
  await delivered(workerNow() + 1);
  await drainTexts(env as never, { now: workerNow() + 1 });
}

/**
 * Drains the outbox until every queued mail has reached the SMTP server. A drain run by a
 * background wake-up (write requests send them) may hold a row meanwhile, so this waits for it.
 */
async function delivered(now: number) {
  for (let i = 0; i < 100; i++) {
    await drainOutbox(env, { limit: 100, now });
    const pending = await db()
      .select({ id: schema.mailOutbox.id })
      .from(schema.mailOutbox)
      .where(and(isNull(schema.mailOutbox.sentAt), lt(schema.mailOutbox.attempts, MAX_ATTEMPTS)));
    if (pending.length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("mail still pending");
}

async function gatewayEvents(events: { deviceId: number; type: string; at: number; data?: Record<string, unknown>; id?: string }[]) {
  const body = { v: 1, events: events.map((e) => ({ id: e.id ?? `alert-test/${++eventSeq}`, deviceId: String(e.deviceId), type: e.type, at: e.at, data: e.data ?? {} })) };
  const r = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as { accepted: number };
}

const base = () => ({
  activity: { name: "Access Denied", type: "Device", alert_conditions: "011" },
  created_by_users: [],
  target_users: [{ id: null, type: "Any User" }],
  devices: [{ id: null, type: "Any Device" }],
  schedule: "any",
  emails: ["night-watch@acme.example", { id: ADMIN, type: "User" }],
});

/** A phone session of the staff user, as the app gets one from POST /api/mobile/login. */
async function phoneSession(): Promise<string> {
  const admin = await db().query.users.findFirst({ where: eq(schema.users.id, ADMIN) });
  await db()
    .update(schema.users)
    .set({ passwordHash: admin!.passwordHash, email: "staff.phone@acme.example", boundDeviceId: null, isInactive: false, passwordChangedAt: workerNow() })
    .where(eq(schema.users.id, STAFF));
  await db().update(schema.companySettings).set({ require2fa: false, passwordExpiryMonths: 0 }).where(eq(schema.companySettings.companyId, 3));
  await resetThrottles();
  const r = await api(null, "POST", "/api/mobile/login", {
    companyId: "ACME",
    userName: "staff.phone@acme.example",
    password: "Acme#Demo2026",
    installationId: "inst-alert-engine-1",
    appVersion: "4.3.0",
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token;
}

/**
 * The event ids of an alert's matches. The matches are D1's; the rows they point at are in each
 * company's log (D1 only holds them until the queue consumer drains them), so the join is done here.
 */
async function matchedEventIds(alertId: number): Promise<(string | null)[]> {
  const matches = await db()
    .select({ activityId: schema.alertMatches.activityId, companyId: schema.alertMatches.companyId })
    .from(schema.alertMatches)
    .where(eq(schema.alertMatches.alertId, alertId));
  const eventIds = new Map<number, string | null>();
  for (const companyId of new Set(matches.map((m) => m.companyId))) {
    const ids = matches.filter((m) => m.companyId === companyId).map((m) => m.activityId);
    const rows = await companyLog(companyId)
      .select({ id: schema.activityLogs.id, eventId: schema.activityLogs.eventId })
      .from(schema.activityLogs)
      .where(inArray(schema.activityLogs.id, ids));
    for (const r of rows) eventIds.set(r.id, r.eventId);
  }
  // As the inner join did: a match whose row the log does not hold gives nothing.
  return matches.filter((m) => eventIds.has(m.activityId)).map((m) => eventIds.get(m.activityId)!);
}

/**
 * The UTC instants of Madrid's and New York's autumn clock changes in the year whose autumn is nearest
 * `now` while inside a 180-day store: last year's until 170 days after it, then this year's (ahead).
 */
function autumnChangesNear(now: number) {
  const lastSundayOfOctober = (y: number) => {
    const d = new Date(Date.UTC(y, 9, 31, 1));
    return d.getTime() - d.getUTCDay() * 86_400_000;
  };
  const firstSundayOfNovember = (y: number) => {
    const d = new Date(Date.UTC(y, 10, 1, 6));
    return d.getTime() + ((7 - d.getUTCDay()) % 7) * 86_400_000;
  };
  const thisYear = new Date(now).getUTCFullYear();
  const year = lastSundayOfOctober(thisYear - 1) + 170 * 86_400_000 >= now ? thisYear - 1 : thisYear;
  return { madridChange: lastSundayOfOctober(year), newYorkChange: firstSundayOfNovember(year) };
}

async function addAlert(body: Record<string, unknown>): Promise<number> {
  const r = await api(acme, "POST", `${BASE}/addAlert`, { ...base(), ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.payload.id;
}

beforeAll(async () => {
  acme = await login("acme");
  madrid = (await db().query.timeZones.findFirst({ where: eq(schema.timeZones.name, "Europe/Madrid") }))!.id;
  await db().update(schema.mailerConfigs).set({ hostName: "127.0.0.1", port: smtpPort });
  // The last autumn clock changes stay in ACME's store (decision 0049): the checks read the matched entries there.
  await db().update(schema.companySettings).set({ activityHotDays: 180 }).where(eq(schema.companySettings.companyId, 3));
  // The demo's own alerts stay out of the counts.
  await db().update(schema.alerts).set({ deletedAt: 1 });
  await wake(); // what signing in wrote reaches the stores before any alert exists
});

beforeEach(async () => {
  // Each test's alerts only: earlier ones are deleted, earlier mail forgotten.
  await wake();
  await db().update(schema.alerts).set({ deletedAt: 1 });
  await db().delete(schema.mailOutbox);
  await fetch(inboxUrl, { method: "DELETE" });
});

describe("alert engine", () => {
  it("fires once for a matching console change: one mail per recipient, last run linked", async () => {
    const id = await addAlert({
      displayName: "Who edits alerts",
      activity: { name: "Alert Modified" },
      target_users: [],
      devices: [],
      created_by_users: [{ id: ADMIN, type: "User" }],
    });
    await wake();
    await fetch(inboxUrl, { method: "DELETE" });
    const r = await api(acme, "POST", `${BASE}/modifyAlert`, { ...base(), id, displayName: "Who edits alerts", activity: { name: "Alert Modified" }, created_by_users: [ADMIN] });
    expect(r.status).toBe(200);
    await wake();
    await wake(); // a second wake-up finds nothing new
    const mail = await inbox();
    expect(mail.map((m) => m.to[0]).sort()).toEqual(["admin@acme.example", "night-watch@acme.example"]);
    expect(subjectOf(mail[0].raw)).toBe("Alert: Who edits alerts");
    const modified = (await db().query.activityTypes.findFirst({ where: eq(schema.activityTypes.name, "Alert Modified") }))!.id;
    const [audit] = await fromEveryLog((log) => log.select({ id: schema.activityLogs.id }).from(schema.activityLogs).where(eq(schema.activityLogs.activityTypeId, modified)));
    const alert = await db().query.alerts.findFirst({ where: eq(schema.alerts.id, id) });
    expect(alert?.lastActivityId).toBe(audit.id);
    const list = (await api(acme, "GET", `${BASE}/getAlerts`)).body.payload.find((x: { id: number }) => x.id === id);
    expect(list.lastActivityID).toBe(audit.id);
  });

  it("fires once for a gateway event, and a re-sent batch or a re-read activity sends nothing more", async () => {
    const id = await addAlert({ displayName: "Denied at door 2", devices: [{ id: 2 }] });
    const event = { id: "alert-test/denied-once", deviceId: 2, type: "access.denied", at: workerNow(), data: { reason: "no key" } };
    expect((await gatewayEvents([event])).accepted).toBe(1);
    await wake();
    expect((await gatewayEvents([event])).accepted).toBe(0); // the gateway retries the same event
    await wake();
    // The engine reads the activity again (a store that crashed after the commit, before forgetting the
    // arrival): the unique keys still send nothing twice.
    const [stored] = await fromEveryLog((log) =>
      log.select({ id: schema.activityLogs.id, companyId: schema.activityLogs.companyId }).from(schema.activityLogs).where(eq(schema.activityLogs.eventId, event.id)),
    );
    const [again] = (await companyLogStub(env as unknown as CompanyLogEnv, stored.companyId).query(stored.companyId, {
      sql: `SELECT ${ACTIVITY_COLUMNS.join(", ")} FROM activity_logs WHERE id = ?`,
      params: [stored.id],
      method: "all",
    })) as unknown[][];
    const activity = Object.fromEntries(ACTIVITY_COLUMNS.map((c, i) => [c.split(" AS ").pop()!, again[i]])) as Activity;
    expect(await alertActivities(db(), core, [activity], { now: workerNow(), origin: ORIGIN })).toMatchObject({ read: 1 });
    await wake();
    const mail = await inbox();
    expect(mail).toHaveLength(2);
    expect(mail.map((m) => m.to[0]).sort()).toEqual(["admin@acme.example", "night-watch@acme.example"]);
    expect(mail[0].raw).toContain("Access Denied");
    const matches = await db().select().from(schema.alertMatches).where(eq(schema.alertMatches.alertId, id));
    expect(matches).toHaveLength(1);
    expect((await db().query.alerts.findFirst({ where: eq(schema.alerts.id, id) }))?.lastActivityId).toBe(matches[0].activityId);
  });

  it("does not fire outside its schedule across the spring DST change in Madrid", async () => {
    // 01:00-02:30 Madrid on Sunday 2027-03-28; at 02:00 local the clocks jump to 03:00 (UTC+1 to UTC+2).
    const id = await addAlert({
      displayName: "Early Sunday",
      devices: [{ id: 4 }],
      schedule: "custom",
      startDate: "2027-03-28",
      isNeverEnd: "1",
      ...{ mon: "0", tue: "0", wed: "0", thu: "0", fri: "0", sat: "0", sun: "1" },
      isAllDay: "0",
      startTime: "01:00:00",
      endTime: "02:30:00",
      zone: madrid,
    });
    await gatewayEvents([
      { deviceId: 4, type: "access.denied", at: Date.parse("2027-03-28T00:45:00Z"), id: "alert-test/dst-inside" }, // 01:45 CET: inside
      { deviceId: 4, type: "access.denied", at: Date.parse("2027-03-28T01:15:00Z"), id: "alert-test/dst-after" }, // 03:15 CEST: outside (a fixed +1 would say 02:15)
      { deviceId: 4, type: "access.denied", at: Date.parse("2027-03-27T00:45:00Z"), id: "alert-test/dst-saturday" }, // Saturday: outside
    ]);
    await wake();
    expect(await matchedEventIds(id)).toEqual(["alert-test/dst-inside"]);
    const mail = await inbox();
    expect(mail).toHaveLength(2); // the one inside, to each recipient
    expect(mail.every((m) => m.raw.includes("01:45"))).toBe(true);
  });

  it("fires in both passes of the repeated hour when the clocks go back, in Madrid and New York", async () => {
    // The autumn change nearest the run's clock that the store still holds (its window is 180 days here):
    // Madrid's last Sunday of October, 03:00 CEST (UTC+2) becomes 02:00 CET (UTC+1) at 01:00Z; New York's
    // first Sunday of November, 02:00 EDT (UTC-4) becomes 01:00 EST (UTC-5) at 06:00Z. An autumn still ahead
    // of the clock is fine: the engine matches an event by its own time.
    const { madridChange, newYorkChange } = autumnChangesNear(workerNow());
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const min = 60_000;
    // Each alert covers that Sunday only; the names give the local time of each event.
    const newYork = (await db().query.timeZones.findFirst({ where: eq(schema.timeZones.name, "America/New_York") }))!.id;
    const events: Record<string, number> = {
      "mad-0145-cest": madridChange - 75 * min,
      "mad-0215-cest": madridChange - 45 * min,
      "mad-0245-cest": madridChange - 15 * min,
      "mad-0215-cet": madridChange + 15 * min,
      "mad-0245-cet": madridChange + 45 * min,
      "mad-0300-cet": madridChange + 60 * min,
      "mad-2345-cet": madridChange + (21 * 60 + 45) * min,
      "mad-mon-0000": madridChange + 22 * 60 * min,
      "ny-0145-edt": newYorkChange - 15 * min,
      "ny-0115-est": newYorkChange + 15 * min,
      "ny-0145-est": newYorkChange + 45 * min,
      "ny-0215-est": newYorkChange + 75 * min,
      "ny-0245-est": newYorkChange + 105 * min,
      "ny-2345-est": newYorkChange + (22 * 60 + 45) * min,
      "ny-mon-0000": newYorkChange + 23 * 60 * min,
    };
    const [madridSunday, newYorkSunday] = [day(madridChange), day(newYorkChange)];
    const table: { zone: number; date: string; hours: [string, string] | "all day"; fires: string[] }[] = [
      { zone: madrid, date: madridSunday, hours: ["02:00", "03:00"], fires: ["mad-0215-cest", "mad-0245-cest", "mad-0215-cet", "mad-0245-cet"] },
      { zone: madrid, date: madridSunday, hours: ["01:30", "02:30"], fires: ["mad-0145-cest", "mad-0215-cest", "mad-0215-cet"] },
      {
        zone: madrid,
        date: madridSunday,
        hours: "all day",
        fires: ["mad-0145-cest", "mad-0215-cest", "mad-0245-cest", "mad-0215-cet", "mad-0245-cet", "mad-0300-cet", "mad-2345-cet"],
      },
      { zone: newYork, date: newYorkSunday, hours: ["02:00", "03:00"], fires: ["ny-0215-est", "ny-0245-est"] },
      { zone: newYork, date: newYorkSunday, hours: ["01:30", "02:30"], fires: ["ny-0145-edt", "ny-0145-est", "ny-0215-est"] },
      { zone: newYork, date: newYorkSunday, hours: "all day", fires: ["ny-0145-edt", "ny-0115-est", "ny-0145-est", "ny-0215-est", "ny-0245-est", "ny-2345-est"] },
    ];
    const ids: number[] = [];
    for (const [i, row] of table.entries()) {
      const allDay = row.hours === "all day";
      ids.push(
        await addAlert({
          displayName: `Autumn change ${i + 1}`,
          devices: [{ id: 4 }],
          emails: ["night-watch@acme.example"],
          schedule: "custom",
          startDate: row.date,
          endDate: row.date,
          isNeverEnd: "0",
          ...{ mon: "0", tue: "0", wed: "0", thu: "0", fri: "0", sat: "0", sun: "1" },
          isAllDay: allDay ? "1" : "0",
          startTime: allDay ? "" : `${row.hours[0]}:00`,
          endTime: allDay ? "" : `${row.hours[1]}:00`,
          zone: row.zone,
        }),
      );
    }
    await gatewayEvents(Object.entries(events).map(([name, at]) => ({ deviceId: 4, type: "access.denied", at, id: `alert-test/autumn/${name}` })));
    await wake();
    for (const [i, row] of table.entries()) {
      const matched = await matchedEventIds(ids[i]);
      expect(matched.map((x) => x!.replace("alert-test/autumn/", "")).sort(), `alert ${i + 1}`).toEqual([...row.fires].sort());
    }
    // Each alert mails its first match at once (the rest wait for the digest), at the company's local time
    // (ACME: Madrid) with the zone in force then: summer time before the change, winter time after it.
    const mail = await inbox();
    expect(mail).toHaveLength(table.length);
    const year = madridSunday.slice(0, 4);
    expect(mail.some((m) => m.raw.includes(`Oct ${Number(madridSunday.slice(8))}, ${year}, 01:45 CEST`))).toBe(true);
    expect(mail.some((m) => m.raw.includes(`Nov ${Number(newYorkSunday.slice(8))}, ${year}, 06:45 CET`))).toBe(true);
  });

  it("does not fire for a user outside its conditions", async () => {
    await addAlert({ displayName: "Admin denied", target_users: [{ id: ADMIN, type: "User" }], devices: [{ id: 6 }], emails: ["night-watch@acme.example"] });
    await gatewayEvents([{ deviceId: 6, type: "access.denied", at: workerNow(), data: { userId: String(AUDITOR) }, id: "alert-test/auditor-denied" }]);
    await gatewayEvents([{ deviceId: 7, type: "access.denied", at: workerNow(), data: { userId: String(ADMIN) }, id: "alert-test/other-door" }]);
    await wake();
    expect(await inbox()).toHaveLength(0);
    await gatewayEvents([{ deviceId: 6, type: "access.denied", at: workerNow(), data: { userId: String(ADMIN) }, id: "alert-test/admin-denied" }]);
    await wake();
    const mail = await inbox();
    expect(mail).toHaveLength(1);
    expect(mail[0].to).toEqual(["night-watch@acme.example"]);
  });

  it("turns a burst of 500 denied accesses into digests, not 500 mails per recipient", async () => {
    const id = await addAlert({ displayName: "Denied storm", devices: [{ id: 8 }] });
    const t0 = workerNow();
    const events = Array.from({ length: 500 }, (_, i) => ({ deviceId: 8, type: "access.denied", at: t0 + i * 100, id: `alert-test/storm-${i}` }));
    for (let i = 0; i < events.length; i += 250) expect((await gatewayEvents(events.slice(i, i + 250))).accepted).toBe(250);
    await wake();
    await wake();
    const first = await inbox();
    expect(first).toHaveLength(2); // one per recipient
    const firstCount = Number(/\((\d+) activities\)/.exec(subjectOf(first[0].raw))?.[1]);
    expect(firstCount).toBeGreaterThan(1);
    // The window closes: what was held leaves as one digest per recipient.
    const later = workerNow() + DIGEST_WINDOW_MS + 1000;
    await flushDigests(db(), env as unknown as CompanyLogEnv, core, { now: later, origin: ORIGIN });
    await delivered(later);
    const all = await inbox();
    expect(all).toHaveLength(4);
    const digest = all.filter((m) => !first.some((f) => f.raw === m.raw));
    const digestCount = Number(/\((\d+) activities\)/.exec(subjectOf(digest[0].raw))?.[1]);
    expect(firstCount + digestCount).toBe(500);
    const states = await db().select({ state: schema.alertMatches.state }).from(schema.alertMatches).where(eq(schema.alertMatches.alertId, id));
    expect(states).toHaveLength(500);
    expect(states.filter((s) => s.state === "held")).toHaveLength(0);
    // Running again later sends nothing more.
    await flushDigests(db(), env as unknown as CompanyLogEnv, core, { now: later + DIGEST_WINDOW_MS * 2, origin: ORIGIN });
    await delivered(later + DIGEST_WINDOW_MS * 2);
    expect(await inbox()).toHaveLength(4);
  });

  it("fires once for app events from the phone (/api/mobile), even when the phone repeats its report", async () => {
    const phone = await phoneSession();
    const denied = await addAlert({
      displayName: "App denied at door 5",
      activity: { name: "App Access Denied" },
      target_users: [{ id: STAFF, type: "User" }],
      devices: [{ id: 5 }],
    });
    const ticket = await addAlert({ displayName: "Phone asked for help", activity: { name: "Support Ticket Created" }, devices: [], target_users: [{ id: STAFF, type: "User" }] });
    const report = { events: [{ eventId: "alert-engine-app-1", type: "unlock", deviceId: 5, allowed: false, reason: "no_key", at: workerNow() }] };
    const first = await api(`Bearer ${phone}`, "POST", "/api/mobile/activity", report);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.payload.accepted).toBe(1);
    const opened = await api(`Bearer ${phone}`, "POST", "/api/mobile/support/createTicket", { brand: "Nokia", latitude: 40.4, longitude: -3.7 });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    await wake();
    // The phone repeats its report (a lost answer): nothing is stored again and nothing is mailed again.
    expect((await api(`Bearer ${phone}`, "POST", "/api/mobile/activity", report)).body.payload.accepted).toBe(0);
    await wake();
    const mail = await inbox();
    expect(mail).toHaveLength(4); // two alerts, two recipients each
    const bySubject = (s: string) =>
      mail
        .filter((m) => subjectOf(m.raw) === s)
        .map((m) => m.to[0])
        .sort();
    expect(bySubject("Alert: App denied at door 5")).toEqual(["admin@acme.example", "night-watch@acme.example"]);
    expect(bySubject("Alert: Phone asked for help")).toEqual(["admin@acme.example", "night-watch@acme.example"]);
    const matches = async (alertId: number) => db().select().from(schema.alertMatches).where(eq(schema.alertMatches.alertId, alertId));
    expect(await matches(denied)).toHaveLength(1);
    expect(await matches(ticket)).toHaveLength(1);
    expect((await db().query.alerts.findFirst({ where: eq(schema.alerts.id, ticket) }))?.lastActivityId).toBe((await matches(ticket))[0].activityId);
  });

  it("fires for any of its activities: one alert for access denied or door forced, not for a door opened", async () => {
    const id = await addAlert({
      displayName: "Denied or forced",
      activity: undefined,
      activities: [{ name: "Access Denied" }, { name: "Door Forced Open" }],
      devices: [{ id: 3 }],
    });
    await gatewayEvents([
      { deviceId: 3, type: "access.denied", at: workerNow(), id: "alert-test/several-denied" },
      { deviceId: 3, type: "door.forced", at: workerNow() + 1, id: "alert-test/several-forced" },
      { deviceId: 3, type: "door.opened", at: workerNow() + 2, id: "alert-test/several-opened" },
    ]);
    await wake();
    expect((await matchedEventIds(id)).sort()).toEqual(["alert-test/several-denied", "alert-test/several-forced"]);
    // Both in one page: one mail per recipient listing the two.
    const mail = await inbox();
    expect(mail).toHaveLength(2);
    expect(subjectOf(mail[0].raw)).toBe("Alert: Denied or forced (2 activities)");
    expect(bodyOf(mail[0].raw)).toMatch(/Access Denied at [^\n]+\n[^\n]*Door Forced Open at /);
  });

  it("mails in the alert's language, naming the door and giving the company's local time with its zone", async () => {
    const door = (await db().query.devices.findFirst({ where: eq(schema.devices.id, 2) }))!;
    expect(door.fullName).not.toBe(door.displayName);
    const r = await api(acme, "POST", `${BASE}/addAlert`, { ...base(), displayName: "Puerta 2", devices: [{ id: 2 }], emails: ["guardia@acme.example"], language: "es" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await addAlert({ displayName: "Door 2", devices: [{ id: 2 }], emails: ["guard@acme.example"] });
    // 13:05 UTC on 27 November 2026 is 14:05 in Madrid (CET), ACME's zone.
    await gatewayEvents([{ deviceId: 2, type: "access.denied", at: Date.parse("2026-11-27T13:05:00Z"), id: "alert-test/door-name" }]);
    await wake();
    const mail = await inbox();
    const es = bodyOf(mail.find((m) => m.to[0] === "guardia@acme.example")!.raw);
    const en = bodyOf(mail.find((m) => m.to[0] === "guard@acme.example")!.raw);
    expect(es).toContain(`27/11/2026 14:05 CET  Acceso denegado en ${door.fullName}`);
    expect(es).toContain("La alerta «Puerta 2» se ha disparado.");
    expect(en).toContain(`Nov 27, 2026, 14:05 CET  Access Denied at ${door.fullName}`);
    for (const body of [es, en]) {
      expect(body).not.toMatch(new RegExp(`(at|en) ${door.displayName}\\b`));
      expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    }
  });

  describe("by text message (decision 0073)", () => {
    /** An active ACME staff user (the n-th, n the number's last two digits) given `phone`: the numbers are this test's own. */
    async function staffWithPhone(phone: string): Promise<number> {
      const n = phone.slice(-2);
      const [user] = await db()
        .select({ id: schema.users.id })
        .from(schema.users)
        .where(and(eq(schema.users.companyId, 3), eq(schema.users.isInactive, false), isNull(schema.users.deletedAt), gt(schema.users.id, STAFF)))
        .orderBy(schema.users.id)
        .limit(1)
        .offset(Number(n));
      await db()
        .update(schema.users)
        .set({ phoneNumber: phone, email: `texted${n}@acme.example` })
        .where(eq(schema.users.id, user.id));
      return user.id;
    }
    const allowTexts = (on: boolean) => db().update(schema.companySettings).set({ alertTexts: on }).where(eq(schema.companySettings.companyId, 3));
    const notDelivered = async (userId: number) => (await auditsNamed("Text Message Not Delivered")).filter((x) => x.targetUserId === userId).map((x) => x.summary);

    it("texts the mail's subject line in the alert's language to each user who chose texts, once, at the user's own number", async () => {
      await allowTexts(true);
      const [texted, both] = [await staffWithPhone("+15557730001"), await staffWithPhone("+15557730002")];
      const r = await api(acme, "POST", `${BASE}/addAlert`, {
        ...base(),
        displayName: "Puerta 5 por SMS",
        devices: [{ id: 5 }],
        emails: ["night-watch@acme.example", { id: texted, type: "User", channel: "text" }, { id: both, type: "User", channel: "both" }],
        language: "es",
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const event = { id: "alert-test/texted", deviceId: 5, type: "access.denied", at: workerNow() };
      await gatewayEvents([event]);
      await wake();
      await gatewayEvents([event]); // the gateway re-sends: nothing more
      await wake();
      expect(await textsTo("+15557730001")).toEqual([expect.objectContaining({ body: "Alerta: Puerta 5 por SMS" })]);
      expect(await textsTo("+15557730002")).toEqual([expect.objectContaining({ body: "Alerta: Puerta 5 por SMS" })]);
      // Text only: no mail; both: mail too.
      expect((await inbox()).map((m) => m.to[0]).sort()).toEqual(["night-watch@acme.example", "texted02@acme.example"]);
      expect(await notDelivered(texted)).toEqual([]);
    });

    it("mails instead once the company no longer allows texts", async () => {
      await allowTexts(true);
      const user = await staffWithPhone("+15557730003");
      await addAlert({ displayName: "Door 6 by text", devices: [{ id: 6 }], emails: [{ id: user, type: "User", channel: "text" }] });
      await allowTexts(false);
      await gatewayEvents([{ deviceId: 6, type: "access.denied", at: workerNow(), id: "alert-test/texts-off" }]);
      await wake();
      expect(await textsTo("+15557730003")).toEqual([]);
      expect((await inbox()).map((m) => m.to[0])).toEqual(["texted03@acme.example"]);
    });

    it("writes a refused or rate-limited text to the activity log as 'Text Message Not Delivered', as the sender does", async () => {
      await allowTexts(true);
      // The sink refuses numbers under +999 as a provider refuses an unusable one.
      const [refused, limited] = [await staffWithPhone("+99955573004"), await staffWithPhone("+15557730005")];
      // The user's alert texts for the hour are spent (the counter `sendText` keeps, set as if they had been sent).
      await db()
        .insert(schema.loginThrottles)
        .values({ key: `sms:alerts:user:${limited}`, failures: TEXT_LIMIT.perUser, windowStart: workerNow() })
        .onConflictDoUpdate({ target: schema.loginThrottles.key, set: { failures: TEXT_LIMIT.perUser, windowStart: workerNow() } });
      await addAlert({
        displayName: "Door 7 by text",
        devices: [{ id: 7 }],
        emails: [
          { id: refused, type: "User", channel: "text" },
          { id: limited, type: "User", channel: "text" },
        ],
      });
      await gatewayEvents([{ deviceId: 7, type: "access.denied", at: workerNow(), id: "alert-test/texts-refused" }]);
      await wake();
      await wake(); // the log rows written by the drain reach the company's log
      expect(await textsTo("+15557730005")).toEqual([]);
      expect(await notDelivered(refused)).toEqual([expect.stringMatching(/^alert "Door 7 by text" to …3004: the text-message provider refused the message \(400\)/)]);
      expect(await notDelivered(limited)).toEqual(['alert "Door 7 by text" to …0005: the user\'s hourly text limit is reached']);
      // Alert texts have their own per-user count: the user's sign-in and reset codes are not held back by them.
      const codes = await db().query.loginThrottles.findFirst({ where: eq(schema.loginThrottles.key, `sms:user:${limited}`) });
      expect(codes).toBeUndefined();
    });
  });

  it("follows a holiday calendar by choice: not on holidays stays silent on the holiday and fires the next day; ignore fires on it (decision 0077)", async () => {
    // Wednesday 2027-01-06 (Reyes) is a whole holiday of the calendar; fixed instants, 12:00 in Madrid.
    const made = await api(acme, "POST", "/api/admin/holidays/addCalendar", { name: `Alert holidays ${workerNow()}` });
    expect(made.status).toBe(200);
    const calendarId = made.body.payload.id as number;
    expect((await api(acme, "POST", "/api/admin/holidays/saveDate", { calendarId, date: "2027-01-06", name: "Reyes" })).status).toBe(200);
    const everyDay = { schedule: "custom", startDate: "2027-01-01", isNeverEnd: "1", days: "1111111", isAllDay: "1", zone: madrid, devices: [{ id: 11 }] };
    const closed = await addAlert({ ...everyDay, displayName: "Door 11, not on holidays", on_holidays: "closed", holiday_calendar_id: calendarId });
    const ignore = await addAlert({ ...everyDay, displayName: "Door 11, holidays as any day", on_holidays: "ignore" });
    await gatewayEvents([
      { deviceId: 11, type: "access.denied", at: Date.parse("2027-01-06T11:00:00Z"), id: "alert-test/on-the-holiday" },
      { deviceId: 11, type: "access.denied", at: Date.parse("2027-01-07T11:00:00Z"), id: "alert-test/the-day-after" },
    ]);
    await wake();
    expect(await matchedEventIds(closed)).toEqual(["alert-test/the-day-after"]);
    expect((await matchedEventIds(ignore)).sort()).toEqual(["alert-test/on-the-holiday", "alert-test/the-day-after"]);
    // The closed alert's own mail names the day after only; the other lists both in a digest.
    const mail = await inbox();
    const of = (name: string) => mail.filter((m) => subjectOf(m.raw).includes(name));
    expect(of("Door 11, not on holidays")).toHaveLength(2);
    expect(of("Door 11, not on holidays").every((m) => bodyOf(m.raw).includes("activityDetails"))).toBe(true);
    expect(of("Door 11, holidays as any day")).toHaveLength(2);
  });

  it("stops firing once the alert is deleted", async () => {
    const id = await addAlert({ displayName: "Gone", devices: [{ id: 9 }] });
    expect((await api(acme, "DELETE", `${BASE}/deleteAlert?id=${id}`)).status).toBe(200);
    await gatewayEvents([{ deviceId: 9, type: "access.denied", at: workerNow(), id: "alert-test/after-delete" }]);
    await wake();
    expect(await inbox()).toHaveLength(0);
  });
});

describe("alerts on a lockdown (issue 31)", () => {
  it("mails once when a lockdown starts, naming the alert", async () => {
    await addAlert({ displayName: "Lockdown watch", activity: { name: "Lockdown Started" }, target_users: [], devices: [], created_by_users: [{ id: ADMIN, type: "User" }] });
    await wake();
    const plan = await api(acme, "POST", "/api/admin/lockdown/plans", { name: `Alerted ${workerNow()}`, mode: "lockdown", scope: "doors", scope_ids: [2] });
    expect(plan.status).toBe(200);
    expect((await api(acme, "POST", `/api/admin/lockdown/plans/${plan.body.payload.id}/start`)).status).toBe(200);
    expect((await api(acme, "POST", "/api/admin/lockdown/end")).status).toBe(200);
    await wake();
    await wake(); // nothing more on a second wake-up
    const mail = await inbox();
    expect(mail.map((m) => m.to[0]).sort()).toEqual(["admin@acme.example", "night-watch@acme.example"]);
    expect(subjectOf(mail[0].raw)).toBe("Alert: Lockdown watch");
  });
});
