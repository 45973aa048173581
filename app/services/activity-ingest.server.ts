/**
 * Entries that are a company's log alone, gateway and phone events, go straight to the company's store
 * (app/durable/company-log.ts, decision 0048): each company's writes land on its own Durable Object, so
 * ingest grows with the number of companies instead of queueing behind D1's one writer. The store keeps
 * each event once by its id and runs the alert engine over what is new.
 */
import { inArray } from "drizzle-orm";
import { INGEST_LIMIT, type IngestRow } from "~/durable/company-log-schema";
import type { ActivityEntry } from "~/utils/activity-insert.server";
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";
import { chunks, inChunks, schema, type Db } from "~/utils/db.server";

/** The entries' rows in the stores; answers how many were new (an event id a store holds is skipped). */
export async function ingestActivity(env: CompanyLogEnv, db: Db, entries: ActivityEntry[], operation: NonNullable<ActivityEntry["operationType"]>, now: number): Promise<number> {
  if (entries.length === 0) return 0;
  const t = schema.activityTypes;
  const names = [...new Set(entries.map((e) => e.name))];
  const typeIds = new Map((await inChunks(names, (part) => db.select({ id: t.id, name: t.name }).from(t).where(inArray(t.name, part)))).map((x) => [x.name, x.id]));
  const byCompany = new Map<number, IngestRow[]>();
  for (const e of entries) {
    const typeId = typeIds.get(e.name);
    if (typeId === undefined) throw new Error(`No activity named ${e.name}`);
    const list = byCompany.get(e.companyId) ?? byCompany.set(e.companyId, []).get(e.companyId)!;
    list.push({
      company_id: e.companyId,
      event_id: e.eventId ?? null,
      activity_type_id: typeId,
      operation_type: e.operationType ?? operation,
      created_by_user_id: e.createdByUserId ?? null,
      target_user_id: idOrNull(e.targetUserId),
      target_device_id: e.targetDeviceId ?? null,
      target_device_group_id: idOrNull(e.targetDeviceGroupId),
      summary: e.summary ?? "",
      details_json: JSON.stringify(e.details ?? {}),
      gps_location: e.gpsLocation ?? null,
      activity_timestamp: e.at ?? now,
      created_at: now,
    });
  }
  const counts = await Promise.all([...byCompany].flatMap(([companyId, rows]) => chunks(rows, INGEST_LIMIT).map((part) => companyLogStub(env, companyId).ingest(companyId, part))));
  return counts.reduce((a, b) => a + b, 0);
}

/** Events name their people and groups by id (a subquery only finds a row written in the same D1 batch). */
function idOrNull(x: ActivityEntry["targetUserId"]): number | null {
  if (x === undefined || x === null) return null;
  if (typeof x !== "number") throw new Error("An event's references are ids");
  return x;
}
