/**
 * The device-group form (docs/ARCHITECTURE.md §7.2) in domain names; the admin API's endpoint file reads
 * the spec's names (`sch_monday`, `start_at`, ...) with the same field checks. Schedule rules the
 * access-window core also knows (equal times, unknown zone) are checked by the service through the core.
 */
import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { checkbox } from "./flag";
import { HOLIDAY_MSG, ON_HOLIDAYS } from "./holidays";
import { freeText, NAME_MAX, nameText } from "./text";
import { WEEKDAYS, weekFlags } from "./week";

/** Device-group status 3: deactivated (1 and 2 are active). */
export const DEACTIVATED = 3;

export const GROUP_MSG = {
  displayName: "Display name is required",
  fullName: "Full name is required",
  days: "Please select at least one day",
  devices: "Please select at least one device",
  timeZone: "Time zone is required",
  times: "Start and End time are required",
  time: "Time must be HH:mm",
  sameTimes: "End time must differ from start time",
  onHolidays: "On holidays must be ignore, closed or holidayHours",
} as const;

/** Accepts the spec's '1'/'0', JSON booleans and HTML checkbox values. */
const flag = checkbox();

/** HH:mm; a trailing ':ss' is dropped (the spec sends times without seconds). */
const time = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().replace(/^(\d{2}:\d{2}):\d{2}$/, "$1") : v == null ? "" : v),
  z.union([z.literal(""), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, GROUP_MSG.time)]),
);

const optionalId = z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().positive().optional());

/** Device ids: a JSON array, repeated form fields, a comma-separated string, or objects with an id. */
const deviceIds = z.preprocess((v) => {
  const list = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : v == null ? [] : [v];
  return list.map((x) => (x && typeof x === "object" && "id" in x ? (x as { id: unknown }).id : x)).filter((x) => x !== "" && x != null);
}, z.array(z.coerce.number().int().positive()));

/**
 * What the group's schedule does on a holiday of its calendar (decision 0077); absent (a client that does not
 * know the field) keeps what a saved group has, and a new one ignores holidays.
 */
const onHolidays = z.preprocess((v) => (v === "" || v == null ? undefined : v), z.enum(ON_HOLIDAYS, { errorMap: () => ({ message: GROUP_MSG.onHolidays }) }).optional());
/** The holiday calendar: an id or a numeric string (an object with an id too); empty is none. */
const calendarId = z.preprocess(
  (v) => {
    const x = v && typeof v === "object" && "id" in v ? (v as { id: unknown }).id : v;
    return x === "" || x == null || x === 0 || x === "0" ? null : x;
  },
  z.coerce
    .number({ invalid_type_error: HOLIDAY_MSG.notFound })
    .int(HOLIDAY_MSG.notFound)
    .positive(HOLIDAY_MSG.notFound)
    .max(Number.MAX_SAFE_INTEGER, HOLIDAY_MSG.notFound)
    .nullable(),
);

/** The group's fields one by one; the admin API reads the same fields in the spec's names. */
export const groupFields = z.object({
  displayName: nameText("Display name", NAME_MAX, GROUP_MSG.displayName),
  fullName: nameText("Full name", NAME_MAX, GROUP_MSG.fullName),
  description: freeText("Description", 1000).optional().default(""),
  // Nothing ticked posts no `days.*` field at all.
  days: weekFlags.default({}),
  startAt: time,
  endAt: time,
  allDay: flag,
  timeZoneId: optionalId,
  deviceIds,
  /** 1 or 2 active, 3 deactivated. Absent means active: 1 on create; on modify 3 returns to 1 and 1 or 2 is kept. */
  status: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().min(1).max(3).optional()),
  /** The holiday calendar the group's schedule follows and how; its keys that ignore holidays follow it (decision 0077). */
  onHolidays,
  holidayCalendarId: calendarId,
});
export const groupId = z.coerce.number().int().positive();
type Group = z.output<typeof groupFields>;
export type GroupKey = keyof Group;

/** The whole-group rules; `name` gives a field's name in the checked body. */
export function checkGroup(v: Group, ctx: z.RefinementCtx, requireZone: boolean, name: (key: GroupKey) => string = (k) => k) {
  if (!WEEKDAYS.some((d) => v.days[d])) ctx.addIssue({ code: "custom", path: [name("days")], message: GROUP_MSG.days });
  if (!v.allDay && (!v.startAt || !v.endAt)) {
    ctx.addIssue({ code: "custom", path: [name(v.startAt ? "endAt" : "startAt")], message: GROUP_MSG.times });
  }
  if (requireZone && v.timeZoneId == null) ctx.addIssue({ code: "custom", path: [name("timeZoneId")], message: GROUP_MSG.timeZone });
  if (v.deviceIds.length === 0) ctx.addIssue({ code: "custom", path: [name("deviceIds")], message: GROUP_MSG.devices });
  if (v.onHolidays && v.onHolidays !== "ignore" && v.holidayCalendarId == null)
    ctx.addIssue({ code: "custom", path: [name("holidayCalendarId")], message: HOLIDAY_MSG.calendarRequired });
}

/** All day clears both times, ignoring holidays the calendar (docs/ARCHITECTURE.md §7.2). */
export const clearTimes = <T extends Group>(v: T): T => {
  const w = v.onHolidays === "ignore" ? { ...v, holidayCalendarId: null } : v;
  return w.allDay ? { ...w, startAt: "", endAt: "" } : w;
};

export const createDeviceGroupSchema = readsPostedStrings(groupFields.superRefine((v, ctx) => checkGroup(v, ctx, true)).transform(clearTimes));

export const modifyDeviceGroupSchema = readsPostedStrings(
  groupFields
    .extend({ id: groupId })
    .superRefine((v, ctx) => checkGroup(v, ctx, false))
    .transform(clearTimes),
);

export type CreateDeviceGroupInput = z.infer<typeof createDeviceGroupSchema>;
export type ModifyDeviceGroupInput = z.infer<typeof modifyDeviceGroupSchema>;
