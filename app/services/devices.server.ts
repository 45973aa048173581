/**
 * Devices: the paged grid, the details page with the company's scheduled-open hours, and the last
 * reported location. Lifecycle changes (configure, rotate, remove, retire) are in device-lifecycle.server.ts.
 */
import { and, asc, count, desc, eq, exists, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Core } from "~core";
import type { DeviceFilters } from "~/schemas/device-filters";
import { DEACTIVATED } from "~/schemas/device-groups";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound } from "~/utils/errors.server";
import { liveInCompany } from "~/utils/tenant.server";
import { idInAny, lowerOf, searchKey, startsWith } from "./search.server";
import { firmwarePendingSql, heldOpenSql, inServiceSql, presenceSql, scheduledOpenNow } from "./device-status.server";

const { devices: d, deviceGroups: g, deviceGroupMembers: m, ekeyAssignments: k, users: u } = schema;
const MODULE = "devices";

export const DEVICE_SORTS = ["fullName", "displayName", "serialNumber", "createdAt", "lastActivity", "online", "battery", "firmware", "door", "deviceType"] as const;

export type ListDevicesOptions = { offset: number; pageSize: number; sort: { key: string; desc: boolean }; filters?: DeviceFilters };

/** Trigram terms are three characters long; a shorter search matches the start of a name or serial instead. */
const TRIGRAM = 3;

/** The search as one FTS5 phrase: inside double quotes every character is literal (`%`, `_`, `*`…), a quote is doubled. */
const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The company's live devices meeting `more` and, when `q` is given, whose full name, display name or
 * serial number contains it, case folded (decision 0043; the list's and the group picker's search).
 * Three characters or more are looked up in the trigram index `devices_search` (migration 0021), with
 * the company compared as `+company_id`, which no index serves: SQLite then starts from the matches and
 * reads each device by id, where it would otherwise walk the company's index testing every device (its
 * choice without statistics). One or two characters match the start of a column as index ranges within
 * the company. The company and `deleted_at` are checked on every row either way.
 */
export function devicesWhere(companyId: number, q: string | undefined, ...more: (SQL | undefined)[]): SQL {
  const text = q?.trim() ?? "";
  if (!text) return liveInCompany(d, companyId, ...more);
  // FTS5 reads its query only up to a NUL (an unterminated phrase, an error): such a search matches nothing.
  if (text.includes("\u0000")) return liveInCompany(d, companyId, sql`0`, ...more);
  if ([...text].length < TRIGRAM) {
    const key = searchKey(text);
    const prefix = idInAny(d, companyId, [startsWith(lowerOf(d.fullName), key), startsWith(lowerOf(d.displayName), key), startsWith(lowerOf(d.serialNumber), key)]);
    return liveInCompany(d, companyId, prefix, ...more);
  }
  const trigrams = sql`${d.id} in (select rowid from devices_search where devices_search match ${ftsPhrase(text)})`;
  return and(sql`+${d.companyId} = ${companyId}`, isNull(d.deletedAt), trigrams, ...more)!;
}

/** The list's conditions: each filter of the URL but the search (decision 0033). */
async function deviceConditions(db: Db, core: Core | undefined, auth: Auth, f: DeviceFilters, now: number, online: SQL<number | null>) {
  const conditions: (SQL | undefined)[] = [];
  if (f.type) conditions.push(eq(d.deviceTypeId, f.type));
  if (f.group)
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(m)
          .where(and(eq(m.groupId, f.group), eq(m.deviceId, d.id), eq(m.companyId, auth.company.id))),
      ),
    );
  // The health filters, as the dashboard counts them, leave stock boards out.
  if (f.online || f.battery || f.firmware) conditions.push(inServiceSql);
  if (f.online) conditions.push(f.online === "never" ? sql`${online} is null` : sql`${online} = ${Number(f.online)}`);
  if (f.battery) conditions.push(eq(d.lowBattery, f.battery === "low"));
  if (f.door) conditions.push(eq(d.doorState, f.door));
  if (f.firmware) conditions.push(firmwarePendingSql);
  if (f.schedule) {
    conditions.push(heldOpenSql(core ? await scheduledOpenNow(db, core, auth.company.id, now) : false, now));
  }
  return conditions;
}

/**
 * The list's search and filters as the CSV export reads them (decision 0089), worked out once: the
 * answer gives the condition with `more` added (the export's keyset on the id). The caller's company only;
 * the right is the caller's to check.
 */
export async function deviceListWhere(db: Db, auth: Auth, f: DeviceFilters, now: number, core?: Core) {
  const conditions = await deviceConditions(db, core, auth, f, now, presenceSql(now).online);
  return (...more: (SQL | undefined)[]) => devicesWhere(auth.company.id, f.q, ...conditions, ...more);
}

/**
 * Firmware versions in version order ("1.2.0" before "1.10.0"): the first three dotted numbers
 * zero-padded, then the text itself; a device that never reported a version stays NULL.
 */
const firmwareOrder = sql`case when ${d.firmwareVersion} is null then null else printf('%010d.%010d.%010d|%s',
  cast(${d.firmwareVersion} as integer),
  cast(substr(${d.firmwareVersion}, instr(${d.firmwareVersion}, '.') + 1) as integer) * (instr(${d.firmwareVersion}, '.') > 0),
  cast(substr(substr(${d.firmwareVersion}, instr(${d.firmwareVersion}, '.') + 1), instr(substr(${d.firmwareVersion}, instr(${d.firmwareVersion}, '.') + 1), '.') + 1) as integer)
    * (instr(${d.firmwareVersion}, '.') > 0 and instr(substr(${d.firmwareVersion}, instr(${d.firmwareVersion}, '.') + 1), '.') > 0),
  ${d.firmwareVersion}) end`;

/**
 * The /devices grid: a page of the company's devices with their live status, filtered and sorted on
 * the server. `core` decides the scheduled-open filter; `now` is the presence staleness clock.
 */
export async function listDevices(db: Db, auth: Auth, o: ListDevicesOptions, now: number, core?: Core) {
  assertCan(auth, MODULE);
  const presence = presenceSql(now);
  const where = devicesWhere(auth.company.id, o.filters?.q, ...(await deviceConditions(db, core, auth, o.filters ?? {}, now, presence.online)));
  const sortColumn: Record<string, SQL | AnySQLiteColumn> = {
    fullName: d.fullName,
    displayName: d.displayName,
    serialNumber: d.serialNumber,
    createdAt: d.createdAt,
    lastActivity: d.lastActivityAt,
    online: presence.online,
    battery: d.lowBattery,
    firmware: firmwareOrder,
    door: d.doorState,
    deviceType: schema.deviceTypes.deviceType,
  };
  const column = sortColumn[o.sort.key] ?? d.fullName;
  const [rows, [{ total }]] = await db.batch([
    db
      .select({
        id: d.id,
        fullName: d.fullName,
        displayName: d.displayName,
        serialNumber: d.serialNumber,
        status: d.status,
        startDate: d.startDate,
        createdAt: d.createdAt,
        lastActivityAt: d.lastActivityAt,
        deviceType: schema.deviceTypes.deviceType,
        online: presence.online,
        onlineSince: presence.since,
        lowBattery: d.lowBattery,
        firmwareVersion: d.firmwareVersion,
        firmwarePending: firmwarePendingSql,
        doorState: d.doorState,
        doorStateAt: d.doorStateAt,
      })
      .from(d)
      .leftJoin(schema.deviceTypes, eq(schema.deviceTypes.id, d.deviceTypeId))
      .where(where)
      .orderBy(o.sort.desc ? desc(column) : asc(column), asc(d.id))
      .limit(o.pageSize)
      .offset(o.offset),
    db.select({ total: count() }).from(d).where(where),
  ]);
  return { rows: rows.map((r) => ({ ...r, online: r.online == null ? null : r.online === 1, firmwarePending: Boolean(r.firmwarePending) })), total };
}
export type DeviceListItem = Awaited<ReturnType<typeof listDevices>>["rows"][number];

/** The filter choices of the list: the company's groups (with whether each is active) and the device types its devices have. */
export async function deviceFilterOptions(db: Db, auth: Auth) {
  assertCan(auth, MODULE);
  const t = schema.deviceTypes;
  const [groups, types] = await db.batch([
    db
      .select({ id: g.id, name: g.fullName, active: sql<number>`${g.status} <> ${DEACTIVATED}` })
      .from(g)
      .where(liveInCompany(g, auth))
      .orderBy(asc(g.fullName), asc(g.id)),
    db
      .selectDistinct({ id: t.id, name: t.deviceType })
      .from(t)
      .innerJoin(d, and(eq(d.deviceTypeId, t.id), liveInCompany(d, auth)))
      .orderBy(asc(t.deviceType), asc(t.id)),
  ]);
  return { groups: groups.map((x) => ({ ...x, active: Boolean(x.active) })), types };
}

async function findDevice(db: Db, auth: Auth, id: number) {
  const [row] = await db
    .select({ device: d, deviceType: schema.deviceTypes.deviceType })
    .from(d)
    .leftJoin(schema.deviceTypes, eq(schema.deviceTypes.id, d.deviceTypeId))
    .where(liveInCompany(d, auth, eq(d.id, id)))
    .limit(1);
  return row ?? notFound("Device configuration could not be found");
}

export type ScheduleDay = { day: number; openWholeDay: boolean; openTime: string; closeTime: string };
export type ScheduleException = { id: number; date: string; openWholeDay: boolean; openTime: string; closeTime: string };

/** Everything /deviceDetails and user/getDeviceDetails show, in one round trip after the device check. */
export async function getDeviceDetails(db: Db, auth: Auth, id: number) {
  assertCan(auth, MODULE);
  const found = await findDevice(db, auth, id);
  // The credential hash never leaves the server; pages only learn whether one is set.
  const { boardSecretHash, ...device } = found.device;
  const deviceType = found.deviceType;
  const companyId = auth.company.id;
  const groupIds = db.select({ id: m.groupId }).from(m).where(eq(m.deviceId, id));
  const [settings, week, exceptions, holders, groups] = await db.batch([
    db
      .select({ scheduleOpen: schema.companySettings.scheduleOpen, fpi: schema.companySettings.fpi })
      .from(schema.companySettings)
      .where(eq(schema.companySettings.companyId, companyId)),
    db.select().from(schema.scheduleOpenDays).where(eq(schema.scheduleOpenDays.companyId, companyId)).orderBy(asc(schema.scheduleOpenDays.day)),
    db.select().from(schema.scheduleOpenExceptions).where(eq(schema.scheduleOpenExceptions.companyId, companyId)).orderBy(asc(schema.scheduleOpenExceptions.date)),
    // Holders of a key on this device, directly or through one of its groups.
    db
      .selectDistinct({ id: u.id, displayName: u.displayName })
      .from(k)
      .innerJoin(u, and(eq(u.id, k.userId), isNull(u.deletedAt)))
      .where(and(eq(k.companyId, companyId), or(and(eq(k.isGroup, false), eq(k.deviceId, id)), and(eq(k.isGroup, true), inArray(k.groupId, groupIds)))))
      .orderBy(asc(u.displayName), asc(u.id)),
    db
      .select({ id: g.id, fullName: g.fullName })
      .from(m)
      .innerJoin(g, and(eq(g.id, m.groupId), isNull(g.deletedAt)))
      .where(and(eq(m.deviceId, id), eq(m.companyId, companyId)))
      .orderBy(asc(g.fullName), asc(g.id)),
  ]);
  // Scheduled open is a company setting that applies to devices with their own flag on.
  const scheduledOpen = device.scheduleOpen && !!settings[0]?.scheduleOpen;
  return {
    device,
    hasBoardSecret: boardSecretHash != null,
    deviceType: deviceType ?? "",
    scheduledOpen,
    fpi: scheduledOpen && !!settings[0]?.fpi,
    week: week as ScheduleDay[],
    exceptions: exceptions as ScheduleException[],
    users: holders,
    groups,
  };
}
export type DeviceDetails = Awaited<ReturnType<typeof getDeviceDetails>>;

/**
 * The status card of /deviceDetails: presence as the list shows it (decision 0033), the door as last
 * reported, battery, firmware and the last event's time. The device is checked by the caller.
 */
export async function getDeviceLiveStatus(db: Db, auth: Auth, id: number, now: number) {
  assertCan(auth, MODULE);
  const presence = presenceSql(now);
  const [row] = await db
    .select({
      online: presence.online,
      since: presence.since,
      doorState: d.doorState,
      doorStateAt: d.doorStateAt,
      lowBattery: d.lowBattery,
      firmwareVersion: d.firmwareVersion,
      firmwarePending: firmwarePendingSql,
      lastActivityAt: d.lastActivityAt,
      driftMs: schema.deviceClocks.driftMs,
      tzdata: schema.deviceClocks.tzdata,
      coreTzdata: schema.deviceClocks.coreTzdata,
      clockReportedAt: schema.deviceClocks.reportedAt,
    })
    .from(d)
    .leftJoin(schema.deviceClocks, eq(schema.deviceClocks.deviceId, d.id))
    .where(liveInCompany(d, auth, eq(d.id, id)))
    .limit(1);
  if (!row) return notFound("Device configuration could not be found");
  return { ...row, online: row.online == null ? null : row.online === 1, firmwarePending: Boolean(row.firmwarePending) };
}
export type DeviceLiveStatus = Awaited<ReturnType<typeof getDeviceLiveStatus>>;

export async function getLastReportedLocation(db: Db, auth: Auth, id: number) {
  assertCan(auth, MODULE);
  const { device } = await findDevice(db, auth, id);
  return { latitude: device.lastLatitude, longitude: device.lastLongitude, reportedAt: device.lastLocationAt };
}

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** One line per weekday, e.g. "08:00 - 18:00", "Open all day" or "Closed". */
export function scheduleText(row: Pick<ScheduleDay, "openWholeDay" | "openTime" | "closeTime"> | undefined): string {
  if (!row?.openWholeDay) return "Closed";
  return row.openTime && row.closeTime ? `${row.openTime} - ${row.closeTime}` : "Open all day";
}
