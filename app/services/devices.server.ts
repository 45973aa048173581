/**
 * Devices: the paged grid, the details page with the company's scheduled-open hours, and the last
 * reported location. Lifecycle changes (configure, rotate, remove, retire) are in device-lifecycle.server.ts.
 */
import { and, asc, count, desc, eq, inArray, isNull, or } from "drizzle-orm";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound } from "~/utils/errors.server";
import { liveInCompany } from "~/utils/tenant.server";

const { devices: d, deviceGroups: g, deviceGroupMembers: m, ekeyAssignments: k, users: u } = schema;
const MODULE = "devices";

export const DEVICE_SORTS = ["fullName", "displayName", "serialNumber", "createdAt", "lastActivity"] as const;
const sortColumn = {
  fullName: d.fullName,
  displayName: d.displayName,
  serialNumber: d.serialNumber,
  createdAt: d.createdAt,
  lastActivity: d.lastActivityAt,
};

export type ListDevicesOptions = { offset: number; pageSize: number; sort: { key: string; desc: boolean } };

export async function listDevices(db: Db, auth: Auth, o: ListDevicesOptions) {
  assertCan(auth, MODULE);
  const where = liveInCompany(d, auth);
  const column = sortColumn[o.sort.key as keyof typeof sortColumn] ?? d.fullName;
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
      })
      .from(d)
      .where(where)
      .orderBy(o.sort.desc ? desc(column) : asc(column), asc(d.id))
      .limit(o.pageSize)
      .offset(o.offset),
    db.select({ total: count() }).from(d).where(where),
  ]);
  return { rows, total };
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
