/**
 * E-key assignments of a user (docs/ARCHITECTURE.md §7.2; API calls assign/list/remove, §8).
 * Every window is validated by the core before it is stored; every change is mirrored to the
 * gateways through the change feed (written by the database, decision 0030) and audited in the same batch.
 */
import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Core } from "~core";
import { DEACTIVATED } from "~/schemas/device-groups";
import { EKEY_MSG, textToDays, daysToText, toWindow, windowErrors, type KeyAssignment, type KeySpec, type Schedule } from "~/schemas/ekeys";
import { HOLIDAY_MSG, type OnHolidays } from "~/schemas/holidays";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, companyZone, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { inCompany, liveInCompany } from "~/utils/tenant.server";

const k = schema.ekeyAssignments;
const d = schema.devices;
const g = schema.deviceGroups;
const tz = schema.timeZones;

async function assertUser(db: Db, auth: Auth, userId: number) {
  const user = await db.query.users.findFirst({ where: liveInCompany(schema.users, auth, eq(schema.users.id, userId)) });
  return user ?? notFound("The provided user is invalid");
}

const groupDays = (row: typeof g.$inferSelect) =>
  [row.schMonday, row.schTuesday, row.schWednesday, row.schThursday, row.schFriday, row.schSaturday, row.schSunday] as Schedule["days"];

/** The company's day in its default zone, `YYYY-MM-DD` (the default start date, docs/ARCHITECTURE.md §7.2). */
export function companyToday(auth: Auth, core: Core, now: number): string {
  return core.formatLocal(now, companyZone(auth)).slice(0, 10);
}

/** A simple state for the list's status column. */
function statusOf(row: typeof k.$inferSelect, today: string): { title: string; img: string } {
  const title =
    row.accessType === "one_time_access" && row.usedAt != null
      ? "Used"
      : row.endDate && !row.isNeverEnd && row.endDate < today
        ? "Expired"
        : row.startDate && row.startDate > today
          ? "Pending"
          : "Active";
  return { title, img: title.toLowerCase() };
}

/** A group's weekly schedule and zone, as the e-key panel and the API show it beside a group. */
export type GroupScheduleRow = {
  days: Schedule["days"];
  startAt: string | null;
  endAt: string | null;
  isAllDay: boolean;
  timeZoneId: number | null;
};

const groupScheduleOf = (group: typeof g.$inferSelect): GroupScheduleRow => ({
  days: groupDays(group),
  startAt: group.startAt,
  endAt: group.endAt,
  isAllDay: group.isAllDay,
  timeZoneId: group.timeZoneId,
});

/** One of a user's keys (domain names; the admin API maps it to the spec's, decision 0017). */
export type AssignedEkey = {
  entryId: number;
  isGroup: boolean;
  /** The key's device; null for a group key. */
  device: { id: number; fullName: string } | null;
  group: ({ id: number; fullName: string } & GroupScheduleRow) | null;
  keyStatus: { title: string; img: string };
  accessType: Schedule["accessType"];
  /** The stored status code: '2' for a one-time key, '1' otherwise. */
  status: string;
  startDate: string | null;
  endDate: string | null;
  startTime: string | null;
  endTime: string | null;
  days: Schedule["days"];
  isNeverEnd: boolean;
  isAllDay: boolean;
  timeZoneId: number | null;
  /** The key's zone, else its group's. */
  timeZone: string | null;
  fobDeviceId: string | null;
  used: boolean;
  onHolidays: OnHolidays;
  holidayCalendarId: number | null;
};

/** A device reached through one of the user's group keys. */
export type GroupKeyDevice = { groupId: number; id: number; fullName: string };

/** The user's keys, and the devices reached through their group keys. */
export async function getAssignedEkeys(db: Db, auth: Auth, userId: number, today: string): Promise<{ keys: AssignedEkey[]; groupDevices: GroupKeyDevice[] }> {
  assertCan(auth, "users");
  await assertUser(db, auth, userId);
  const groupTz = sql<string | null>`(select name from time_zones where id = ${g.timeZoneId})`;
  const rows = await db
    .select({ key: k, device: { id: d.id, fullName: d.fullName }, group: g, zone: tz.name, groupZone: groupTz })
    .from(k)
    .leftJoin(d, eq(d.id, k.deviceId))
    .leftJoin(g, eq(g.id, k.groupId))
    .leftJoin(tz, eq(tz.id, k.timeZoneId))
    .where(inCompany(k, auth, eq(k.userId, userId)))
    .orderBy(asc(k.id));
  const keys = rows.map(({ key, device, group, zone, groupZone }): AssignedEkey => ({
    entryId: key.id,
    isGroup: key.isGroup,
    device: key.isGroup || !device ? null : device,
    group: group ? { id: group.id, fullName: group.fullName, ...groupScheduleOf(group) } : null,
    keyStatus: statusOf(key, today),
    accessType: key.accessType as Schedule["accessType"],
    status: key.status,
    startDate: key.startDate,
    endDate: key.endDate,
    startTime: key.startTime,
    endTime: key.endTime,
    days: textToDays(key.scheduleDays),
    isNeverEnd: key.isNeverEnd,
    isAllDay: key.isAllDay,
    timeZoneId: key.timeZoneId,
    timeZone: zone ?? groupZone,
    fobDeviceId: key.fobDeviceId,
    used: key.usedAt != null,
    onHolidays: key.onHolidays,
    holidayCalendarId: key.holidayCalendarId,
  }));
  const groupIds = keys.filter((x) => x.isGroup && x.group).map((x) => x.group!.id);
  const groupDevices = groupIds.length
    ? await db
        .select({ groupId: schema.deviceGroupMembers.groupId, id: d.id, fullName: d.fullName })
        .from(schema.deviceGroupMembers)
        .innerJoin(d, eq(d.id, schema.deviceGroupMembers.deviceId))
        .where(and(eq(schema.deviceGroupMembers.companyId, auth.company.id), inArray(schema.deviceGroupMembers.groupId, groupIds), isNull(d.deletedAt)))
        .orderBy(asc(d.fullName))
    : [];
  return { keys, groupDevices };
}

export type DeviceKeyOption = { id: number; fullName: string; displayName: string };
/** A group a key may give, with its schedule and the holiday choice a key left on "ignore" follows (decision 0077). */
export type GroupKeyOption = DeviceKeyOption & GroupScheduleRow & { timeZone: string | null; onHolidays: OnHolidays; holidayCalendarId: number | null };

/** Devices that can be assigned (configured ones). */
export async function getDeviceKeyOptions(db: Db, auth: Auth, userId: number): Promise<DeviceKeyOption[]> {
  assertCan(auth, "users");
  await assertUser(db, auth, userId);
  return db
    .select({ id: d.id, fullName: d.fullName, displayName: d.displayName })
    .from(d)
    .where(liveInCompany(d, auth, eq(d.status, "configured")))
    .orderBy(asc(d.fullName));
}

/** Device groups that can be assigned (not deactivated), with their schedules. */
export async function getGroupKeyOptions(db: Db, auth: Auth, userId: number): Promise<GroupKeyOption[]> {
  assertCan(auth, "users");
  await assertUser(db, auth, userId);
  const rows = await db
    .select({ group: g, zone: tz.name })
    .from(g)
    .leftJoin(tz, eq(tz.id, g.timeZoneId))
    .where(liveInCompany(g, auth, ne(g.status, DEACTIVATED)))
    .orderBy(asc(g.fullName));
  return rows.map(({ group, zone }) => ({
    id: group.id,
    fullName: group.fullName,
    displayName: group.displayName,
    ...groupScheduleOf(group),
    timeZone: zone,
    onHolidays: group.onHolidays as OnHolidays,
    holidayCalendarId: group.holidayCalendarId,
  }));
}

function invalid(fieldErrors: Record<string, string[]>): never {
  throw new ServiceError(400, Object.values(fieldErrors)[0][0], { fieldErrors });
}

/** What a key gives, checked: the device or group (of the caller's company) and its window (by the core). */
export type KeyPlan = {
  target: { deviceId: number | null; groupId: number | null; label: string };
  schedule: Schedule;
  zone: { id: number; name: string } | null;
  /** The holiday calendar the key follows, and how (decision 0077). */
  holidays?: { onHolidays: OnHolidays; calendarId: number | null };
};

/** The key's holiday choice, its calendar checked to be the caller's company's. */
async function planHolidays(db: Db, auth: Auth, input: Pick<KeySpec, "onHolidays" | "holidayCalendarId">): Promise<NonNullable<KeyPlan["holidays"]>> {
  if (input.onHolidays === "ignore") return { onHolidays: "ignore", calendarId: null };
  if (input.holidayCalendarId == null) invalid({ holidayCalendarId: [HOLIDAY_MSG.calendarRequired] });
  const cal = await db.query.holidayCalendars.findFirst({ where: inCompany(schema.holidayCalendars, auth, eq(schema.holidayCalendars.id, input.holidayCalendarId)) });
  if (!cal) invalid({ holidayCalendarId: [HOLIDAY_MSG.notFound] });
  return { onHolidays: input.onHolidays, calendarId: cal.id };
}

/**
 * A key to a device group: docs/ARCHITECTURE.md §7.2, custom access with the group's own schedule, never
 * ending. Also what a directory group's link grants (app/services/scim/grants.server.ts).
 */
export function groupKeyPlan(group: typeof g.$inferSelect, zone: KeyPlan["zone"], startDate: string): KeyPlan {
  return {
    schedule: {
      accessType: "custom_access",
      startDate,
      endDate: null,
      startTime: group.isAllDay ? null : group.startAt,
      endTime: group.isAllDay ? null : group.endAt,
      days: groupDays(group),
      isNeverEnd: true,
      isAllDay: group.isAllDay,
    },
    target: { deviceId: null, groupId: group.id, label: group.fullName },
    zone,
  };
}

/**
 * A permanent full-access key to one door: what the key panel's "Full access" gives (every day, all day,
 * never ending, no zone). Also what a users file's `e_keys` column gives (decision 0089).
 */
export function deviceKeyPlan(device: Pick<typeof d.$inferSelect, "id" | "fullName">): KeyPlan {
  return {
    schedule: {
      accessType: "full_access",
      startDate: null,
      endDate: null,
      startTime: null,
      endTime: null,
      days: [true, true, true, true, true, true, true],
      isNeverEnd: true,
      isAllDay: true,
    },
    target: { deviceId: device.id, groupId: null, label: device.fullName },
    zone: null,
  };
}

/** The key an assign input describes, whoever it is for; refused (400/404) before anything is written. */
export async function planKey(db: Db, auth: Auth, core: Core, input: KeySpec, now: number): Promise<KeyPlan> {
  if (input.keyId == null) invalid({ keyId: [EKEY_MSG.keyRequired] });
  const today = companyToday(auth, core, now);
  let schedule: Schedule;
  let zone: { id: number; name: string } | null = null;
  let target: { deviceId: number | null; groupId: number | null; label: string };
  if (input.type === "group") {
    // docs/ARCHITECTURE.md §7.2: a group forces custom access with the group's own schedule, never ending.
    const group = (await db.query.deviceGroups.findFirst({ where: liveInCompany(g, auth, eq(g.id, input.keyId)) })) ?? notFound("Device group not found");
    zone = group.timeZoneId ? ((await db.query.timeZones.findFirst({ where: eq(tz.id, group.timeZoneId) })) ?? null) : null;
    ({ schedule, target } = groupKeyPlan(group, zone, input.startDate ?? today));
  } else {
    const device = (await db.query.devices.findFirst({ where: liveInCompany(d, auth, eq(d.id, input.keyId)) })) ?? notFound(EKEY_MSG.notYourDevice);
    const full = input.accessType === "full_access";
    if (!full && input.zone != null) zone = (await db.query.timeZones.findFirst({ where: eq(tz.id, input.zone) })) ?? null;
    schedule = full
      ? deviceKeyPlan(device).schedule
      : {
          accessType: input.accessType,
          startDate: input.startDate,
          endDate: input.isNeverEnd ? null : input.endDate,
          startTime: input.isAllDay ? null : input.startTime,
          endTime: input.isAllDay ? null : input.endTime,
          days: input.days,
          isNeverEnd: input.isNeverEnd,
          isAllDay: input.isAllDay,
        };
    target = { deviceId: device.id, groupId: null, label: device.fullName };
  }

  const errors = windowErrors(core.validate(toWindow(schedule, zone?.name ?? null)));
  if (Object.keys(errors).length) invalid(errors);
  return { target, schedule, zone, holidays: await planHolidays(db, auth, input) };
}

/** The columns of a planned key (decision 0030: the feed row comes from the insert's trigger). */
export function keyValues({ target, schedule, zone, holidays }: KeyPlan, fob: string | null, now: number) {
  return {
    onHolidays: holidays?.onHolidays ?? "ignore",
    holidayCalendarId: holidays?.calendarId ?? null,
    isGroup: target.groupId != null,
    deviceId: target.deviceId,
    groupId: target.groupId,
    accessType: schedule.accessType,
    status: schedule.accessType === "one_time_access" ? "2" : "1",
    startDate: schedule.startDate,
    endDate: schedule.endDate,
    startTime: schedule.startTime,
    endTime: schedule.endTime,
    scheduleDays: daysToText(schedule.days),
    isNeverEnd: schedule.isNeverEnd,
    isAllDay: schedule.isAllDay,
    timeZoneId: schedule.accessType === "full_access" ? null : (zone?.id ?? null),
    fobDeviceId: fob,
    updatedAt: now,
  };
}

/** The row of a planned key and its audit entry. */
function keyRow(auth: Auth, plan: KeyPlan, userId: number, fob: string | null, now: number) {
  const { target, schedule } = plan;
  const values = keyValues(plan, fob, now);
  const audit = {
    companyId: auth.company.id,
    createdByUserId: auth.user.id,
    targetUserId: userId,
    targetDeviceId: target.deviceId,
    targetDeviceGroupId: target.groupId,
    summary: `${target.label}: ${schedule.accessType}`,
    at: now,
  };
  return { values, audit };
}

/** A new key for `userId`: the insert and its "eKey Assigned" entry, for the caller's batch. */
export function newKeyStatements(db: Db, auth: Auth, plan: KeyPlan, userId: number, now: number, fob: string | null = null) {
  const { values, audit } = keyRow(auth, plan, userId, fob, now);
  return [
    db
      .insert(k)
      .values({ ...values, companyId: auth.company.id, userId, createdAt: now })
      .returning({ id: k.id }),
    activityInsert(db, { ...audit, name: "eKey Assigned" }),
  ] as const;
}

/** POST /user/assignKeyToUser: a new entry, or the entry `entryId` modified. */
export async function assignKey(db: Db, auth: Auth, core: Core, input: KeyAssignment, now: number): Promise<{ message: string; entryId: number }> {
  assertCan(auth, "users", input.entryId ? "modify" : "add");
  const user = await assertUser(db, auth, input.userId);
  const existing = input.entryId ? await findEntry(db, auth, input.entryId) : null;
  if (existing && existing.userId !== user.id) throw new ServiceError(422, EKEY_MSG.notFound);
  const plan = await planKey(db, auth, core, input, now);
  const fob = input.fobNumber?.trim() || null;
  if (fob) await assertFobFree(db, auth, fob, user.id);
  if (existing) {
    const { values, audit } = keyRow(auth, plan, user.id, fob, now);
    await fobSafe(
      db.batch([
        db
          .update(k)
          .set({ ...values, usedAt: null })
          .where(inCompany(k, auth, eq(k.id, existing.id))),
        activityInsert(db, { ...audit, name: "eKey Modified" }),
      ]),
    );
    return { message: EKEY_MSG.modified, entryId: existing.id };
  }
  const [inserted] = await fobSafe(db.batch(newKeyStatements(db, auth, plan, user.id, now, fob)));
  return { message: EKEY_MSG.assigned, entryId: inserted[0].id };
}

/**
 * A fob number identifies one person at the company's doors, so it may ride on several keys of one
 * user but never on another user's (docs/decisions/0031-fobs-bound-to-keys.md).
 */
async function assertFobFree(db: Db, auth: Auth, fob: string, userId: number) {
  const taken = await db
    .select({ id: k.id })
    .from(k)
    .where(and(eq(k.companyId, auth.company.id), eq(k.fobDeviceId, fob), ne(k.userId, userId)))
    .limit(1);
  if (taken.length) throw new ServiceError(422, EKEY_MSG.fobTaken, { fieldErrors: { fobNumber: [EKEY_MSG.fobTaken] } });
}

/** The database refuses a taken fob too (a concurrent assignment): the same clear answer. */
async function fobSafe<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (e) {
    if (String((e as Error)?.message).includes("fob_taken")) throw new ServiceError(422, EKEY_MSG.fobTaken, { fieldErrors: { fobNumber: [EKEY_MSG.fobTaken] } });
    throw e;
  }
}

/** An entry of the caller's company; another company's entry is a 404, an unknown one a 422 (docs/ARCHITECTURE.md §7.2). */
async function findEntry(db: Db, auth: Auth, entryId: number) {
  const row = await db.query.ekeyAssignments.findFirst({ where: eq(k.id, entryId) });
  if (!row) throw new ServiceError(422, EKEY_MSG.notFound);
  if (row.companyId !== auth.company.id) notFound(EKEY_MSG.notFound);
  return row;
}

/** DELETE /user/deleteAssignedEkey and /user/deleteAssignedGroup. */
export async function removeKey(db: Db, auth: Auth, rawEntryId: string | undefined, kind: "device" | "group", now: number): Promise<{ message: string }> {
  assertCan(auth, "users", "delete");
  const entryId = Number(rawEntryId);
  if (!rawEntryId || !Number.isInteger(entryId) || entryId <= 0) throw new ServiceError(422, EKEY_MSG.notFound);
  const row = await findEntry(db, auth, entryId);
  if (row.isGroup !== (kind === "group")) throw new ServiceError(422, EKEY_MSG.notFound);
  await db.batch([
    db.delete(k).where(inCompany(k, auth, eq(k.id, row.id))),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "eKey Removed",
      createdByUserId: auth.user.id,
      targetUserId: row.userId,
      targetDeviceId: row.deviceId,
      targetDeviceGroupId: row.groupId,
      summary: row.accessType,
      at: now,
    }),
  ]);
  return { message: EKEY_MSG.removed };
}
