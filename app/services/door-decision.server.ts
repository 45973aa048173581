/**
 * The console's own answer to "would this credential open this door at this instant, and why": read
 * from the console's tables (not from the change feed), with the windows built as the e-key form and
 * its preview build them, and decided by the same core the gateways run. The rules, in order:
 *   1. an unknown or deleted door is not enabled;
 *   2. a deactivated or deleted company opens none of its doors;
 *   3. only a configured door is enabled (stock, unconfigured and retired are not: decision 0022);
 *   4. the credential names a user of the door's company (a user id, a phone bound to the user, or a
 *      fob given with one of the user's keys), else it is unknown;
 *   5. a deactivated user is refused;
 *   L. a lockdown or evacuation in force whose scope covers the door (decision 0083, `lockdownAt`):
 *      evacuation opens for any credential once the door and company are in service (after 3);
 *      lockdown refuses a user who is not exempt (after 5) with code `lockdown`;
 *   6. the core decides over the user's keys for the door: e-keys on it and keys of its live groups;
 *      a fob counts only the keys it was given with.
 * The gateway applies the same rules to its copy (gateway/src/access/decide.js), and
 * tests/door-path/differential.test.mjs checks that both answer alike after every kind of change.
 */
import { and, eq, isNull, ne } from "drizzle-orm";
import { groupKeyHolidayChoice } from "./group-key-holidays";
import type { AccessWindow, Core, EKeyWindow, GroupWindow, ScheduledOpenWindow } from "~core";
import { DEACTIVATED } from "~/schemas/device-groups";
import { textToDays, toWindow, type AccessType } from "~/schemas/ekeys";
import { holidayFields, type StoredHolidayDate } from "~/schemas/holidays";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { isInForce, lockdownIds } from "./lockdown.server";

export type Credential = { type: "user" | "fob" | "phone"; id: string };
/** `key`: count that key alone (a signed credential is for one key; the gateway's `decideSigned` does the same). */
export type AccessCheck = { deviceId: number; credential: Credential; at: number; key?: { id: string; kind: "ekey" | "group" } };
/** The machine codes boards receive beside the reason (gateway/PROTOCOL.md, "Denial codes"). */
export type DenialCode =
  | "lockdown"
  | "door_disabled"
  | "company_inactive"
  | "unknown_credential"
  | "user_inactive"
  | "no_key"
  | "outside_schedule"
  | "not_yet_valid"
  | "expired"
  | "key_used"
  | "invalid_key";
export type DoorDecision = {
  allowed: boolean;
  /** Why not, as a stable code; null when allowed. */
  code: DenialCode | null;
  key: { id: string; kind: "ekey" | "group" } | null;
  reason: string;
  /** When a closed key opens next (epoch ms), as the core worked it out; null when never or unknown. */
  nextOpen: number | null;
  userId: string | null;
  /** Whether the door is held unlocked at that instant: by the company's scheduled-open hours, never during a lockdown, always during an evacuation (decision 0087). */
  scheduledOpen: boolean;
};

/** Most checks one call answers: a page of doors × credentials × instants. */
export const MAX_CHECKS = 500;

type KeyRow = typeof schema.ekeyAssignments.$inferSelect;
type GroupRow = typeof schema.deviceGroups.$inferSelect;

type SettingsRow = typeof schema.companySettings.$inferSelect;
type OpenDayRow = typeof schema.scheduleOpenDays.$inferSelect;
type OpenExceptionRow = typeof schema.scheduleOpenExceptions.$inferSelect;

/** The statements both loaders below read the scheduled-open hours with (they go into one batch each). */
function scheduleQueries(db: Db, companyId: number) {
  const s = schema;
  return [
    db
      .select({ live: isNull(s.companies.deletedAt), off: s.companies.isDeactive, cell: s.companies.cell })
      .from(s.companies)
      .where(eq(s.companies.id, companyId)),
    db.select().from(s.companySettings).where(eq(s.companySettings.companyId, companyId)),
    db.select().from(s.scheduleOpenDays).where(eq(s.scheduleOpenDays.companyId, companyId)),
    db.select().from(s.scheduleOpenExceptions).where(eq(s.scheduleOpenExceptions.companyId, companyId)),
    db.select({ at: s.companyFirstEntries.at }).from(s.companyFirstEntries).where(eq(s.companyFirstEntries.companyId, companyId)),
    db
      .select({
        calendarId: s.holidayDates.calendarId,
        date: s.holidayDates.date,
        name: s.holidayDates.name,
        openTime: s.holidayDates.openTime,
        closeTime: s.holidayDates.closeTime,
      })
      .from(s.holidayDates)
      .where(eq(s.holidayDates.companyId, companyId)),
  ] as const;
}

/** The company's holiday dates by calendar (decision 0077): what the windows that follow a calendar carry. */
export type HolidaysOf = (calendarId: number | null) => StoredHolidayDate[] | undefined;
function holidaysByCalendar(rows: (StoredHolidayDate & { calendarId: number })[]): HolidaysOf {
  const byCalendar = new Map<number, StoredHolidayDate[]>();
  for (const { calendarId, ...d } of rows) byCalendar.set(calendarId, [...(byCalendar.get(calendarId) ?? []), d]);
  // A calendar that exists but holds no dates yet still means "follows a calendar": an empty list.
  return (id) => (id == null ? undefined : (byCalendar.get(id) ?? []));
}

/** The company's scheduled-open window in its default zone, or null when the hours are off. */
function scheduleWindow(
  settings: SettingsRow | undefined,
  tz: string,
  dayRows: OpenDayRow[],
  exceptionRows: OpenExceptionRow[],
  firstEntryAt: number | null,
  holidaysOf: HolidaysOf,
): ScheduledOpenWindow | null {
  if (!settings?.scheduleOpen) return null;
  const closed = { openWholeDay: false, openTime: "", closeTime: "" };
  return {
    ...holidayFields(settings.onHolidays, holidaysOf(settings.holidayCalendarId)),
    kind: "scheduledOpen",
    tz,
    fpi: settings.fpi,
    firstEntryAt,
    week: Array.from({ length: 7 }, (_, day) => {
      const row = dayRows.find((r) => r.day === day);
      return row ? { openWholeDay: row.openWholeDay, openTime: row.openTime, closeTime: row.closeTime } : closed;
    }),
    exceptions: exceptionRows.map((e) => ({ date: e.date, openWholeDay: e.openWholeDay, openTime: e.openTime, closeTime: e.closeTime })),
  };
}

/**
 * Only what "are the company's doors held open by its hours now" reads: whether the company is live,
 * and its scheduled-open window (a handful of rows, where `loadCompany` reads every user and key).
 */
export async function loadScheduledOpen(db: Db, companyId: number): Promise<{ live: boolean; schedule: ScheduledOpenWindow | null }> {
  const s = schema;
  const [[company], [settings], dayRows, exceptionRows, [firstEntry], holidayRows, [zone]] = await db.batch([
    ...scheduleQueries(db, companyId),
    db
      .select({ name: s.timeZones.name })
      .from(s.timeZones)
      .innerJoin(s.companySettings, eq(s.companySettings.defaultTimeZoneId, s.timeZones.id))
      .where(eq(s.companySettings.companyId, companyId)),
  ]);
  return {
    live: Boolean(company?.live) && !company?.off,
    schedule: scheduleWindow(settings, zone?.name || "UTC", dayRows, exceptionRows, firstEntry?.at ?? null, holidaysByCalendar(holidayRows)),
  };
}

/**
 * Everything of one company a decision reads, loaded once per call. `only`: one person's view, for the
 * phone's calls, which need that person's keys and not every user and key of the company.
 */
export async function loadCompany(db: Db, companyId: number, only?: { userId: number }) {
  const s = schema;
  const [[company], [settings], dayRows, exceptionRows, [firstEntry], holidayRows, [lockdown], devices, members, groups, users, keys, zones] = await db.batch([
    ...scheduleQueries(db, companyId),
    db.select().from(s.companyLockdowns).where(eq(s.companyLockdowns.companyId, companyId)),
    db
      .select()
      .from(s.devices)
      .where(and(eq(s.devices.companyId, companyId), isNull(s.devices.deletedAt))),
    db.select().from(s.deviceGroupMembers).where(eq(s.deviceGroupMembers.companyId, companyId)),
    db
      .select()
      .from(s.deviceGroups)
      .where(and(eq(s.deviceGroups.companyId, companyId), isNull(s.deviceGroups.deletedAt), ne(s.deviceGroups.status, DEACTIVATED))),
    db
      .select()
      .from(s.users)
      .where(and(eq(s.users.companyId, companyId), isNull(s.users.deletedAt), only && eq(s.users.id, only.userId))),
    db
      .select()
      .from(s.ekeyAssignments)
      .where(and(eq(s.ekeyAssignments.companyId, companyId), only && eq(s.ekeyAssignments.userId, only.userId))),
    db.select({ id: s.timeZones.id, name: s.timeZones.name }).from(s.timeZones),
  ]);
  const zone = new Map(zones.map((z) => [z.id, z.name]));
  const defaultZone = (settings?.defaultTimeZoneId != null && zone.get(settings.defaultTimeZoneId)) || "UTC";
  const zoneOf = (id: number | null) => (id != null && zone.get(id)) || defaultZone;
  const liveGroups = new Map(groups.map((g) => [g.id, g]));
  const groupsOfDevice = new Map<number, number[]>();
  for (const m of members) if (liveGroups.has(m.groupId)) groupsOfDevice.set(m.deviceId, [...(groupsOfDevice.get(m.deviceId) ?? []), m.groupId]);

  const holidaysOf = holidaysByCalendar(holidayRows);
  const schedule = scheduleWindow(settings, defaultZone, dayRows, exceptionRows, firstEntry?.at ?? null, holidaysOf);
  return {
    live: Boolean(company?.live) && !company?.off,
    /** The company's cell, whose key signs its phones' credentials (app/services/credential-keys.server.ts). */
    cell: company?.cell ?? "main",
    devices: new Map(devices.map((d) => [d.id, d])),
    users: new Map(users.map((u) => [u.id, u])),
    keys,
    // Credentials by number, built once per call. Only keys that can open something carry their fob:
    // a group key of a deactivated group is not one.
    fobOwner: new Map(keys.filter((k) => k.fobDeviceId && (!k.isGroup || (k.groupId != null && liveGroups.has(k.groupId)))).map((k) => [k.fobDeviceId!, k.userId])),
    phoneOwner: new Map(users.filter((u) => u.boundDeviceId).map((u) => [u.boundDeviceId!, u])),
    liveGroups,
    groupsOfDevice,
    zoneOf,
    holidaysOf,
    schedule,
    lockdown: lockdown
      ? { ...lockdown, scopeIds: lockdownIds(lockdown.scopeIds), exemptUserIds: lockdownIds(lockdown.exemptUserIds), exemptRoleIds: lockdownIds(lockdown.exemptRoleIds) }
      : null,
  };
}
export type CompanyState = Awaited<ReturnType<typeof loadCompany>>;

/** An e-key's window exactly as the e-key form and its preview build it. */
export function ekeyWindow(k: KeyRow, state: CompanyState): EKeyWindow {
  const schedule = {
    accessType: k.accessType as AccessType,
    startDate: k.startDate,
    endDate: k.endDate,
    startTime: k.startTime,
    endTime: k.endTime,
    days: textToDays(k.scheduleDays),
    isNeverEnd: k.isNeverEnd,
    isAllDay: k.isAllDay,
  };
  return toWindow(schedule, state.zoneOf(k.timeZoneId), k.usedAt != null, keyHolidays(k, state.holidaysOf));
}

/**
 * The holiday fields of a key's window (decision 0077): its calendar's dates inside the key's own date range.
 * The change feed builds the gateways' copy with the same function (app/services/gateway-feed.server.ts).
 */
export function keyHolidays(k: Pick<KeyRow, "onHolidays" | "holidayCalendarId" | "startDate" | "endDate" | "isNeverEnd" | "accessType" | "isGroup">, holidaysOf: HolidaysOf) {
  const dated = k.isGroup || k.accessType !== "full_access";
  return holidayFields(k.onHolidays, holidaysOf(k.holidayCalendarId), dated ? k.startDate : null, dated && !k.isGroup && !k.isNeverEnd ? k.endDate : null);
}

/**
 * The holiday fields of a group key's window: `keyHolidays` over the choice `groupKeyHolidayChoice` picks. The
 * console's decisions, the phone's credentials and the change feed's groupKey records all build them here.
 */
export function groupKeyHolidays(
  k: Pick<KeyRow, "onHolidays" | "holidayCalendarId" | "startDate" | "endDate" | "isNeverEnd" | "accessType" | "isGroup">,
  g: Pick<GroupRow, "onHolidays" | "holidayCalendarId">,
  holidaysOf: HolidaysOf,
) {
  return keyHolidays({ ...k, ...groupKeyHolidayChoice(k, g) }, holidaysOf);
}

/** A group key: the group's weekly window, from the assignment's start date when it has one. */
export function groupKeyWindow(k: KeyRow, g: GroupRow, state: CompanyState): AccessWindow {
  const days = [g.schMonday, g.schTuesday, g.schWednesday, g.schThursday, g.schFriday, g.schSaturday, g.schSunday] as GroupWindow["days"];
  const times = { allDay: g.isAllDay, startTime: g.isAllDay ? null : g.startAt, endTime: g.isAllDay ? null : g.endAt };
  const tz = state.zoneOf(g.timeZoneId);
  const holidays = groupKeyHolidays(k, g, state.holidaysOf);
  if (!k.startDate) return { kind: "group", tz, days, ...times, ...holidays };
  return { kind: "ekey", access: "custom", tz, startDate: k.startDate, endDate: null, days, ...times, used: false, ...holidays };
}

function resolveUser(state: CompanyState, { type, id }: Credential) {
  if (type === "user") return { user: /^\d+$/.test(id) ? state.users.get(Number(id)) : undefined };
  if (type === "phone") return { user: state.phoneOwner.get(id) };
  const owner = state.fobOwner.get(id);
  return { user: owner === undefined ? undefined : state.users.get(owner), fob: id };
}

/**
 * The company's lockdown when it is in force at `at` and covers the door, else null: the rule the gateway
 * applies to its copy (gateway/src/access/lockdown.js `lockdownAt`). In force means started, not ended, and
 * `at` before its automatic end; the scope is the company, the door itself, or one of the door's live groups.
 */
function lockdownAt(state: CompanyState, deviceId: number, at: number) {
  const l = state.lockdown;
  if (!l || !isInForce(l, at)) return null;
  if (l.scope === "company") return l;
  if (l.scope === "doors") return l.scopeIds.includes(deviceId) ? l : null;
  return (state.groupsOfDevice.get(deviceId) ?? []).some((g) => l.scopeIds.includes(g)) ? l : null;
}

/**
 * Whether a door in service is held unlocked at `at` (decision 0087): during an evacuation covering it, yes;
 * during a lockdown covering it, no; otherwise as the company's hours say, for a door that follows them. The
 * gateway decides the same for what it tells the boards (gateway/src/access/scheduled-open.js `heldOpenAt`).
 */
function heldOpen(core: Core, state: CompanyState, device: { scheduleOpen: boolean }, lockdown: ReturnType<typeof lockdownAt>, at: number): boolean {
  if (!state.live) return false;
  if (lockdown) return lockdown.mode === "evacuation";
  return Boolean(device.scheduleOpen && state.schedule && core.isOpen(state.schedule, at));
}

const byKindAndId = (a: { kind: string; id: string }, b: { kind: string; id: string }) => a.kind.localeCompare(b.kind) || Number(a.id) - Number(b.id);

function decideOne(core: Core, state: CompanyState, check: AccessCheck, lang: "en" | "es"): DoorDecision {
  const device = state.devices.get(check.deviceId);
  const inService = device != null && device.status === "configured";
  const lockdown = device ? lockdownAt(state, device.id, check.at) : null;
  const scheduledOpen = inService && heldOpen(core, state, device, lockdown, check.at);
  const deny = (code: DenialCode, reason: string, userId: string | null = null): DoorDecision => ({
    allowed: false,
    code,
    key: null,
    reason,
    nextOpen: null,
    userId,
    scheduledOpen,
  });
  if (!device) return deny("door_disabled", "This door is not enabled");
  if (!state.live) return deny("company_inactive", "Company is deactivated");
  if (!inService) return deny("door_disabled", "This door is not enabled");
  const { user, fob } = resolveUser(state, check.credential);
  if (lockdown?.mode === "evacuation")
    return { allowed: true, code: null, key: null, reason: "Evacuation: door unlocked", nextOpen: null, userId: user ? String(user.id) : null, scheduledOpen };
  if (!user) return deny("unknown_credential", "Unknown credential");
  if (user.isInactive) return deny("user_inactive", "User is deactivated", String(user.id));
  if (lockdown && !lockdown.exemptUserIds.includes(user.id) && !(user.roleId != null && lockdown.exemptRoleIds.includes(user.roleId)))
    return deny("lockdown", "Lockdown in progress", String(user.id));
  const groups = new Set(state.groupsOfDevice.get(device.id) ?? []);
  const only = check.key;
  const mine = state.keys.filter(
    (k) => k.userId === user.id && (fob === undefined || k.fobDeviceId === fob) && (!only || (String(k.id) === only.id && k.isGroup === (only.kind === "group"))),
  );
  // In the gateway's order (e-keys, then group keys, each by id): of keys that open again at the same
  // instant the core names the first, and the denial's code is that key's.
  const keys = [
    ...mine.filter((k) => !k.isGroup && k.deviceId === device.id).map((k) => ({ id: String(k.id), kind: "ekey" as const, window: ekeyWindow(k, state) })),
    ...mine
      .filter((k) => k.isGroup && k.groupId != null && groups.has(k.groupId))
      .map((k) => ({ id: String(k.id), kind: "group" as const, window: groupKeyWindow(k, state.liveGroups.get(k.groupId!)!, state) })),
  ].sort(byKindAndId);
  const d = core.decide(
    keys.map((k, i) => ({ id: i, label: k.id, window: k.window })),
    check.at,
    { lang },
  );
  const key = d.allowed && d.key ? keys[Number(d.key.id)] : undefined;
  const about = !d.allowed && d.key ? keys[Number(d.key.id)] : undefined;
  return {
    allowed: Boolean(d.allowed),
    code: d.allowed ? null : denialCode(core, about?.window, check.at, d.nextOpen ?? null),
    key: key ? { id: key.id, kind: key.kind } : null,
    reason: String(d.reason ?? ""),
    nextOpen: d.allowed ? null : (d.nextOpen ?? null),
    userId: String(user.id),
    scheduledOpen,
  };
}

/**
 * The code of a denial by the windows, from the key the core's reason is about (the one that opens
 * soonest, or the first when none opens again): the same rules as the gateway's.
 */
function denialCode(core: Core, about: AccessWindow | undefined, at: number, nextOpen: number | null): DenialCode {
  if (!about) return "no_key";
  if (core.validate(about).length) return "invalid_key";
  if (about.kind !== "ekey") return "outside_schedule";
  if (about.access === "oneTime" && about.used) return "key_used";
  // A full-access key has no dates to be before or after (the feed's copy of it still carries them).
  if (about.access === "full") return "outside_schedule";
  const today = about.startDate || about.endDate ? core.formatLocal(at, about.tz).slice(0, 10) : "";
  if (about.startDate && today < about.startDate) return "not_yet_valid";
  if (nextOpen == null && about.endDate && today > about.endDate) return "expired";
  return "outside_schedule";
}

/** Decides each check at a door of the caller's company; a door of another company is "not enabled". */
export async function decideAtDoors(db: Db, core: Core, auth: Auth, checks: AccessCheck[], lang: "en" | "es" = "en"): Promise<DoorDecision[]> {
  assertCan(auth, "devices");
  const state = await loadCompany(db, auth.company.id);
  return checks.map((c) => decideOne(core, state, c, lang));
}
