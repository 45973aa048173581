/**
 * Alerts: list, details, add, modify, delete, the test mail and the sentinel feed of firings.
 * The activity module gates them (spec part 1 §6). Matching activity against alerts is the
 * engine's job (`alert-engine.server.ts`); this file only keeps the definitions.
 */
import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Core } from "~core";
import {
  ALERT_MSG,
  CONDITION_FIELDS,
  CONDITION_MSG,
  type ActivityRef,
  type AddAlertInput,
  type AlertTestEmailInput,
  type ModifyAlertInput,
  type Recipient,
} from "~/schemas/alerts";
import { HOLIDAY_MSG } from "~/schemas/holidays";
import { weekBits } from "~/schemas/week";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import type { LogDb } from "~/utils/company-log.server";
import { inChunks, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { can } from "~/utils/permissions";
import { inCompany, liveInCompany } from "~/utils/tenant.server";
import { AUDIENCES } from "./alert-pickers.server";
import { alertWindow } from "./alert-window";
import { isE164 } from "~/utils/phone";

const {
  alerts: a,
  alertActivityTypes: aat,
  alertTargets: t,
  alertRecipients: r,
  companySettings: cs,
  activityTypes: at,
  activityLogs: l,
  users: u,
  devices: d,
  timeZones: tz,
  mailOutbox: o,
  alertMatches: m,
  holidayCalendars: hc,
} = schema;
const MODULE = "activity";
const TARGET_KIND = { createdBy: "created_by", targetUsers: "target_user", devices: "device" } as const;

/** `activityNames`: every activity the alert fires for, the first one (`activityName`) first. */
export type AlertListRow = { id: number; name: string; activityName: string; activityNames: string[]; lastActivityId: number | null; lastRunAt: number | null };

export async function listAlerts(db: Db, auth: Auth, o: { offset: number; pageSize: number }): Promise<{ rows: AlertListRow[]; total: number }> {
  assertCan(auth, MODULE);
  const where = liveInCompany(a, auth);
  // Two reads, not a batch: a batch keys columns by name, and both tables have a `name`.
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ id: a.id, name: a.name, activityName: at.name, lastActivityId: a.lastActivityId, lastRunAt: a.lastRunAt })
      .from(a)
      .innerJoin(at, eq(at.id, a.activityTypeId))
      .where(where)
      .orderBy(asc(a.name), asc(a.id))
      .limit(o.pageSize)
      .offset(o.offset),
    db.select({ total: count() }).from(a).where(where),
  ]);
  const names = await activityNamesOf(
    db,
    auth,
    rows.map((x) => x.id),
  );
  return { rows: rows.map((x) => ({ ...x, activityNames: orderedNames(x.activityName, names.get(x.id)) })), total };
}

/** The first activity, then the others by name. */
const orderedNames = (first: string, all: string[] = []) => [first, ...all.filter((n) => n !== first)];

/** Each alert's activities, by name. */
async function activityNamesOf(db: Db, auth: Auth, ids: number[]): Promise<Map<number, string[]>> {
  const rows = await inChunks(ids, (part) =>
    db
      .select({ alertId: aat.alertId, name: at.name })
      .from(aat)
      .innerJoin(at, eq(at.id, aat.activityTypeId))
      .where(and(eq(aat.companyId, auth.company.id), inArray(aat.alertId, part)))
      .orderBy(asc(at.name)),
  );
  const out = new Map<number, string[]>();
  for (const x of rows) (out.get(x.alertId) ?? out.set(x.alertId, []).get(x.alertId)!).push(x.name);
  return out;
}

/** Every live alert of the company (the API's getAlerts). */
export async function allAlerts(db: Db, auth: Auth): Promise<AlertListRow[]> {
  return (await listAlerts(db, auth, { offset: 0, pageSize: 10_000 })).rows;
}

export async function getAlertDetails(db: Db, auth: Auth, id: number) {
  assertCan(auth, MODULE);
  const [alert] = await db
    .select({ alert: a, activity: { id: at.id, name: at.name, type: at.type, alertConditions: at.alertConditions }, zone: { id: tz.id, name: tz.name, label: tz.label } })
    .from(a)
    .innerJoin(at, eq(at.id, a.activityTypeId))
    .leftJoin(tz, eq(tz.id, a.timeZoneId))
    .where(liveInCompany(a, auth, eq(a.id, id)))
    .limit(1);
  if (!alert) notFound(ALERT_MSG.notFound);
  // Not a batch: user and device names share a column name, which a batch's rows are keyed by.
  const [targets, recipients, activities] = await Promise.all([
    db
      .select({ kind: t.kind, refId: t.refId, userName: u.displayName, userEmail: u.email, deviceName: d.displayName })
      .from(t)
      .leftJoin(u, and(sql`${t.kind} != 'device'`, eq(u.id, t.refId)))
      .leftJoin(d, and(eq(t.kind, "device"), eq(d.id, t.refId)))
      .where(and(eq(t.alertId, id), eq(t.companyId, auth.company.id)))
      .orderBy(asc(t.id)),
    db
      .select({ userId: r.userId, email: r.email, channel: r.channel, name: u.displayName })
      .from(r)
      .leftJoin(u, eq(u.id, r.userId))
      .where(and(eq(r.alertId, id), eq(r.companyId, auth.company.id)))
      .orderBy(asc(r.id)),
    db
      .select({ id: at.id, name: at.name, type: at.type, alertConditions: at.alertConditions })
      .from(aat)
      .innerJoin(at, eq(at.id, aat.activityTypeId))
      .where(and(eq(aat.alertId, id), eq(aat.companyId, auth.company.id)))
      .orderBy(asc(at.name)),
  ]);
  // The first activity first, as the list and the spec's single `activity` field give it.
  return { ...alert, activities: [alert.activity, ...activities.filter((x) => x.id !== alert.activity.id)], targets, recipients };
}
export type AlertDetails = Awaited<ReturnType<typeof getAlertDetails>>;

type AlertInput = AddAlertInput | ModifyAlertInput;

const fieldError = (field: string, message: string, status: 400 | 404 = 400): never => {
  throw new ServiceError(status, message, { fieldErrors: { [field]: [message] } });
};

/** The pickers the activities' conditions ask for (position 1 created-by, 2 target users, 3 devices) and the alert leaves empty, all at once. */
function missingConditions(conditions: string, input: AlertInput) {
  const missing = CONDITION_FIELDS.filter((f, i) => conditions[i] === "1" && input[f].length === 0);
  if (missing.length) throw new ServiceError(400, CONDITION_MSG[missing[0]], { fieldErrors: Object.fromEntries(missing.map((f) => [f, [CONDITION_MSG[f]]])) });
}

/**
 * The alert's activities from the catalogue, the first picked first. An unknown one is refused as a
 * missing activity; one the company can never have (a platform event) is refused by name.
 */
async function resolveActivities(db: Db, auth: Auth, refs: ActivityRef[]) {
  const ids = refs.flatMap((x) => (x.id ? [x.id] : []));
  const names = refs.flatMap((x) => (!x.id && x.name ? [x.name] : []));
  const found = await db
    .select({ id: at.id, name: at.name, alertConditions: at.alertConditions, audience: at.audience })
    .from(at)
    .where(sql`${ids.length ? inArray(at.id, ids) : sql`0`} OR ${names.length ? inArray(at.name, names) : sql`0`}`);
  const byRef = refs.map((x) => found.find((f) => (x.id ? f.id === x.id : f.name === x.name)));
  if (byRef.some((x) => !x)) return fieldError("activities", ALERT_MSG.activity);
  const activities = [...new Map(byRef.map((x) => [x!.id, x!])).values()];
  if (activities.some((x) => !AUDIENCES[auth.company.type].includes(x.audience))) return fieldError("activities", ALERT_MSG.activityNotForCompany);
  // A picker counts when any of the activities asks for it.
  const conditions = [0, 1, 2].map((i) => (activities.some((x) => x.alertConditions[i] === "1") ? "1" : "0")).join("");
  return { activities, conditions };
}

/** Checks everything the schema cannot: the activities and their conditions, the zone and window (core), and that every id is the company's. */
async function resolve(db: Db, auth: Auth, input: AlertInput, core: Core) {
  const { activities, conditions } = await resolveActivities(db, auth, input.activities);
  missingConditions(conditions, input);

  let zoneName: string | null = null;
  if (input.schedule === "custom") {
    const zone = await db.query.timeZones.findFirst({ where: eq(tz.id, input.timeZoneId!) });
    if (!zone) return fieldError("timeZoneId", ALERT_MSG.zone);
    zoneName = zone.name;
    const errors = core.validate(alertWindow({ ...values(input, activities[0].id), zoneName }));
    if (errors.length) {
      const fieldOf: Record<string, string> = { startDate: "startDate", endDate: "endDate", startTime: "startTime", endTime: "endTime", days: "days", tz: "timeZoneId" };
      // The console's texts, not the core's sentences: a page shows them in its own language.
      const messages: Record<string, string> = {
        startDate: ALERT_MSG.startDate,
        endDate: ALERT_MSG.endDate,
        days: ALERT_MSG.days,
        timeZoneId: ALERT_MSG.zone,
        startTime: ALERT_MSG.times,
        endTime: errors[0].code === "endTime.equalsStart" ? ALERT_MSG.sameTimes : ALERT_MSG.times,
      };
      const field = fieldOf[errors[0].field] ?? "startTime";
      fieldError(field, messages[field] ?? errors[0].message);
    }
    // The calendar a custom schedule follows is one of the company's own (its dates were checked when saved).
    if (input.onHolidays && input.onHolidays !== "ignore") {
      const [calendar] = await db
        .select({ id: hc.id })
        .from(hc)
        .where(inCompany(hc, auth, eq(hc.id, input.holidayCalendarId!)))
        .limit(1);
      if (!calendar) fieldError("holidayCalendarId", HOLIDAY_MSG.notFound);
    }
  }

  // Only the pickers the activities ask for are kept: the others mean nothing for them.
  const targets: { kind: (typeof TARGET_KIND)[keyof typeof TARGET_KIND]; refId: number | null }[] = [];
  for (const [i, field] of CONDITION_FIELDS.entries()) {
    if (conditions[i] !== "1") continue;
    const ids = input[field].filter((x): x is number => x !== null);
    const table = field === "devices" ? d : u;
    const found = await inChunks(ids, (part) =>
      db
        .select({ id: table.id })
        .from(table)
        .where(liveInCompany(table, auth, inArray(table.id, part))),
    );
    if (found.length !== ids.length) fieldError(field, field === "devices" ? "This device does not belong to your company" : "The provided user is invalid", 404);
    targets.push(...input[field].map((refId) => ({ kind: TARGET_KIND[field], refId })));
  }

  // A picked user is mailed at the address the company has for them, never one the caller sends.
  const picked = await pickedUsers(db, auth, input.recipients);
  const seen = new Set<string>();
  const recipients = input.recipients
    .map((x) => (x.userId ? { ...x, email: picked.get(x.userId)!.email } : x))
    .filter((x) => (seen.has(x.email) ? false : (seen.add(x.email), true)));
  await checkTextRecipients(db, auth, recipients, picked);
  return { activities, targets, recipients, zoneName };
}

/**
 * Texts only where the company allows them, and only to its own users at the number it has for them
 * (decision 0073): a typed address has no phone, and nobody can name a number.
 */
async function checkTextRecipients(db: Db, auth: Auth, recipients: Recipient[], picked: Map<number, PickedUser>) {
  const texted = recipients.filter((x) => x.channel !== "email");
  if (texted.length === 0) return;
  const [settings] = await db.select({ on: cs.alertTexts }).from(cs).where(eq(cs.companyId, auth.company.id)).limit(1);
  if (!settings?.on) fieldError("recipients", ALERT_MSG.textsOff);
  if (texted.some((x) => !x.userId)) fieldError("recipients", ALERT_MSG.textNeedsUser);
  if (texted.some((x) => !isE164(picked.get(x.userId!)!.phone))) fieldError("recipients", ALERT_MSG.noPhone);
}

function values(input: AlertInput, activityTypeId: number) {
  const custom = input.schedule === "custom";
  return {
    name: input.name,
    activityTypeId,
    schedule: input.schedule,
    startDate: custom ? input.startDate : null,
    endDate: custom && !input.neverEnds ? input.endDate : null,
    isNeverEnd: custom ? input.neverEnds : true,
    days: weekBits(input.days),
    isAllDay: custom ? input.allDay : true,
    startTime: custom && !input.allDay ? input.startTime : null,
    endTime: custom && !input.allDay ? input.endTime : null,
    timeZoneId: custom ? input.timeZoneId! : null,
    language: input.language,
    // Left out (a client that does not know the fields), a saved alert keeps its choice and a new one ignores holidays.
    ...(input.onHolidays === undefined ? {} : { onHolidays: input.onHolidays, holidayCalendarId: input.onHolidays === "ignore" ? null : input.holidayCalendarId }),
  };
}

function childInserts(
  db: Db,
  companyId: number,
  alertId: number | SQL,
  activities: { id: number }[],
  targets: { kind: "created_by" | "target_user" | "device"; refId: number | null }[],
  recipients: Recipient[],
) {
  return [
    db.insert(aat).values(activities.map((x) => ({ alertId: alertId as number, companyId, activityTypeId: x.id }))),
    ...(targets.length ? [db.insert(t).values(targets.map((x) => ({ ...x, alertId: alertId as number, companyId })))] : []),
    ...(recipients.length ? [db.insert(r).values(recipients.map((x) => ({ ...x, alertId: alertId as number, companyId })))] : []),
  ];
}

export async function addAlert(db: Db, auth: Auth, input: AddAlertInput, now: number, core: Core): Promise<number> {
  assertCan(auth, MODULE, "add");
  const { activities, targets, recipients } = await resolve(db, auth, input, core);
  const companyId = auth.company.id;
  // Inside one batch nothing else writes, so the newest alert id is the row just inserted.
  const newId = sql`(select max(id) from alerts)`;
  const results = await db.batch([
    db.insert(a).values({ ...values(input, activities[0].id), companyId, createdAt: now, updatedAt: now }),
    ...childInserts(db, companyId, newId, activities, targets, recipients),
    activityInsert(db, { companyId, name: "Alert Created", createdByUserId: auth.user.id, summary: input.name, details: {}, at: now }),
    db.select({ id: sql<number>`max(id)` }).from(a),
  ] as never);
  const last = (results as unknown[])[(results as unknown[]).length - 1] as { id: number }[];
  return last[0].id;
}

export async function modifyAlert(db: Db, auth: Auth, input: ModifyAlertInput, now: number, core: Core): Promise<void> {
  assertCan(auth, MODULE, "modify");
  const [found] = await db
    .select({ id: a.id })
    .from(a)
    .where(liveInCompany(a, auth, eq(a.id, input.id)))
    .limit(1);
  if (!found) notFound(ALERT_MSG.notFound);
  const { activities, targets, recipients } = await resolve(db, auth, input, core);
  const companyId = auth.company.id;
  await db.batch([
    db
      .update(a)
      .set({ ...values(input, activities[0].id), updatedAt: now })
      .where(liveInCompany(a, auth, eq(a.id, input.id))),
    db.delete(aat).where(and(eq(aat.alertId, input.id), eq(aat.companyId, companyId))),
    db.delete(t).where(and(eq(t.alertId, input.id), eq(t.companyId, companyId))),
    db.delete(r).where(and(eq(r.alertId, input.id), eq(r.companyId, companyId))),
    ...childInserts(db, companyId, input.id, activities, targets, recipients),
    activityInsert(db, { companyId, name: "Alert Modified", createdByUserId: auth.user.id, summary: input.name, details: { alertId: input.id }, at: now }),
  ] as never);
}

export async function deleteAlert(db: Db, auth: Auth, id: number, now: number): Promise<void> {
  assertCan(auth, MODULE, "delete");
  const [found] = await db
    .select({ id: a.id, name: a.name })
    .from(a)
    .where(liveInCompany(a, auth, eq(a.id, id)))
    .limit(1);
  if (!found) notFound(ALERT_MSG.notFound);
  await db.batch([
    db
      .update(a)
      .set({ deletedAt: now, updatedAt: now })
      .where(liveInCompany(a, auth, eq(a.id, id))),
    activityInsert(db, { companyId: auth.company.id, name: "Alert Removed", createdByUserId: auth.user.id, summary: found.name, details: { alertId: id }, at: now }),
  ]);
}

type PickedUser = { email: string; phone: string };

/** The company's address and phone of the users picked among `recipients`; a user not live in the company is a 404 on `recipients`. */
async function pickedUsers(db: Db, auth: Auth, recipients: { userId?: number | null }[]): Promise<Map<number, PickedUser>> {
  const userIds = recipients.flatMap((x) => (x.userId ? [x.userId] : []));
  const users = await inChunks(userIds, (part) =>
    db
      .select({ id: u.id, email: u.email, phone: u.phoneNumber })
      .from(u)
      .where(liveInCompany(u, auth, inArray(u.id, part))),
  );
  if (users.length !== new Set(userIds).size) fieldError("recipients", "The provided user is invalid", 404);
  return new Map(users.map((x) => [x.id, { email: x.email.toLowerCase(), phone: x.phone }]));
}

/**
 * The form's test mail: one mail per recipient through the outbox. Only someone who may save an
 * alert may send it, and only to at most MAX_RECIPIENTS addresses, so it is no open relay.
 */
export async function sendAlertTestEmail(db: Db, auth: Auth, body: AlertTestEmailInput, now: number): Promise<number> {
  if (!can(auth.permissions, MODULE, "add")) assertCan(auth, MODULE, "modify");
  const picked = await pickedUsers(db, auth, body.recipients);
  const addresses = [...new Set(body.recipients.map((x) => (x.userId ? picked.get(x.userId)!.email : x.email)))];
  const name = body.name || "(new alert)";
  await db.batch([
    db.insert(o).values(
      addresses.map((toAddress) => ({
        companyId: auth.company.id,
        toAddress,
        subject: `Test: alert ${name}`,
        body: `This is a test of the alert "${name}" of ${auth.company.name}.\n\nWhen the alert fires, a mail like this one is sent to this address.\n`,
        createdAt: now,
      })),
    ),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Mailer Test Sent",
      createdByUserId: auth.user.id,
      summary: `Alert test mail to ${addresses.length} recipient(s)`,
      at: now,
    }),
  ]);
  return addresses.length;
}

/**
 * Recent firings of the company's alerts, newest first: what the sentinel feed (getSentinelAlerts) shows.
 * The matches are in D1, the activities they matched in the company's log; a firing whose activity the
 * log no longer holds (past retention) is left out, as its entry would be.
 */
export async function sentinelAlerts(db: Db, log: LogDb, auth: Auth, limit = 100) {
  assertCan(auth, MODULE);
  const matches = await db
    .select({ id: m.id, alertId: a.id, alertName: a.name, activityId: m.activityId, state: m.state, matchedAt: m.matchedAt })
    .from(m)
    .innerJoin(a, and(eq(a.id, m.alertId), isNull(a.deletedAt)))
    .where(inCompany(m, auth))
    .orderBy(desc(m.id))
    .limit(limit);
  const ids = [...new Set(matches.map((x) => x.activityId))];
  const entries = await inChunks(ids, (part) =>
    log
      .select({
        id: l.id,
        activityName: at.name,
        activityTimestamp: l.activityTimestamp,
        summary: l.summary,
        targetDeviceId: l.targetDeviceId,
        targetUserId: l.targetUserId,
      })
      .from(l)
      .innerJoin(at, eq(at.id, l.activityTypeId))
      .where(and(inArray(l.id, part), eq(l.companyId, auth.company.id))),
  );
  const byId = new Map(entries.map((x) => [x.id, x]));
  return matches.flatMap(({ id, alertId, alertName, activityId, state, matchedAt }) => {
    const e = byId.get(activityId);
    return e
      ? [
          {
            id,
            alertId,
            alertName,
            activityId,
            activityName: e.activityName,
            activityTimestamp: e.activityTimestamp,
            summary: e.summary,
            targetDeviceId: e.targetDeviceId,
            targetUserId: e.targetUserId,
            state,
            matchedAt,
          },
        ]
      : [];
  });
}
