/**
 * The device-group form (docs/ARCHITECTURE.md §7.2), in the spec's wire names so the page form, the
 * service and the admin API share one schema. Schedule rules the access-window core also
 * knows (equal times, unknown zone) are checked by the service through the core.
 */
import { z } from "zod";
import { checkbox } from "./flag";
import { freeText, NAME_MAX, nameText } from "./text";

export const WEEKDAY_FIELDS = ["sch_monday", "sch_tuesday", "sch_wednesday", "sch_thursday", "sch_friday", "sch_saturday", "sch_sunday"] as const;
export type WeekdayField = (typeof WEEKDAY_FIELDS)[number];

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

const base = z.object({
  display_name: nameText("Display name", NAME_MAX, GROUP_MSG.displayName),
  full_name: nameText("Full name", NAME_MAX, GROUP_MSG.fullName),
  description: freeText("Description", 1000).optional().default(""),
  sch_monday: flag,
  sch_tuesday: flag,
  sch_wednesday: flag,
  sch_thursday: flag,
  sch_friday: flag,
  sch_saturday: flag,
  sch_sunday: flag,
  start_at: time,
  end_at: time,
  is_all_day: flag,
  time_zone_id: optionalId,
  available_devices: deviceIds,
  /** 1 or 2 active, 3 deactivated. Absent means active: 1 on create; on modify 3 returns to 1 and 1 or 2 is kept. */
  status: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().min(1).max(3).optional()),
});

type Base = z.infer<typeof base>;

function checkGroup(v: Base, ctx: z.RefinementCtx, requireZone: boolean) {
  if (!WEEKDAY_FIELDS.some((d) => v[d])) ctx.addIssue({ code: "custom", path: ["days"], message: GROUP_MSG.days });
  if (!v.is_all_day && (!v.start_at || !v.end_at)) {
    ctx.addIssue({ code: "custom", path: [v.start_at ? "end_at" : "start_at"], message: GROUP_MSG.times });
  }
  if (requireZone && v.time_zone_id == null) ctx.addIssue({ code: "custom", path: ["time_zone_id"], message: GROUP_MSG.timeZone });
  if (v.available_devices.length === 0) ctx.addIssue({ code: "custom", path: ["available_devices"], message: GROUP_MSG.devices });
}

/** All day clears both times (docs/ARCHITECTURE.md §7.2). */
const clearTimes = <T extends Base>(v: T): T => (v.is_all_day ? { ...v, start_at: "", end_at: "" } : v);

export const createDeviceGroupSchema = base.superRefine((v, ctx) => checkGroup(v, ctx, true)).transform(clearTimes);

export const modifyDeviceGroupSchema = base
  .extend({ id: z.coerce.number().int().positive() })
  .superRefine((v, ctx) => checkGroup(v, ctx, false))
  .transform(clearTimes);

export type CreateDeviceGroupInput = z.infer<typeof createDeviceGroupSchema>;
export type ModifyDeviceGroupInput = z.infer<typeof modifyDeviceGroupSchema>;
