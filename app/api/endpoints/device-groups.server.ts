import { z } from "zod";
import { addDevicesToGroupSchema } from "~/schemas/bulk";
import { ON_HOLIDAYS } from "~/schemas/holidays";
import { searchText } from "~/schemas/search";
import { checkGroup, clearTimes, groupFields, groupId, type GroupKey } from "~/schemas/device-groups";
import { nestDays, weekFlags, type Weekday } from "~/schemas/week";
import * as groups from "~/services/device-groups.server";
import type { DeviceOption, GroupRow } from "~/services/device-groups.server";
import { bit, bitShape } from "../flags.server";
import { endpoint } from "../define.server";
import { wireObject, withWireFields } from "../wire-fields.server";

const DAY_WIRE = {
  monday: "sch_monday",
  tuesday: "sch_tuesday",
  wednesday: "sch_wednesday",
  thursday: "sch_thursday",
  friday: "sch_friday",
  saturday: "sch_saturday",
  sunday: "sch_sunday",
} as const satisfies Record<Weekday, string>;

/** The group's domain fields in the spec's names; field errors go back under these. */
const GROUP_WIRE = {
  displayName: "display_name",
  fullName: "full_name",
  description: "description",
  startAt: "start_at",
  endAt: "end_at",
  allDay: "is_all_day",
  timeZoneId: "time_zone_id",
  deviceIds: "available_devices",
  status: "status",
  onHolidays: "on_holidays",
  holidayCalendarId: "holiday_calendar_id",
  days: "days",
  id: "id",
  ...DAY_WIRE,
} as const satisfies Record<GroupKey | Weekday | "id", string>;

/** The holiday choice's camelCase spellings (as the alerts' calls read them). */
function spellings(v: unknown) {
  if (!v || typeof v !== "object" || Array.isArray(v)) return v;
  const o = { ...(v as Record<string, unknown>) };
  o.on_holidays ??= o.onHolidays;
  o.holiday_calendar_id ??= o.holidayCalendarId;
  return o;
}

/** The spec's body is flat, a `sch_*` flag per day; the group nests them under `days`. */
const flatGroup = groupFields.omit({ days: true }).merge(weekFlags);

/** Create and modify bodies in the spec's names, checked as the page's form is, as the group the service takes. */
const createBody = z.preprocess(
  spellings,
  wireObject(flatGroup, GROUP_WIRE)
    .transform(nestDays)
    .superRefine((v, ctx) => checkGroup(v, ctx, true, (k) => GROUP_WIRE[k]))
    .transform(clearTimes),
);
const modifyBody = z.preprocess(
  spellings,
  wireObject(flatGroup.extend({ id: groupId }), GROUP_WIRE)
    .transform(nestDays)
    .superRefine((v, ctx) => checkGroup(v, ctx, false, (k) => GROUP_WIRE[k]))
    .transform(clearTimes),
);

const id = z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive();

/** A group in the spec's names (docs/ARCHITECTURE.md §8). */
export function groupPayload(r: GroupRow) {
  return {
    id: r.id,
    full_name: r.fullName,
    display_name: r.displayName,
    description: r.description,
    sch_monday: r.schMonday,
    sch_tuesday: r.schTuesday,
    sch_wednesday: r.schWednesday,
    sch_thursday: r.schThursday,
    sch_friday: r.schFriday,
    sch_saturday: r.schSaturday,
    sch_sunday: r.schSunday,
    start_at: r.startAt,
    end_at: r.endAt,
    is_all_day: bit(r.isAllDay),
    time_zone_id: r.timeZoneId,
    time_zone: r.timeZoneId == null ? null : { id: r.timeZoneId, full_time_zone: r.timeZoneLabel, name: r.timeZoneName },
    status: r.status,
    on_holidays: r.onHolidays,
    holiday_calendar_id: r.holidayCalendarId,
  };
}

const devicePayload = (x: DeviceOption) => ({ id: x.id, full_name: x.fullName, display_name: x.displayName, serial_number: x.serialNumber });

const ON_HOLIDAYS_DOC =
  "what the group's schedule does on a date of holiday_calendar_id (decision 0077): ignore (opens as on any day; the default), closed (not on holidays: opens only within a holiday's own open hours, if it has any) or holidayHours (opens within the holiday's open hours instead of its own, on its days); a group key whose own choice is ignore follows it, one with its own choice keeps that";
const HOLIDAY_CALENDAR_DOC = "the caller's company's holiday calendar the group's schedule follows; required unless on_holidays is ignore, null then";

const groupShape = z.object({
  id: z.number(),
  full_name: z.string(),
  display_name: z.string(),
  description: z.string(),
  sch_monday: z.boolean(),
  sch_tuesday: z.boolean(),
  sch_wednesday: z.boolean(),
  sch_thursday: z.boolean(),
  sch_friday: z.boolean(),
  sch_saturday: z.boolean(),
  sch_sunday: z.boolean(),
  start_at: z.string().nullable(),
  end_at: z.string().nullable(),
  is_all_day: bitShape,
  time_zone_id: z.number().nullable(),
  time_zone: z.object({ id: z.number(), full_time_zone: z.string().nullable(), name: z.string().nullable() }).nullable(),
  status: z.number(),
  on_holidays: z.enum(ON_HOLIDAYS).describe(ON_HOLIDAYS_DOC),
  holiday_calendar_id: z.number().nullable().describe(HOLIDAY_CALENDAR_DOC),
});
const deviceShape = z.object({ id: z.number(), full_name: z.string(), display_name: z.string(), serial_number: z.string() });

export const deviceGroupEndpoints = [
  endpoint({
    method: "GET",
    path: "/deviceGroup/getDeviceGroups",
    tag: "Device groups",
    summary:
      "Every device group of the caller's company (inactive ones have status 3), each with its holiday choice (on_holidays, holiday_calendar_id); optional q (or search): a full or display name prefix.",
    auth: "token",
    permission: { modules: "device_group" },
    query: z.object({ q: searchText.optional(), search: searchText.optional() }),
    response: z.object({ message: z.string(), payload: z.array(groupShape) }),
    async handler({ db, auth, query }) {
      return { payload: (await groups.allDeviceGroups(db, auth, query.q || query.search)).map(groupPayload) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/deviceGroup/getDeviceGroupDetails",
    tag: "Device groups",
    summary: "One group with the devices in it (deviceDetails) and its holiday choice (on_holidays, holiday_calendar_id). 404 outside the caller's company.",
    auth: "token",
    permission: { modules: "device_group" },
    query: z.object({ id }),
    response: z.object({ message: z.string(), payload: groupShape.extend({ deviceDetails: z.array(deviceShape) }) }),
    async handler({ db, auth, query }) {
      const { group, devices } = await groups.getDeviceGroupDetails(db, auth, query.id);
      return { payload: { ...groupPayload(group), deviceDetails: devices.map(devicePayload) } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/deviceGroup/getAvailableDevices",
    tag: "Device groups",
    summary: "The company's devices not in the group; every device without groupId or with groupId 0 (the add screen's group, not yet created).",
    auth: "token",
    permission: { modules: "device_group" },
    // 0 is the spec client's id of a group it has not created yet: no group, so every device.
    query: z.object({ groupId: z.coerce.number({ invalid_type_error: "groupId must be a number" }).int().nonnegative().optional() }),
    response: z.object({ message: z.string(), payload: z.array(deviceShape) }),
    async handler({ db, auth, query }) {
      return { payload: (await groups.getAvailableDevices(db, auth, query.groupId || undefined)).map(devicePayload) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/deviceGroup/createDeviceGroup",
    tag: "Device groups",
    summary:
      "Creates a group with its devices (available_devices: device ids). The group's schedule may follow one of the company's holiday calendars: `on_holidays` (ignore, closed: not on holidays, or holidayHours; onHolidays too) and `holiday_calendar_id` (holidayCalendarId), required unless ignore; its group keys whose own choice is ignore follow it. Another company's calendar or an unknown one is refused with 400 on holiday_calendar_id. Needs the add right.",
    auth: "token",
    permission: { modules: "device_group", action: "add" },
    body: createBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now, core }) {
      const newId = await withWireFields(GROUP_WIRE, () => groups.createDeviceGroup(db, auth, body, now, core));
      return { message: "Device Group Created", payload: { id: newId } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/deviceGroup/modifyDeviceGroup",
    tag: "Device groups",
    summary:
      "Saves a group; status 3 deactivates it (logged as de-activated). A body without on_holidays keeps the group's holiday choice; with it, as on create (another company's calendar is a 400). Needs the modify right.",
    auth: "token",
    permission: { modules: "device_group", action: "modify" },
    body: modifyBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), status: z.number() }) }),
    async handler({ db, auth, body, now, core }) {
      const r = await withWireFields(GROUP_WIRE, () => groups.modifyDeviceGroup(db, auth, body, now, core));
      return { message: r.message, payload: { id: body.id, status: r.status } };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/deleteDeviceGroup",
    tag: "Device groups",
    summary: "Removes a group, its memberships and the e-keys given on it. Needs the delete right.",
    auth: "token",
    permission: { modules: "device_group", action: "delete" },
    query: z.object({ id }),
    response: z.object({ message: z.string() }),
    async handler({ db, auth, query, now }) {
      await groups.deleteDeviceGroup(db, auth, query.id, now);
      return { message: "Removed Device Group" };
    },
  }),
  endpoint({
    method: "POST",
    path: "/deviceGroup/addDevicesToGroup",
    tag: "Device groups",
    summary: "Adds many devices (deviceIds) to a group in one batch; one result per id. Needs the modify right; a deactivated group is refused with 409.",
    auth: "token",
    permission: { modules: "device_group", action: "modify" },
    body: addDevicesToGroupSchema,
    response: z.object({
      message: z.string(),
      payload: z.array(z.object({ id: z.number(), name: z.string().nullable(), result: z.string(), message: z.string() })),
    }),
    async handler({ db, auth, body, now }) {
      const rows = await groups.addDevicesToGroup(db, auth, body, now);
      return {
        message: `${rows.filter((r) => r.outcome === "done").length} of ${rows.length} done`,
        payload: rows.map((r) => ({ id: r.id, name: r.name, result: r.outcome, message: r.message })),
      };
    },
  }),
];
