/**
 * Webhook events from the activity log (decision 0078). Every change the events report already writes
 * its activity row in the same batch as the change (D1's outbox, or the company store's transaction
 * for gateway events: decision 0048), and the company's alert engine reads each row at least once and
 * forgets it only after its D1 batch committed. That batch now also holds the webhook events of the
 * page and their deliveries, each written once by its source, so an event can be neither lost nor doubled
 * between the change and the delivery outbox.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { ALARM_KINDS, ALARM_STATES, type AlarmState } from "~/schemas/door-alarms";
import type { WebhookEventType } from "~/schemas/webhooks";
import { chunks, inChunks, schema, type Db } from "~/utils/db.server";

const { webhookEndpoints: ep, webhookEvents: ev, webhookDeliveries: wd, activityTypes: at } = schema;

/** What the alert engine read: an activity row with the columns the events need. */
export type ActivityRow = {
  id: number;
  companyId: number;
  activityTypeId: number;
  createdByUserId: number | null;
  targetUserId: number | null;
  targetDeviceId: number | null;
  targetDeviceGroupId: number | null;
  summary: string;
  detailsJson: string;
  activityTimestamp: number;
};
/** An alert that matched an activity. */
export type Firing = { alert: { id: number; name: string; companyId: number }; activity: ActivityRow };

type Event = { type: WebhookEventType; data: Record<string, unknown> };

const str = (v: unknown) => (typeof v === "string" ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const ref = (id: number | null) => (id === null ? null : { id });

function details(x: ActivityRow): Record<string, unknown> {
  try {
    const d = JSON.parse(x.detailsJson || "{}");
    return d && typeof d === "object" ? d : {};
  } catch {
    return {};
  }
}

function access(x: ActivityRow, d: Record<string, unknown>) {
  const credential = d.credential as { type?: unknown; id?: unknown } | undefined;
  return {
    device: { id: x.targetDeviceId },
    user: ref(x.targetUserId),
    credential: credential && typeof credential === "object" ? { type: String(credential.type ?? ""), id: String(credential.id ?? "") } : null,
    key:
      d.keyId !== undefined || d.keyKind !== undefined
        ? { id: d.keyId == null ? null : String(d.keyId), kind: d.keyKind === "ekey" || d.keyKind === "group" ? d.keyKind : null }
        : null,
    reason: str(d.reason),
    summary: x.summary,
  };
}

const door = (x: ActivityRow) => ({ device: { id: x.targetDeviceId }, summary: x.summary });
const userChange = (x: ActivityRow) => ({ user: { id: x.targetUserId }, actor: ref(x.createdByUserId), summary: x.summary });
const keyChange = (x: ActivityRow) => ({
  user: { id: x.targetUserId },
  device: ref(x.targetDeviceId),
  device_group: ref(x.targetDeviceGroupId),
  actor: ref(x.createdByUserId),
  summary: x.summary,
});
const firmware = (x: ActivityRow, d: Record<string, unknown>) => ({ device: { id: x.targetDeviceId }, version: str(d.version), error: str(d.error), summary: x.summary });

const lockdown = (x: ActivityRow, d: Record<string, unknown>) => ({
  actor: ref(x.createdByUserId),
  mode: d.mode === "lockdown" || d.mode === "evacuation" ? d.mode : null,
  automatic: d.automatic === true,
  summary: x.summary,
});

/**
 * A door alarm's entry (decision 0076; details written by door-alarm-events.server.ts and
 * door-alarms.server.ts): the acknowledger is the entry's author on an acknowledgement, in the details on
 * a clearing by the door.
 */
const doorAlarm = (x: ActivityRow, d: Record<string, unknown>, state: AlarmState) => {
  const by = num(d.acknowledgedBy) ?? (state === "active" ? null : x.createdByUserId);
  return {
    alarm: { id: num(d.alarmId) },
    device: { id: x.targetDeviceId, name: str(d.door) },
    kind: ALARM_KINDS.find((k) => k === d.kind) ?? null,
    state: ALARM_STATES.find((s) => s === d.state) ?? state,
    acknowledged_by: ref(by),
    note: str(d.note),
    summary: x.summary,
  };
};

/** The activity catalogue's names that are events, and the event each one is. */
const FROM_ACTIVITY: Record<string, (x: ActivityRow, d: Record<string, unknown>) => Event | null> = {
  "Access Granted": (x, d) => ({ type: "access.granted", data: access(x, d) }),
  "Access Denied": (x, d) => ({ type: "access.denied", data: { ...access(x, d), reason_code: str(d.code) } }),
  "Door Opened": (x) => ({ type: "door.opened", data: door(x) }),
  "Door Closed": (x) => ({ type: "door.closed", data: door(x) }),
  "Door Forced Open": (x) => ({ type: "door.forced_open", data: door(x) }),
  "Door Held Open": (x) => ({ type: "door.held_open", data: door(x) }),
  "Low Battery": (x, d) => ({ type: "device.low_battery", data: { ...door(x), percent: num(d.percent) } }),
  "Device Online": (x) => ({ type: "device.online", data: door(x) }),
  "Device Offline": (x) => ({ type: "device.offline", data: door(x) }),
  "Device Clock Drift": (x, d) => ({ type: "device.clock_drift", data: { ...door(x), drift_ms: num(d.driftMs) } }),
  "Device Zone Data Outdated": (x, d) => ({ type: "device.zone_data_outdated", data: { ...door(x), tzdata: str(d.tzdata), core_tzdata: str(d.coreTzdata) } }),
  "Firmware Installed": (x, d) => ({ type: "firmware.installed", data: firmware(x, d) }),
  "Firmware Failed": (x, d) => ({ type: "firmware.failed", data: firmware(x, d) }),
  "User Created": (x) => (x.targetUserId === null ? null : { type: "user.created", data: userChange(x) }),
  "User Modified": (x, d) => (x.targetUserId === null ? null : { type: d.deactivated === true ? "user.deactivated" : "user.changed", data: userChange(x) }),
  "Removed User": (x) => (x.targetUserId === null ? null : { type: "user.deleted", data: userChange(x) }),
  "eKey Assigned": (x) => (x.targetUserId === null ? null : { type: "key.assigned", data: keyChange(x) }),
  "eKey Modified": (x) => (x.targetUserId === null ? null : { type: "key.changed", data: keyChange(x) }),
  "eKey Removed": (x) => (x.targetUserId === null ? null : { type: "key.removed", data: keyChange(x) }),
  "Door Held Open Alarm": (x, d) => ({ type: "door_alarm.raised", data: doorAlarm(x, d, "active") }),
  "Door Forced Open Alarm": (x, d) => ({ type: "door_alarm.raised", data: doorAlarm(x, d, "active") }),
  "Door Alarm Acknowledged": (x, d) => ({ type: "door_alarm.acknowledged", data: doorAlarm(x, d, "acknowledged") }),
  "Door Alarm Cleared": (x, d) => ({ type: "door_alarm.cleared", data: doorAlarm(x, d, "cleared") }),
  "Lockdown Started": (x, d) => ({ type: "lockdown.started", data: lockdown(x, d) }),
  "Lockdown Ended": (x, d) => ({ type: "lockdown.ended", data: lockdown(x, d) }),
};

/** The id receivers see as `webhook-id`. */
const newEventId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

type EventRow = typeof ev.$inferInsert;

/**
 * The events of a page the alert engine read (and of the alerts that fired on it), for companies with an
 * enabled endpoint that takes them, with their deliveries: statements for the engine's batch.
 */
export async function webhookEventStatements(db: Db, rows: ActivityRow[], fired: Firing[], now: number): Promise<{ statements: unknown[]; events: number }> {
  const companies = [...new Set(rows.map((x) => x.companyId))];
  if (companies.length === 0) return { statements: [], events: 0 };
  const endpoints = await inChunks(companies, (part) =>
    db
      .select({ companyId: ep.companyId, eventTypes: ep.eventTypes })
      .from(ep)
      .where(and(inArray(ep.companyId, part), eq(ep.enabled, true))),
  );
  if (endpoints.length === 0) return { statements: [], events: 0 };
  const wanted = new Map<number, Set<string>>();
  for (const e of endpoints) {
    const set = wanted.get(e.companyId) ?? wanted.set(e.companyId, new Set()).get(e.companyId)!;
    for (const t of JSON.parse(e.eventTypes) as string[]) set.add(t);
  }
  const names = await activityNames(
    db,
    [...rows, ...fired.map((f) => f.activity)].map((x) => x.activityTypeId),
  );
  const out: EventRow[] = [];
  const add = (companyId: number, source: string, occurredAt: number, e: Event | null) => {
    if (e && wanted.get(companyId)?.has(e.type)) out.push({ id: newEventId(), companyId, type: e.type, source, occurredAt, dataJson: JSON.stringify(e.data), createdAt: now });
  };
  for (const x of rows) {
    const name = names.get(x.activityTypeId);
    const map = name === undefined ? undefined : FROM_ACTIVITY[name];
    if (map) add(x.companyId, `activity:${x.id}`, x.activityTimestamp, map(x, details(x)));
  }
  for (const { alert, activity: x } of fired) {
    add(alert.companyId, `alert:${alert.id}:${x.id}`, x.activityTimestamp, {
      type: "alert.fired",
      data: {
        alert: { id: alert.id, name: alert.name },
        activity: { id: x.id, name: names.get(x.activityTypeId) ?? "", summary: x.summary, occurred_at: new Date(x.activityTimestamp).toISOString() },
        user: ref(x.targetUserId),
        device: ref(x.targetDeviceId),
      },
    });
  }
  if (out.length === 0) return { statements: [], events: 0 };
  const statements: unknown[] = chunks(out, 10).map((part) => db.insert(ev).values(part).onConflictDoNothing());
  // A source read again keeps its first event (and id): the deliveries join on the source, not on the new id.
  for (const [companyId, list] of groupBy(out, (e) => e.companyId)) {
    for (const part of chunks(list, 80))
      statements.push(
        deliveryInsert(
          db,
          companyId,
          part.map((e) => e.source),
          now,
        ),
      );
  }
  return { statements, events: out.length };
}

/** One delivery per enabled endpoint of the company that takes the event's type; an existing one stays. */
export function deliveryInsert(db: Db, companyId: number, sources: string[], now: number) {
  return newDeliveries(
    db,
    now,
    sql`from ${ev} e join ${ep} p on p.company_id = e.company_id and p.enabled = 1
    and exists (select 1 from json_each(p.event_types) j where j.value = e.type)
    where e.company_id = ${companyId} and e.source in (${sql.join(
      sources.map((s) => sql`${s}`),
      sql`, `,
    )})`,
  );
}

/**
 * Pending deliveries for the (event `e`, endpoint `p`) pairs `from` finds (a FROM clause with its WHERE);
 * a pair that already has one keeps it. Every column, in the table's order (drizzle's insert from a select).
 */
export function newDeliveries(db: Db, now: number, from: SQL) {
  return db
    .insert(wd)
    .select(sql`select null, e.company_id, p.id, e.id, 'pending', 0, ${now}, null, null, ${now}, ${now} ${from}`)
    .onConflictDoNothing();
}

let catalogue: Map<number, string> | undefined;
/** The activity catalogue by id (fixed by the migrations: read once per isolate; an id it lacks reads it again). */
async function activityNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!catalogue || ids.some((id) => !catalogue!.has(id))) catalogue = new Map((await db.select({ id: at.id, name: at.name }).from(at)).map((x) => [x.id, x.name]));
  return catalogue;
}

function groupBy<T, K>(list: T[], key: (x: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const x of list) (m.get(key(x)) ?? m.set(key(x), []).get(key(x))!).push(x);
  return m;
}
