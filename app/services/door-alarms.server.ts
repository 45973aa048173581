/**
 * Door alarms for people (decision 0076): the list with its filters, the dashboard's count of active
 * ones, and acknowledging one with a note. Raising, folding and clearing by board events are in
 * door-alarm-events.server.ts. Alarms belong to the activity module: viewing it lists them, its modify
 * right acknowledges them. Every read and change is the caller's company only.
 */
import { asc, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { ALARM_MSG, acknowledgeAlarmSchema, type AlarmFilters, type AlarmKind, type AlarmState } from "~/schemas/door-alarms";
import { activityInsertWhen } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { inCompany } from "~/utils/tenant.server";
import { localDayStart } from "~/utils/zoned-day";
import { ALARM_ACTIVITY } from "./door-alarm-events.server";

const { doorAlarms: a, devices: d, users: u } = schema;
const MODULE = "activity";

export type AlarmRow = {
  id: number;
  deviceId: number;
  door: string;
  kind: AlarmKind;
  state: AlarmState;
  raisedAt: number;
  lastSeenAt: number;
  repeats: number;
  doorClosedAt: number | null;
  acknowledgedBy: string | null;
  acknowledgedAt: number | null;
  note: string;
  clearedAt: number | null;
};

export const ALARM_SORTS = ["raisedAt", "lastSeenAt"] as const;
const doorName = sql<string>`coalesce(nullif(${d.fullName}, ''), ${d.displayName}, '')`;

function filterWhere(auth: Auth, f: AlarmFilters, tz: string): SQL {
  return inCompany(
    a,
    auth,
    f.state === "active" ? activeAlarmsWhere(auth) : f.state ? eq(a.state, f.state) : undefined,
    f.kind ? eq(a.kind, f.kind) : undefined,
    f.door ? eq(a.deviceId, f.door) : undefined,
    // Days are the company's: a day's alarms are those raised from its local midnight to the next.
    f.from ? gte(a.raisedAt, localDayStart(f.from, tz)) : undefined,
    f.to ? lt(a.raisedAt, localDayStart(f.to, tz, 1)) : undefined,
  );
}

/** One page of the company's alarms, newest first unless sorted otherwise; active and acknowledged ones are always listed before cleared ones. */
export async function listDoorAlarms(
  db: Db,
  auth: Auth,
  o: { filters: AlarmFilters; tz: string; sort: { key: string; desc: boolean }; page: { offset: number; limit: number } },
): Promise<{ rows: AlarmRow[]; total: number }> {
  assertCan(auth, MODULE);
  const where = filterWhere(auth, o.filters, o.tz);
  const column = o.sort.key === "lastSeenAt" ? a.lastSeenAt : a.raisedAt;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: a.id,
        deviceId: a.deviceId,
        door: doorName,
        kind: a.kind,
        state: a.state,
        raisedAt: a.raisedAt,
        lastSeenAt: a.lastSeenAt,
        repeats: a.repeats,
        doorClosedAt: a.doorClosedAt,
        acknowledgedBy: u.displayName,
        acknowledgedAt: a.acknowledgedAt,
        note: a.note,
        clearedAt: a.clearedAt,
      })
      .from(a)
      .leftJoin(d, eq(d.id, a.deviceId))
      .leftJoin(u, eq(u.id, a.acknowledgedByUserId))
      .where(where)
      .orderBy(sql`${a.state} = 'cleared'`, o.sort.desc ? desc(column) : asc(column), desc(a.id))
      .limit(o.page.limit)
      .offset(o.page.offset),
    db.select({ total: count() }).from(a).where(where),
  ]);
  return { rows, total };
}

/** The alarms nobody has acknowledged yet: the dashboard's figure and the list's "active" filter alike. */
export const activeAlarmsWhere = (auth: Auth) => inCompany(a, auth, eq(a.state, "active"));

/** The company's doors that have had an alarm, for the list's door filter. */
export async function alarmDoors(db: Db, auth: Auth): Promise<{ id: number; name: string }[]> {
  assertCan(auth, MODULE);
  return db.selectDistinct({ id: a.deviceId, name: doorName }).from(a).innerJoin(d, eq(d.id, a.deviceId)).where(inCompany(a, auth)).orderBy(asc(doorName), asc(a.deviceId));
}

/**
 * Acknowledges an active alarm with what the caller found. An alarm whose door has closed meanwhile is
 * cleared at once; otherwise the door's closing clears it. Of two people acknowledging at once, one does.
 */
export async function acknowledgeAlarm(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string; state: AlarmState }> {
  assertCan(auth, MODULE, "modify");
  const v = parseInput(acknowledgeAlarmSchema, input);
  const alarm = (await db.query.doorAlarms.findFirst({ where: inCompany(a, auth, eq(a.id, v.id)) })) ?? notFound(ALARM_MSG.notFound);
  if (alarm.state !== "active") throw new ServiceError(409, ALARM_MSG.notActive);
  const closed = alarm.doorClosedAt !== null;
  const still = inCompany(a, auth, eq(a.id, v.id), eq(a.state, "active"));
  const guard = sql`exists (select 1 from ${a} where ${still})`;
  const [device] = await db.select({ name: doorName }).from(d).where(eq(d.id, alarm.deviceId));
  const door = device?.name || `device ${alarm.deviceId}`;
  const state: AlarmState = closed ? "cleared" : "acknowledged";
  // The details carry what the `door_alarm.*` webhook events report: the door as named now, the alarm's state after this, the note.
  const details = { alarmId: alarm.id, kind: alarm.kind, door, state, acknowledgedBy: auth.user.id, note: v.note };
  const entry = { companyId: auth.company.id, createdByUserId: auth.user.id, targetDeviceId: alarm.deviceId, details, at: now };
  // The audit entries first, with the change's guard: of two acknowledgements at once only the one that changes the row records it.
  const writes = [
    activityInsertWhen(db, { ...entry, name: "Door Alarm Acknowledged", summary: `${ALARM_ACTIVITY[alarm.kind]} at ${door}: ${v.note}` }, guard),
    ...(closed ? [activityInsertWhen(db, { ...entry, name: "Door Alarm Cleared", summary: `${door} closed: alarm cleared` }, guard)] : []),
    db
      .update(a)
      .set({ state, acknowledgedByUserId: auth.user.id, acknowledgedAt: now, note: v.note, ...(closed ? { clearedAt: now } : {}) })
      .where(still)
      .returning({ id: a.id }),
  ];
  const results = await db.batch(writes as unknown as [never, ...never[]]);
  const moved = results[results.length - 1] as unknown as { id: number }[];
  if (moved.length === 0) throw new ServiceError(409, ALARM_MSG.notActive);
  return { message: ALARM_MSG.acknowledged, state };
}
