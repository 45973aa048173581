/**
 * Device groups: list, details, available devices, create, modify (including deactivate) and
 * delete. Pages and the admin API both call these; permissions and tenant scope are checked here.
 */
import { and, asc, count, desc, eq, inArray, isNull, ne, notInArray, sql, type SQL } from "drizzle-orm";
import type { Core, Days, ValidationError } from "~core";
import { chunkedInserts } from "../../db/seed/batch";
import { addDevicesToGroupSchema, BULK_MSG, devicePickerQuery, PICKER_PAGE_SIZE, type AddDevicesToGroupInput, type BulkRowResult, type DevicePickerQuery } from "~/schemas/bulk";
import { WEEKDAYS } from "~/schemas/week";
import { DEACTIVATED, GROUP_MSG, type CreateDeviceGroupInput, type ModifyDeviceGroupInput } from "~/schemas/device-groups";
import { HOLIDAY_MSG } from "~/schemas/holidays";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { inChunks, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { inCompany, liveInCompany } from "~/utils/tenant.server";
import { devicesWhere } from "./devices.server";
import { idInAny, lowerOf, searchKey, startsWith } from "./search.server";

const { deviceGroups: g, deviceGroupMembers: m, devices: d, timeZones: tz, holidayCalendars: hc } = schema;
const MODULE = "device_group";

export const GROUP_SORTS = ["fullName", "displayName", "startAt", "endAt", "timeZone", "status"] as const;
const sortColumn = {
  fullName: g.fullName,
  displayName: g.displayName,
  startAt: g.startAt,
  endAt: g.endAt,
  timeZone: tz.label,
  status: g.status,
} satisfies Record<(typeof GROUP_SORTS)[number], unknown>;

const groupColumns = {
  id: g.id,
  fullName: g.fullName,
  displayName: g.displayName,
  description: g.description,
  schMonday: g.schMonday,
  schTuesday: g.schTuesday,
  schWednesday: g.schWednesday,
  schThursday: g.schThursday,
  schFriday: g.schFriday,
  schSaturday: g.schSaturday,
  schSunday: g.schSunday,
  startAt: g.startAt,
  endAt: g.endAt,
  isAllDay: g.isAllDay,
  timeZoneId: g.timeZoneId,
  timeZoneName: tz.name,
  timeZoneLabel: tz.label,
  status: g.status,
  onHolidays: g.onHolidays,
  holidayCalendarId: g.holidayCalendarId,
};

export type ListGroupsOptions = { offset: number; pageSize: number; sort: { key: string; desc: boolean }; hideInactive: boolean; q?: string };

/** A group whose full or display name starts with the search (decision 0035); no search, every group. */
function groupSearch(auth: Auth, q: string | undefined): SQL | undefined {
  const key = searchKey(q ?? "");
  return key ? idInAny(g, auth.company.id, [startsWith(lowerOf(g.fullName), key), startsWith(lowerOf(g.displayName), key)]) : undefined;
}

export async function listDeviceGroups(db: Db, auth: Auth, o: ListGroupsOptions) {
  assertCan(auth, MODULE);
  const where = liveInCompany(g, auth, o.hideInactive ? ne(g.status, DEACTIVATED) : undefined, groupSearch(auth, o.q));
  const column = sortColumn[o.sort.key as keyof typeof sortColumn] ?? g.fullName;
  const [rows, [{ total }]] = await db.batch([
    db
      .select(groupColumns)
      .from(g)
      .leftJoin(tz, eq(tz.id, g.timeZoneId))
      .where(where)
      .orderBy(o.sort.desc ? desc(column) : asc(column), asc(g.id))
      .limit(o.pageSize)
      .offset(o.offset),
    db.select({ total: count() }).from(g).where(where),
  ]);
  return { rows, total };
}

/** Every live group of the company, or those matching a search (the API's getDeviceGroups). */
export async function allDeviceGroups(db: Db, auth: Auth, q?: string) {
  assertCan(auth, MODULE);
  return db
    .select(groupColumns)
    .from(g)
    .leftJoin(tz, eq(tz.id, g.timeZoneId))
    .where(liveInCompany(g, auth, groupSearch(auth, q)))
    .orderBy(asc(g.fullName), asc(g.id));
}

async function findGroup(db: Db, auth: Auth, id: number) {
  const [row] = await db
    .select(groupColumns)
    .from(g)
    .leftJoin(tz, eq(tz.id, g.timeZoneId))
    .where(liveInCompany(g, auth, eq(g.id, id)))
    .limit(1);
  return row ?? notFound("Device group not found");
}
export type GroupRow = Awaited<ReturnType<typeof findGroup>>;

const deviceOption = { id: d.id, fullName: d.fullName, displayName: d.displayName, serialNumber: d.serialNumber };
export type DeviceOption = { id: number; fullName: string; displayName: string; serialNumber: string };

export async function getDeviceGroupDetails(db: Db, auth: Auth, id: number) {
  assertCan(auth, MODULE);
  const group = await findGroup(db, auth, id);
  const devices = await db
    .select(deviceOption)
    .from(m)
    .innerJoin(d, and(eq(d.id, m.deviceId), isNull(d.deletedAt)))
    .where(and(eq(m.groupId, id), eq(m.companyId, auth.company.id)))
    .orderBy(asc(d.fullName), asc(d.id));
  return { group, devices };
}

/** The company's devices not in `groupId` (all of them without a group). */
export async function getAvailableDevices(db: Db, auth: Auth, groupId?: number): Promise<DeviceOption[]> {
  assertCan(auth, MODULE);
  if (groupId != null) await findGroup(db, auth, groupId);
  const members = db
    .select({ id: m.deviceId })
    .from(m)
    .where(eq(m.groupId, groupId ?? -1));
  return db
    .select(deviceOption)
    .from(d)
    .where(liveInCompany(d, auth, notInArray(d.id, members)))
    .orderBy(asc(d.fullName), asc(d.id));
}

/**
 * The group page's device picker: a page of the company's devices not in the group, those whose
 * name or serial contains `q` when given, by full name. Another company's group is a 404.
 */
export async function devicesOutsideGroup(db: Db, auth: Auth, query: DevicePickerQuery, pageSize = PICKER_PAGE_SIZE) {
  assertCan(auth, MODULE, "modify");
  const { groupId, q, page } = parseInput(devicePickerQuery, query);
  await findGroup(db, auth, groupId);
  const members = db.select({ id: m.deviceId }).from(m).where(eq(m.groupId, groupId));
  const where = devicesWhere(auth.company.id, q, notInArray(d.id, members));
  const [rows, [{ total }]] = await db.batch([
    db
      .select(deviceOption)
      .from(d)
      .where(where)
      .orderBy(asc(d.fullName), asc(d.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(d).where(where),
  ]);
  return { rows, total, page, pageSize };
}

type GroupInput = CreateDeviceGroupInput | ModifyDeviceGroupInput;

/** The console's texts for the core's codes (a page shows them in its own language); others keep the core's sentence. */
const CORE_TEXT: Record<string, string> = {
  "endTime.equalsStart": GROUP_MSG.sameTimes,
  "startTime.missing": GROUP_MSG.times,
  "endTime.missing": GROUP_MSG.times,
  "startTime.invalid": GROUP_MSG.time,
  "endTime.invalid": GROUP_MSG.time,
  "days.none": GROUP_MSG.days,
};

/** Looks up the zone and checks the schedule through the core, so errors match the gateway's. */
async function checkSchedule(db: Db, core: Core, input: GroupInput, zoneId: number | null) {
  const zone = zoneId == null ? undefined : await db.query.timeZones.findFirst({ where: eq(tz.id, zoneId) });
  if (!zone) throw new ServiceError(400, "Time zone is required", { fieldErrors: { timeZoneId: ["Time zone is required"] } });
  const errors = core.validate({
    kind: "group",
    tz: zone.name,
    days: WEEKDAYS.map((d) => input.days[d]) as Days,
    allDay: input.allDay,
    startTime: input.startAt || null,
    endTime: input.endAt || null,
  });
  if (errors.length === 0) return;
  const field: Record<string, string> = { startTime: "startAt", endTime: "endAt", tz: "timeZoneId", days: "days", allDay: "allDay" };
  const fieldErrors: Record<string, string[]> = {};
  const text = (e: ValidationError) => CORE_TEXT[e.code] ?? e.message;
  for (const e of errors) (fieldErrors[field[e.field] ?? e.field ?? "_"] ??= []).push(text(e));
  throw new ServiceError(400, text(errors[0]), { fieldErrors, errorCode: errors[0].code });
}

/** Every id must be a live device of the caller's company; otherwise 404 and nothing changes. */
async function checkDevices(db: Db, auth: Auth, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = await inChunks(unique, (part) =>
    db
      .select({ id: d.id })
      .from(d)
      .where(liveInCompany(d, auth, inArray(d.id, part))),
  );
  if (found.length !== unique.length) notFound("This device does not belong to your company");
  return unique;
}

/** The calendar a group follows is one of the company's own; another company's or an unknown one is a 400. */
async function checkCalendar(db: Db, auth: Auth, input: GroupInput) {
  if (!input.onHolidays || input.onHolidays === "ignore") return;
  const [calendar] = await db
    .select({ id: hc.id })
    .from(hc)
    .where(inCompany(hc, auth, eq(hc.id, input.holidayCalendarId!)))
    .limit(1);
  if (!calendar) throw new ServiceError(400, HOLIDAY_MSG.notFound, { fieldErrors: { holidayCalendarId: [HOLIDAY_MSG.notFound] } });
}

/** Left out (a client that does not know the fields), a saved group keeps its holiday choice and a new one ignores holidays. */
const holidayValues = (input: GroupInput) =>
  input.onHolidays === undefined ? {} : { onHolidays: input.onHolidays, holidayCalendarId: input.onHolidays === "ignore" ? null : input.holidayCalendarId };

const groupValues = (input: GroupInput) => ({
  ...holidayValues(input),
  fullName: input.fullName,
  displayName: input.displayName,
  description: input.description,
  schMonday: input.days.monday,
  schTuesday: input.days.tuesday,
  schWednesday: input.days.wednesday,
  schThursday: input.days.thursday,
  schFriday: input.days.friday,
  schSaturday: input.days.saturday,
  schSunday: input.days.sunday,
  startAt: input.startAt || null,
  endAt: input.endAt || null,
  isAllDay: input.allDay,
});

function memberInserts(db: Db, companyId: number, groupId: number | SQL, deviceIds: number[]) {
  return chunkedInserts(
    db,
    m,
    deviceIds.map((deviceId) => ({ groupId: groupId as number, deviceId, companyId })),
  );
}

export async function createDeviceGroup(db: Db, auth: Auth, input: CreateDeviceGroupInput, now: number, core: Core): Promise<number> {
  assertCan(auth, MODULE, "add");
  await checkSchedule(db, core, input, input.timeZoneId ?? null);
  await checkCalendar(db, auth, input);
  const deviceIds = await checkDevices(db, auth, input.deviceIds);
  const companyId = auth.company.id;
  // Inside one batch nothing else writes, so the newest group id is the row just inserted.
  const newId = sql`(select max(id) from device_groups)`;
  const results = await db.batch([
    db.insert(g).values({ ...groupValues(input), companyId, timeZoneId: input.timeZoneId!, status: input.status ?? 1, createdAt: now, updatedAt: now }),
    ...memberInserts(db, companyId, newId, deviceIds),
    activityInsert(db, {
      companyId,
      name: "Device Group Created",
      createdByUserId: auth.user.id,
      targetDeviceGroupId: newId,
      summary: input.fullName,
      at: now,
    }),
    db.select({ id: sql<number>`max(id)` }).from(g),
  ]);
  const last = results[results.length - 1] as { id: number }[];
  return last[0].id;
}

/** Saves the form; the deactivate toggle sets status 3 and clearing it returns to 1 (docs/ARCHITECTURE.md §7.2). */
export async function modifyDeviceGroup(db: Db, auth: Auth, input: ModifyDeviceGroupInput, now: number, core: Core): Promise<{ status: number; message: string }> {
  assertCan(auth, MODULE, "modify");
  const current = await findGroup(db, auth, input.id);
  const zoneId = input.timeZoneId ?? current.timeZoneId;
  await checkSchedule(db, core, input, zoneId);
  await checkCalendar(db, auth, input);
  const deviceIds = await checkDevices(db, auth, input.deviceIds);
  const status = input.status === DEACTIVATED ? DEACTIVATED : (input.status ?? (current.status === DEACTIVATED ? 1 : current.status));
  const name = status === DEACTIVATED ? "Device Group De-Activated" : "Device Group Modified";
  const companyId = auth.company.id;
  await db.batch([
    db
      .update(g)
      .set({ ...groupValues(input), timeZoneId: zoneId, status, updatedAt: now })
      .where(liveInCompany(g, auth, eq(g.id, input.id))),
    db.delete(m).where(and(eq(m.groupId, input.id), eq(m.companyId, companyId))),
    ...memberInserts(db, companyId, input.id, deviceIds),
    activityInsert(db, { companyId, name, createdByUserId: auth.user.id, targetDeviceGroupId: input.id, summary: input.fullName, at: now }),
  ]);
  return { status, message: status === DEACTIVATED ? "Device Group De-Activated" : "Device Group Modified" };
}

/** Soft-deletes the group and drops its memberships and the e-keys given on it. */
export async function deleteDeviceGroup(db: Db, auth: Auth, id: number, now: number): Promise<void> {
  assertCan(auth, MODULE, "delete");
  const group = await findGroup(db, auth, id);
  const companyId = auth.company.id;
  const ekeys = schema.ekeyAssignments;
  await db.batch([
    db
      .update(g)
      .set({ deletedAt: now, updatedAt: now })
      .where(liveInCompany(g, auth, eq(g.id, id))),
    db.delete(m).where(and(eq(m.groupId, id), eq(m.companyId, companyId))),
    db.delete(ekeys).where(and(eq(ekeys.companyId, companyId), eq(ekeys.isGroup, true), eq(ekeys.groupId, id))),
    activityInsert(db, { companyId, name: "Removed Device Group", createdByUserId: auth.user.id, targetDeviceGroupId: id, summary: group.fullName, at: now }),
  ]);
}

/**
 * Adds the selected devices to a group (decision 0035): one result per id, in the order given; a device
 * already in it is left alone, an id that is not a live device of the caller's company is not found.
 * Memberships and one audit entry per device land in one batch; their feed rows come from the triggers.
 * A deactivated group takes none (decision 0040): its membership is edited on its own form.
 */
export async function addDevicesToGroup(db: Db, auth: Auth, raw: AddDevicesToGroupInput, now: number): Promise<BulkRowResult[]> {
  assertCan(auth, MODULE, "modify");
  const input = parseInput(addDevicesToGroupSchema, raw);
  const group = await findGroup(db, auth, input.groupId);
  if (group.status === DEACTIVATED) throw new ServiceError(409, BULK_MSG.inactiveGroup);
  const found = await inChunks(input.deviceIds, (part) =>
    db
      .select({ id: d.id, fullName: d.fullName })
      .from(d)
      .where(liveInCompany(d, auth, inArray(d.id, part))),
  );
  const devices = new Map(found.map((x) => [x.id, x]));
  const members = new Set(
    (
      await inChunks([...devices.keys()], (part) =>
        db
          .select({ id: m.deviceId })
          .from(m)
          .where(and(eq(m.groupId, group.id), eq(m.companyId, auth.company.id), inArray(m.deviceId, part))),
      )
    ).map((x) => x.id),
  );
  const added: number[] = [];
  const results = input.deviceIds.map((id): BulkRowResult => {
    const device = devices.get(id);
    if (!device) return { id, name: null, outcome: "notFound", message: "not found" };
    if (members.has(id)) return { id, name: device.fullName, outcome: "already", message: "already in this group" };
    added.push(id);
    return { id, name: device.fullName, outcome: "done", message: "added to the group" };
  });
  const companyId = auth.company.id;
  const audits = added.map((id) =>
    activityInsert(db, {
      companyId,
      name: "Device Group Modified",
      createdByUserId: auth.user.id,
      targetDeviceGroupId: group.id,
      targetDeviceId: id,
      summary: `${group.fullName}: ${devices.get(id)!.fullName} added`,
      at: now,
    }),
  );
  const statements = [...memberInserts(db, companyId, group.id, added), ...audits];
  if (statements.length) await db.batch(statements as unknown as Parameters<Db["batch"]>[0]);
  return results;
}
