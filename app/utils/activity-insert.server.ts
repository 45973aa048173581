/**
 * Audit entries. `activityInsert` returns an unexecuted statement so callers put it in the same
 * D1 batch as the change it records: the change and its audit row land together or not at all.
 */
import { sql, type SQL } from "drizzle-orm";
import { actingKey } from "./acting-key.server";
import { nowMs, schema, type Db } from "./db.server";
import { insertWhen } from "./insert-when.server";

export type ActivityEntry = {
  companyId: number;
  /** A name from the activity catalogue (db/migrations/0001_reference_data.sql). */
  name: string;
  operationType?: "Sentinel" | "App" | "Device" | "Admin";
  createdByUserId?: number | null;
  /** Ids, or a subquery that finds a row inserted earlier in the same batch (its id is unknown until it runs). */
  targetUserId?: number | SQL | null;
  targetDeviceId?: number | null;
  targetDeviceGroupId?: number | SQL | null;
  summary?: string;
  details?: Record<string, unknown>;
  gpsLocation?: string | null;
  eventId?: string | null;
  at?: number;
};

export function activityInsert(db: Db, e: ActivityEntry) {
  return db.insert(schema.activityLogs).values(activityValues(e));
}

/** The same entry, written only if `guard` holds when the statement runs (`insertWhen`): put it before the guarded change. */
export function activityInsertWhen(db: Db, e: ActivityEntry, guard: SQL) {
  return insertWhen(db, schema.activityLogs, { ...activityValues(e), createdAt: nowMs() }, guard);
}

/**
 * The `activity_logs` row of an entry; the one mapping used by single inserts and the gateway's bulk insert.
 * A change made with an API key names the key in the details (`apiKey`), beside its creator as the person.
 */
export function activityValues(e: ActivityEntry, defaultOperation: NonNullable<ActivityEntry["operationType"]> = "Admin") {
  const key = actingKey();
  return {
    companyId: e.companyId,
    activityTypeId: sql`(select id from activity_types where name = ${e.name})`,
    operationType: e.operationType ?? defaultOperation,
    createdByUserId: e.createdByUserId ?? null,
    targetUserId: e.targetUserId ?? null,
    targetDeviceId: e.targetDeviceId ?? null,
    targetDeviceGroupId: e.targetDeviceGroupId ?? null,
    summary: e.summary ?? "",
    detailsJson: JSON.stringify(key ? { ...e.details, apiKey: { id: key.id, name: key.name } } : (e.details ?? {})),
    gpsLocation: e.gpsLocation ?? null,
    eventId: e.eventId ?? null,
    activityTimestamp: e.at ?? nowMs(),
  };
}
