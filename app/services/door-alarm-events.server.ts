/**
 * Door alarms from board events (decision 0076). A `door.forced` of a door with forced detection on, or
 * a `door.heldOpen` of a door with a held-open threshold (when the board says how long, at least that
 * long), raises an alarm, or folds into the one of that door and kind that is not cleared yet (one more
 * repeat, a later last-seen). The door closing (`door.closed`, contact input 1 closed) clears an
 * acknowledged alarm and marks an active one as closed, so its acknowledgement clears it.
 *
 * Safe to run again for a re-sent batch: an event no later than an alarm's last-seen time of that door
 * and kind was already counted, and a closing finds only alarms not yet closed. The alarms a batch raised
 * or cleared are read back by its event ids in the same D1 batch, so their log entries (ids derived from
 * the alarm, kept once by the company's store) are written even when a first attempt stopped in between.
 */
import { inArray, or, sql } from "drizzle-orm";
import type { AlarmKind } from "~/schemas/door-alarms";
import type { ActivityEntry } from "~/utils/activity-insert.server";
import { chunks, IN_CHUNK, schema, type Db } from "~/utils/db.server";
import type { GatewayEvent } from "./gateway-events.server";

const a = schema.doorAlarms;

/** A placed event: its door's alarm settings and the company it belongs to. */
export type AlarmEvent = { e: GatewayEvent; deviceId: number; companyId: number; heldOpenSeconds: number | null; forcedAlarm: boolean; door: "open" | "closed" | null };

/** The alarm an event raises at its door, if any. */
export function alarmKindOf(x: Pick<AlarmEvent, "e" | "heldOpenSeconds" | "forcedAlarm">): AlarmKind | null {
  if (x.e.type === "door.forced") return x.forcedAlarm ? "forced" : null;
  if (x.e.type !== "door.heldOpen" || x.heldOpenSeconds === null) return null;
  const ms = x.e.data.durationMs;
  // A board that says how long the door stood open is held to the console's threshold (older firmware times it alone).
  return typeof ms === "number" && ms < x.heldOpenSeconds * 1000 ? null : "heldOpen";
}

function raise(db: Db, x: AlarmEvent, kind: AlarmKind, now: number) {
  const seen = sql`exists (select 1 from ${a} where ${a.companyId} = ${x.companyId} and ${a.deviceId} = ${x.deviceId} and ${a.kind} = ${kind} and ${a.lastSeenAt} >= ${x.e.at})`;
  return db
    .insert(a)
    .select(sql`select null, ${x.companyId}, ${x.deviceId}, ${kind}, 'active', ${x.e.at}, ${x.e.id}, ${x.e.at}, 1, null, null, null, '', null, null, ${now} where not ${seen}`)
    .onConflictDoUpdate({
      target: [a.companyId, a.deviceId, a.kind],
      targetWhere: sql`state != 'cleared'`,
      set: { repeats: sql`${a.repeats} + 1`, lastSeenAt: sql`max(${a.lastSeenAt}, excluded.last_seen_at)`, doorClosedAt: null },
    });
}

function close(db: Db, x: AlarmEvent) {
  const acked = sql`${a.state} = 'acknowledged'`;
  return db
    .update(a)
    .set({
      doorClosedAt: x.e.at,
      clearedAt: sql`case when ${acked} then ${x.e.at} else ${a.clearedAt} end`,
      clearedEventId: sql`case when ${acked} then ${x.e.id} else ${a.clearedEventId} end`,
      state: sql`case when ${acked} then 'cleared' else ${a.state} end`,
    })
    .where(sql`${a.companyId} = ${x.companyId} and ${a.deviceId} = ${x.deviceId} and ${a.state} != 'cleared' and ${a.doorClosedAt} is null and ${a.lastSeenAt} <= ${x.e.at}`);
}

/**
 * The statements of a batch's alarm events, in board-time order, and the reads of the alarms they raised
 * or cleared, to run last in the same D1 batch; null when no event concerns an alarm.
 */
export function alarmStatements(db: Db, events: AlarmEvent[], now: number) {
  const out: unknown[] = [];
  const ids: string[] = [];
  for (const x of [...events].sort((p, q) => p.e.at - q.e.at)) {
    const kind = alarmKindOf(x);
    if (kind) out.push(raise(db, x, kind, now));
    else if (x.door === "closed") out.push(close(db, x));
    else continue;
    ids.push(x.e.id);
  }
  if (out.length === 0) return null;
  // Two lists of ids per read: each part stays within D1's bound parameters per statement (a batch of
  // door.closed events is many ids; one read of them all failed the whole batch, and the gateway
  // offered it again and again).
  const readBacks = chunks(ids, IN_CHUNK / 2).map((part) =>
    db
      .select({
        id: a.id,
        companyId: a.companyId,
        deviceId: a.deviceId,
        kind: a.kind,
        raisedAt: a.raisedAt,
        raisedEventId: a.raisedEventId,
        clearedAt: a.clearedAt,
        clearedEventId: a.clearedEventId,
        acknowledgedByUserId: a.acknowledgedByUserId,
        note: a.note,
      })
      .from(a)
      .where(or(inArray(a.raisedEventId, part), inArray(a.clearedEventId, part))),
  );
  return { statements: out, readBacks, ids: new Set(ids) };
}

type ReadBack = {
  id: number;
  companyId: number;
  deviceId: number;
  kind: AlarmKind;
  raisedAt: number;
  raisedEventId: string;
  clearedAt: number | null;
  clearedEventId: string | null;
  acknowledgedByUserId: number | null;
  note: string;
};

export const ALARM_ACTIVITY: Record<AlarmKind, string> = { heldOpen: "Door Held Open Alarm", forced: "Door Forced Open Alarm" };

/**
 * The log entries of the alarms a batch raised or cleared: a new alarm is what alerts and webhooks watch
 * (once, not per repeat). Their details name the door as it was and, for a clearing, who acknowledged the
 * alarm and the note (the `door_alarm.*` webhook events are built from them).
 */
export function alarmEntries(rows: ReadBack[], ids: Set<string>, doorName: (deviceId: number) => string): ActivityEntry[] {
  const out: ActivityEntry[] = [];
  for (const r of rows) {
    const door = doorName(r.deviceId);
    const details = { alarmId: r.id, kind: r.kind, door };
    const base = { companyId: r.companyId, operationType: "Device" as const, targetDeviceId: r.deviceId, details };
    if (ids.has(r.raisedEventId))
      out.push({
        ...base,
        name: ALARM_ACTIVITY[r.kind],
        summary: `${door} ${r.kind === "forced" ? "forced open" : "held open"}: alarm raised`,
        eventId: `alarm/${r.id}/raised`,
        at: r.raisedAt,
      });
    if (r.clearedEventId !== null && ids.has(r.clearedEventId))
      out.push({
        ...base,
        name: "Door Alarm Cleared",
        summary: `${door} closed: alarm cleared`,
        details: { ...details, acknowledgedBy: r.acknowledgedByUserId, note: r.note },
        eventId: `alarm/${r.id}/cleared`,
        at: r.clearedAt ?? undefined,
      });
  }
  return out;
}
