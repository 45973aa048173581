/**
 * The alert engine (docs/decisions/0025-alert-engine.md, 0026-alert-digest.md, 0048-activity-outbox.md).
 * Each company's log store runs it over the activities that arrive there, whatever wrote them (console and
 * API audit drained from D1's outbox, gateway and phone events written to the store), in arrival order:
 * `alertActivities` matches them against the company's live alerts on the activity (any of the alert's,
 * decision 0059), its conditions and the schedule (evaluated by the core in the alert's zone), and queues
 * mail through the mail outbox: in the alert's language, naming the door, at the company's local time.
 * Recipients who chose texts, where the company allows them, get the mail's subject line as a text
 * through the text outbox instead or as well (decision 0073; `drainTexts` sends it).
 *
 * Exactly once: a match is a row unique per (alert, activity) and each mail carries a unique dedupe key,
 * so reading an activity again queues nothing; the store forgets an arrival only after the batch committed.
 * Bursts: after an alert mails, further matches are held for DIGEST_WINDOW_MS and then go out as one
 * digest per recipient (`flushDigests`, run platform-wide by the queue consumer and the cron).
 * The same batch writes the page's webhook events and their deliveries (decision 0078), once per source.
 */
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Core } from "~core";
import { companyLogDb, type CompanyLogEnv } from "~/utils/company-log.server";
import { chunks, inChunks, schema, type Db } from "~/utils/db.server";
import { holidayFields } from "~/schemas/holidays";
import { alertMailText, type MailLanguage } from "./alert-mail-text";
import { alertWindow } from "./alert-window";
import { datesOfCalendars } from "./holidays.server";
import { webhookEventStatements, type ActivityRow, type Firing } from "./webhooks/events.server";

const {
  alerts: a,
  alertActivityTypes: aat,
  companySettings: cs,
  alertTargets: t,
  alertRecipients: r,
  alertMatches: m,
  activityLogs: l,
  activityTypes: at,
  timeZones: tz,
  users: u,
  devices: d,
  mailOutbox: o,
  textOutbox: tx,
} = schema;

/** After an alert mails, its matches wait this long and then leave together as one digest. */
export const DIGEST_WINDOW_MS = 5 * 60_000;
/** Activity rows one call of `alertActivities` takes. */
export const ALERT_PAGE = 200;
/** Activities listed one by one in a digest; the rest are counted. */
const DIGEST_LINES = 50;

export type EngineOptions = { now: number; origin: string };
export type EngineResult = { read: number; matched: number; mails: number; webhookEvents: number };

/** The activity columns an alert matches on, a mail shows and a webhook event carries. */
const activityColumns = {
  id: l.id,
  companyId: l.companyId,
  activityTypeId: l.activityTypeId,
  createdByUserId: l.createdByUserId,
  targetUserId: l.targetUserId,
  targetDeviceId: l.targetDeviceId,
  targetDeviceGroupId: l.targetDeviceGroupId,
  summary: l.summary,
  detailsJson: l.detailsJson,
  activityTimestamp: l.activityTimestamp,
};
/** The same columns as a company log's own SQL reads them (`column AS key`). */
export const ACTIVITY_COLUMNS = Object.entries(activityColumns).map(([key, column]) => `${column.name} AS ${key}`);
/** The webhook events are made from the same rows (app/services/webhooks/events.server.ts). */
export type Activity = ActivityRow;
type LiveAlert = {
  id: number;
  companyId: number;
  name: string;
  language: MailLanguage;
  /** The company's zone, in which the mail gives times (UTC when it has none). */
  companyZone: string;
  lastMailAt: number | null;
  isOpen: (at: number) => boolean;
  targets: Map<string, Set<number | null>>;
  /** Addresses mailed. */
  recipients: string[];
  /** Users texted (their number is read when the text leaves). */
  texted: number[];
};

/** Someone hears of the alert's firings. */
const hasRecipients = (x: LiveAlert) => x.recipients.length + x.texted.length > 0;

/**
 * Matches activities (at most ALERT_PAGE rows) against their company's live alerts and commits the
 * matches and mail in one D1 batch. The caller reads each activity once in order and may read one again
 * after a crash: the unique match and mail keys make a second reading queue nothing.
 */
export async function alertActivities(db: Db, core: Core, rows: Activity[], opts: EngineOptions): Promise<EngineResult> {
  const { statements, matched, mails, fired } = await matchPage(db, core, rows, opts);
  const hooks = await webhookEventStatements(db, rows, fired, opts.now);
  statements.push(...hooks.statements);
  if (statements.length > 0) await db.batch(statements as never);
  return { read: rows.length, matched, mails, webhookEvents: hooks.events };
}

/**
 * The live alerts of the page's companies that fire for any of the page's activities, with targets,
 * recipients and compiled schedule, under each (company, activity) they fire for. One indexed read of
 * alert_activity_types by (company, activity) finds them, however many activities an alert has. The dates of
 * the holiday calendars their custom schedules follow (decision 0077) are one more read for the whole page,
 * and none when no alert follows one.
 */
async function loadAlerts(db: Db, core: Core, rows: Activity[]): Promise<Map<string, LiveAlert[]>> {
  const companies = [...new Set(rows.map((x) => x.companyId))];
  const types = [...new Set(rows.map((x) => x.activityTypeId))];
  const watched = await inChunks(companies, (part) =>
    db
      .select({ alertId: aat.alertId, companyId: aat.companyId, activityTypeId: aat.activityTypeId })
      .from(aat)
      .where(and(inArray(aat.companyId, part), types.length <= 90 ? inArray(aat.activityTypeId, types) : undefined)),
  );
  const ids = [...new Set(watched.map((x) => x.alertId))];
  const found = await inChunks(ids, (part) =>
    db
      .select({
        alert: a,
        zoneName: tz.name,
        companyZone: sql<string | null>`(select z.name from ${cs} join ${tz} z on z.id = ${cs.defaultTimeZoneId} where ${cs.companyId} = ${a.companyId})`,
      })
      .from(a)
      .leftJoin(tz, eq(tz.id, a.timeZoneId))
      .where(and(inArray(a.id, part), isNull(a.deletedAt))),
  );
  const followsCalendar = (x: (typeof found)[number]["alert"]) => x.schedule === "custom" && x.onHolidays !== "ignore";
  const datesOf = await datesOfCalendars(
    db,
    found.flatMap(({ alert }) => (followsCalendar(alert) ? [alert.holidayCalendarId] : [])),
  );
  const targets = await inChunks(ids, (part) => db.select({ alertId: t.alertId, kind: t.kind, refId: t.refId }).from(t).where(inArray(t.alertId, part)));
  // Recipients who are users are mailed at their current address, and not once they are gone or inactive.
  // Where the company no longer allows texts, those who chose them are mailed instead.
  const recipients = await inChunks(ids, (part) =>
    db
      .select({
        alertId: r.alertId,
        email: sql<string | null>`case when ${r.userId} is null then ${r.email} when ${u.id} is not null then ${u.email} end`,
        userId: u.id,
        channel: sql<
          "email" | "text" | "both"
        >`case when ${r.userId} is not null and coalesce((select ${cs.alertTexts} from ${cs} where ${cs.companyId} = ${r.companyId}), 0) then ${r.channel} else 'email' end`,
      })
      .from(r)
      .leftJoin(u, and(eq(u.id, r.userId), eq(u.companyId, r.companyId), isNull(u.deletedAt), eq(u.isInactive, false)))
      .where(inArray(r.alertId, part)),
  );
  const out = new Map<string, LiveAlert[]>();
  for (const { alert, zoneName, companyZone } of found) {
    // A custom schedule "not on holidays" or on "holiday hours" carries its calendar's dates, in its own range.
    const holidays = followsCalendar(alert) ? holidayFields(alert.onHolidays, datesOf(alert.holidayCalendarId), alert.startDate, alert.isNeverEnd ? null : alert.endDate) : {};
    const window = alertWindow({ ...alert, zoneName }, holidays);
    const invalid = core.validate(window);
    if (invalid.length) {
      console.warn(`alert ${alert.id} has an invalid schedule and is skipped: ${invalid[0].message}`);
      continue;
    }
    const isOpen = (at: number) => core.isOpen(window, at);
    const byKind = new Map<string, Set<number | null>>();
    for (const x of targets) if (x.alertId === alert.id) (byKind.get(x.kind) ?? byKind.set(x.kind, new Set()).get(x.kind)!).add(x.refId);
    const own = recipients.filter((x) => x.alertId === alert.id && x.email);
    const mails = [...new Set(own.filter((x) => x.channel !== "text").map((x) => x.email!.toLowerCase()))];
    const texted = [...new Set(own.flatMap((x) => (x.channel !== "email" && x.userId ? [x.userId] : [])))];
    const live: LiveAlert = { ...alert, companyZone: companyZone ?? "UTC", isOpen, targets: byKind, recipients: mails, texted };
    for (const w of watched) {
      if (w.alertId !== alert.id || w.companyId !== alert.companyId) continue;
      const key = `${alert.companyId}:${w.activityTypeId}`;
      (out.get(key) ?? out.set(key, []).get(key)!).push(live);
    }
  }
  return out;
}

/** Conditions: each position the activity flags, when the alert names targets of that kind, must hold (null = any). */
function conditionsHold(alert: LiveAlert, conditions: string, x: Activity): boolean {
  const checks: [string, number | null][] = [
    ["created_by", x.createdByUserId],
    ["target_user", x.targetUserId],
    ["device", x.targetDeviceId],
  ];
  return checks.every(([kind, value], i) => {
    const wanted = alert.targets.get(kind);
    if (conditions[i] !== "1" || !wanted || wanted.size === 0 || wanted.has(null)) return true;
    return value !== null && wanted.has(value);
  });
}

async function matchPage(db: Db, core: Core, rows: Activity[], opts: EngineOptions) {
  const alerts = await loadAlerts(db, core, rows);
  const statements: unknown[] = [];
  const fired: Firing[] = [];
  if (alerts.size === 0) return { statements, matched: 0, mails: 0, fired };
  const types = [...new Set(rows.map((x) => x.activityTypeId))];
  const catalogue = new Map(
    (await inChunks(types, (part) => db.select({ id: at.id, name: at.name, conditions: at.alertConditions }).from(at).where(inArray(at.id, part)))).map((x) => [x.id, x]),
  );

  const matches = new Map<LiveAlert, Activity[]>();
  for (const x of rows) {
    const type = catalogue.get(x.activityTypeId);
    for (const alert of alerts.get(`${x.companyId}:${x.activityTypeId}`) ?? []) {
      if (type && conditionsHold(alert, type.conditions, x) && alert.isOpen(x.activityTimestamp)) (matches.get(alert) ?? matches.set(alert, []).get(alert)!).push(x);
    }
  }
  let matched = 0;
  let mails = 0;
  for (const [alert, list] of matches) {
    matched += list.length;
    fired.push(...list.map((activity) => ({ alert: { id: alert.id, name: alert.name, companyId: alert.companyId }, activity })));
    const windowOpen = alert.lastMailAt !== null && opts.now < alert.lastMailAt + DIGEST_WINDOW_MS;
    const state: "held" | "sent" = windowOpen ? "held" : "sent";
    statements.push(
      ...chunks(list, 20).map((part) =>
        db
          .insert(m)
          .values(part.map((x) => ({ alertId: alert.id, companyId: alert.companyId, activityId: x.id, state, matchedAt: opts.now })))
          .onConflictDoNothing(),
      ),
    );
    const lastId = list[list.length - 1].id;
    statements.push(
      db
        .update(a)
        .set({
          lastActivityId: sql`max(coalesce(${a.lastActivityId}, 0), ${lastId})`,
          lastRunAt: opts.now,
          ...(windowOpen || !hasRecipients(alert) ? {} : { lastMailAt: opts.now }),
        })
        .where(eq(a.id, alert.id)),
    );
    if (windowOpen || !hasRecipients(alert)) continue;
    const mail = await composeMail(db, alert, list, catalogue, opts.origin);
    statements.push(...deliveryInserts(db, alert, mail, opts.now));
    mails += alert.recipients.length;
  }
  return { statements, matched, mails, fired };
}

type Mail = { key: string; subject: string; body: string };

/** The mail to each address and the text (the mail's subject line) to each texted user, each queued once by its key. */
function deliveryInserts(db: Db, alert: LiveAlert, mail: Mail, now: number) {
  return [
    ...chunks(alert.recipients, 10).map((part) =>
      db
        .insert(o)
        .values(part.map((toAddress) => ({ companyId: alert.companyId, toAddress, subject: mail.subject, body: mail.body, dedupeKey: `${mail.key}:${toAddress}`, createdAt: now })))
        .onConflictDoNothing(),
    ),
    ...chunks(alert.texted, 10).map((part) =>
      db
        .insert(tx)
        .values(
          part.map((userId) => ({
            companyId: alert.companyId,
            userId,
            body: mail.subject,
            purpose: `alert "${alert.name}"`,
            dedupeKey: `${mail.key}:text:${userId}`,
            createdAt: now,
          })),
        )
        .onConflictDoNothing(),
    ),
  ];
}

/** One activity: its own mail. Several: a digest listing them. The key names what the mail is for. */
async function composeMail(db: Db, alert: LiveAlert, list: Activity[], catalogue: Map<number, { name: string }>, origin: string): Promise<Mail> {
  const doors = await doorNames(db, list);
  const text = alertMailText(alert.language, alert.companyZone);
  const line = (x: Activity) =>
    text.line({
      at: x.activityTimestamp,
      activity: catalogue.get(x.activityTypeId)?.name ?? "",
      door: x.targetDeviceId ? doors.get(x.targetDeviceId) : undefined,
      summary: x.summary,
    });
  if (list.length === 1) {
    const x = list[0];
    return { key: `alert:${alert.id}:activity:${x.id}`, ...text.single(alert.name, line(x), `${origin}/activityDetails?id=${x.id}`) };
  }
  const shown = list.slice(0, DIGEST_LINES).map(line);
  return { key: `alert:${alert.id}:digest:${list[0].id}`, ...text.digest(alert.name, list.length, shown, DIGEST_WINDOW_MS / 60_000, `${origin}/activity`) };
}

/** The doors' names as the console shows them (the full name, else the display name), never their codes. */
async function doorNames(db: Db, list: Activity[]): Promise<Map<number, string>> {
  const ids = [...new Set(list.flatMap((x) => (x.targetDeviceId ? [x.targetDeviceId] : [])))];
  const rows = await inChunks(ids, (part) =>
    db
      .select({ id: d.id, name: sql<string>`coalesce(nullif(${d.fullName}, ''), ${d.displayName})` })
      .from(d)
      .where(inArray(d.id, part)),
  );
  return new Map(rows.map((x) => [x.id, x.name]));
}

/**
 * Alerts whose digest window has closed with held matches: one digest per recipient, the matches marked
 * digested. The matches are in D1, the activities in the alert's company log.
 */
export async function flushDigests(db: Db, env: CompanyLogEnv, core: Core, opts: EngineOptions): Promise<number> {
  const due = await db
    .selectDistinct({ alertId: m.alertId, companyId: a.companyId })
    .from(m)
    .innerJoin(a, eq(a.id, m.alertId))
    .where(and(eq(m.state, "held"), sql`coalesce(${a.lastMailAt}, 0) <= ${opts.now - DIGEST_WINDOW_MS}`))
    .limit(50);
  let mails = 0;
  for (const { alertId, companyId } of due) {
    const matches = await db
      .select({ matchId: m.id, activityId: m.activityId })
      .from(m)
      .where(and(eq(m.alertId, alertId), eq(m.state, "held")))
      .orderBy(asc(m.activityId))
      .limit(5000);
    if (matches.length === 0) continue;
    const log = companyLogDb(env, companyId);
    const activities = await inChunks([...new Set(matches.map((x) => x.activityId))], (part) => log.select(activityColumns).from(l).where(inArray(l.id, part)));
    // Held matches whose activity the log no longer holds (past retention) are digested with nothing to list.
    const held = activities.sort((x, y) => x.id - y.id);
    const alerts = held.length > 0 ? await loadAlerts(db, core, held) : new Map<string, LiveAlert[]>();
    const alert = [...alerts.values()].flat().find((x) => x.id === alertId);
    const markDigested = db
      .update(m)
      .set({ state: "digested" })
      .where(and(eq(m.alertId, alertId), eq(m.state, "held"), lte(m.id, Math.max(...matches.map((x) => x.matchId)))));
    if (!alert || !hasRecipients(alert)) {
      await db.batch([markDigested]);
      continue;
    }
    const types = [...new Set(held.map((x) => x.activityTypeId))];
    const catalogue = new Map((await db.select({ id: at.id, name: at.name }).from(at).where(inArray(at.id, types))).map((x) => [x.id, x]));
    const mail = await composeMail(db, alert, held, catalogue, opts.origin);
    // A digest of one activity still says it is a digest: the key differs from the activity's own mail.
    mail.key = `alert:${alertId}:digest:${held[0].id}`;
    await db.batch([markDigested, ...deliveryInserts(db, alert, mail, opts.now), db.update(a).set({ lastMailAt: opts.now }).where(eq(a.id, alertId))] as never);
    mails += alert.recipients.length;
  }
  return mails;
}
