/**
 * Audit entries. `activityInsert` returns an unexecuted statement so callers put it in the same
 * D1 batch as the change it records: the change and its audit row land together or not at all.
 */
import { sql, type SQL } from "drizzle-orm";
import { actingKey } from "./acting-key.server";
import { supportActor } from "./request-scope.server";
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
  return db.insert(schema.activityLogs).values(activityRows(e));
}

/** The same entry, written only if `guard` holds when the statement runs (`insertWhen`): put it before the guarded change. */
export function activityInsertWhen(db: Db, e: ActivityEntry, guard: SQL) {
  return insertWhen(
    db,
    schema.activityLogs,
    activityRows(e).map((row) => ({ ...row, createdAt: nowMs() })),
    guard,
  );
}

/**
 * The entry's row, and in a support session (decision 0093) its copy for the grantee's log: "Support
 * Action", by the same staff member, naming the customer and what was done.
 */
export function activityRows(e: ActivityEntry) {
  const row = activityValues(e);
  const support = supportActor();
  if (!support || support.granteeCompanyId === e.companyId) return [row];
  const copy = activityValues({
    companyId: support.granteeCompanyId,
    name: "Support Action",
    createdByUserId: e.createdByUserId,
    summary: `${support.companyName}: ${e.name}${e.summary ? ` (${e.summary})` : ""}`,
    details: { type: "support", companyId: e.companyId, activity: e.name },
    at: e.at,
  });
  return [row, copy];
}

/**
 * The `activity_logs` row of an entry; the one mapping used by single inserts and the gateway's bulk insert.
 * A change made with an API key names the key in the details (`apiKey`), beside its creator as the person;
 * one made in a support session names the support (`support`: grant, staff member, grantee).
 */
export function activityValues(e: ActivityEntry, defaultOperation: NonNullable<ActivityEntry["operationType"]> = "Admin") {
  const key = actingKey();
  const support = supportActor();
  const details = {
    ...e.details,
    ...(key ? { apiKey: { id: key.id, name: key.name } } : {}),
    ...(support ? { support: { grantId: support.grantId, by: support.staffName, for: support.granteeName } } : {}),
  };
  return {
    companyId: e.companyId,
    activityTypeId: sql`(select id from activity_types where name = ${e.name})`,
    operationType: e.operationType ?? defaultOperation,
    createdByUserId: e.createdByUserId ?? null,
    targetUserId: e.targetUserId ?? null,
    targetDeviceId: e.targetDeviceId ?? null,
    targetDeviceGroupId: e.targetDeviceGroupId ?? null,
    summary: e.summary ?? "",
    detailsJson: JSON.stringify(details),
    gpsLocation: e.gpsLocation ?? null,
    eventId: e.eventId ?? null,
    activityTimestamp: e.at ?? nowMs(),
  };
}
