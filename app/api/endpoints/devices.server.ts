import { z } from "zod";
import { decideAtDoors, MAX_CHECKS } from "~/services/door-decision.server";
import { parseTableParams } from "~/components/data-table/params";
import { DEVICE_FILTER_KEYS, parseDeviceFilters } from "~/schemas/device-filters";
import { firmwareStartSchema } from "~/schemas/firmware-start";
import { startFirmwareUpdate } from "~/services/firmware-start.server";
import { DEVICE_SORTS, getDeviceDetails, getLastReportedLocation, listDevices, scheduleText, WEEKDAYS, type DeviceDetails, type DeviceListItem } from "~/services/devices.server";
import { bit, bitShape } from "../flags.server";
import { endpoint } from "../define.server";

const deviceId = z.object({ deviceId: z.coerce.number({ invalid_type_error: "deviceId must be a number" }).int().positive() });

const deviceRowShape = z.object({
  id: z.number(),
  full_name: z.string(),
  display_name: z.string(),
  serial_number: z.string(),
  status: z.enum(["stock", "unconfigured", "configured", "retired"]),
  createdAt: z.number(),
  lastActivity: z.number().nullable(),
  device_type: z.string(),
  online: bitShape.nullable().describe("null: no gateway ever reported this board"),
  online_since: z.number().nullable(),
  low_battery: bitShape,
  firmware_version: z.string().nullable(),
  firmware_pending: bitShape,
  door_state: z.enum(["open", "closed"]).nullable(),
  door_state_at: z.number().nullable(),
});
const deviceDetailsShape = z.object({
  id: z.number(),
  full_name: z.string(),
  display_name: z.string(),
  serial_number: z.string(),
  status: z.enum(["stock", "unconfigured", "configured", "retired"]),
  start_date: z.string().nullable(),
  createdAt: z.number(),
  installedAt: z.number().nullable(),
  lastActivity: z.number().nullable(),
  hardware_id: z.string(),
  device_type: z.string(),
  lock_type: z.string(),
  relock_trigger: z.string(),
  relock_timer: z.number().nullable(),
  held_open_seconds: z.number().nullable(),
  forced_alarm: z.boolean(),
  trigger_mode: z.string(),
  manual_lock: z.boolean(),
  sleep_mode: z.boolean(),
  sleep_time: z.number().nullable(),
  bluetooth_power_level: z.number(),
  dnort_time: z.number().nullable(),
  low_battery: z.boolean(),
  schedule_open: z.boolean().describe("Open on the company's schedule (its setting and the device's own flag)"),
  fpi: z.boolean(),
  schedule: z.record(z.string()).describe("By weekday: 'Closed', 'Open all day' or 'HH:MM - HH:MM'"),
  sensor1_open_name: z.string(),
  sensor1_close_name: z.string(),
  sensor2_open_name: z.string(),
  sensor2_close_name: z.string(),
  exceptions: z.array(z.object({ id: z.number(), exceptionDate: z.string(), openWholeDay: z.boolean(), openTime: z.string(), closeTime: z.string(), exceptionsDays: z.string() })),
  users: z.array(z.object({ user_id: z.number(), display_name: z.string() })),
  deviceGroup: z.array(z.object({ id: z.number(), full_name: z.string() })),
});

/** The spec's device fields (docs/ARCHITECTURE.md §8); schedule and exceptions only matter when scheduled open. */
function devicePayload(x: DeviceDetails) {
  const v = x.device;
  return {
    id: v.id,
    full_name: v.fullName,
    display_name: v.displayName,
    serial_number: v.serialNumber,
    status: v.status,
    start_date: v.startDate,
    createdAt: v.createdAt,
    installedAt: v.installedAt,
    lastActivity: v.lastActivityAt,
    hardware_id: v.hardwareId,
    device_type: x.deviceType,
    lock_type: v.lockType,
    relock_trigger: v.relockTrigger,
    relock_timer: v.relockTimer,
    held_open_seconds: v.heldOpenSeconds,
    forced_alarm: v.forcedAlarm,
    trigger_mode: v.triggerMode,
    manual_lock: v.manualLock,
    sleep_mode: v.sleepMode,
    sleep_time: v.sleepTime,
    bluetooth_power_level: v.bluetoothPowerLevel,
    dnort_time: v.dnortTime,
    low_battery: v.lowBattery,
    schedule_open: x.scheduledOpen,
    fpi: x.fpi,
    schedule: Object.fromEntries(WEEKDAYS.map((day, i) => [day, scheduleText(x.week.find((w) => w.day === i))])),
    sensor1_open_name: v.sensor1OpenName,
    sensor1_close_name: v.sensor1CloseName,
    sensor2_open_name: v.sensor2OpenName,
    sensor2_close_name: v.sensor2CloseName,
    exceptions: x.exceptions.map((e) => ({
      id: e.id,
      exceptionDate: e.date,
      openWholeDay: e.openWholeDay,
      openTime: e.openTime,
      closeTime: e.closeTime,
      exceptionsDays: scheduleText(e),
    })),
    users: x.users.map((h) => ({ user_id: h.id, display_name: h.displayName })),
    deviceGroup: x.groups.map((gr) => ({ id: gr.id, full_name: gr.fullName })),
  };
}

/** A row of the devices grid: the spec's grid names, then the live status (decision 0033). */
const deviceListPayload = (r: DeviceListItem) => ({
  id: r.id,
  full_name: r.fullName,
  display_name: r.displayName,
  serial_number: r.serialNumber,
  status: r.status,
  createdAt: r.createdAt,
  lastActivity: r.lastActivityAt,
  device_type: r.deviceType ?? "",
  online: r.online == null ? null : bit(r.online),
  online_since: r.onlineSince,
  low_battery: bit(r.lowBattery),
  firmware_version: r.firmwareVersion,
  firmware_pending: bit(r.firmwarePending),
  door_state: r.doorState,
  door_state_at: r.doorStateAt,
});

const listQuery = z.object({
  page: z.string().max(9).optional(),
  pageSize: z.string().max(9).optional(),
  sort: z.string().max(40).optional(),
  ...Object.fromEntries(DEVICE_FILTER_KEYS.map((k) => [k, z.string().max(100).optional()])),
});

const instant = z.union([
  z.number().int().min(0).max(8_640_000_000_000_000),
  z
    .string()
    .max(40)
    .refine((v) => Number.isFinite(Date.parse(v)), "at must be epoch milliseconds or an ISO-8601 instant"),
]);
const accessChecks = z.object({
  checks: z
    .array(
      z.object({
        deviceId: z.coerce.number().int().positive(),
        credential: z.object({ type: z.enum(["user", "fob", "phone"]), id: z.coerce.string().min(1).max(128) }),
        at: instant,
        /** Count this key alone, as a board does with a signed credential (which is for one key). */
        key: z.object({ id: z.coerce.string().min(1).max(32), kind: z.enum(["ekey", "group"]) }).optional(),
      }),
    )
    .min(1)
    .max(MAX_CHECKS),
  language: z.string().max(8).optional(),
});
const decisionShape = z.object({
  allowed: z.boolean(),
  code: z.string().nullable().describe("why not, as a stable code (the boards' denial codes); null when allowed"),
  key: z.object({ id: z.string(), kind: z.enum(["ekey", "group"]) }).nullable(),
  reason: z.string(),
  nextOpen: z.number().nullable(),
  userId: z.string().nullable(),
  scheduledOpen: z.boolean(),
});

const locationShape = z.object({ latitude: z.number().nullable(), longitude: z.number().nullable(), reportedAt: z.number().nullable() });

export const deviceEndpoints = [
  endpoint({
    method: "GET",
    path: "/device/getDevices",
    tag: "Devices",
    summary: `The devices grid: 25 a page (page is 1-based), sort one of ${DEVICE_SORTS.join(", ")} ("-" for descending), filters q (name or serial), type, group, online (1, 0 or never), battery (low, ok), door (open, closed), firmware=pending, schedule=open. Online is null for a board no gateway ever reported.`,
    auth: "token",
    permission: { modules: "devices" },
    query: listQuery,
    response: z.object({ payload: z.object({ rows: z.array(deviceRowShape), total: z.number(), page: z.number(), pageSize: z.number() }) }),
    async handler({ db, core, auth, query, now }) {
      const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === "string"));
      const params = parseTableParams(search, { defaultSort: "fullName", sortable: DEVICE_SORTS });
      const { rows, total } = await listDevices(db, auth, { ...params, filters: parseDeviceFilters(search) }, now, core);
      return { payload: { rows: rows.map(deviceListPayload), total, page: params.page, pageSize: params.pageSize } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getDeviceDetails",
    tag: "Devices",
    summary: "A device with its settings, the company's scheduled-open hours, key holders and groups. 404 outside the caller's company.",
    auth: "token",
    permission: { modules: "devices" },
    query: deviceId,
    response: z.object({ payload: deviceDetailsShape }),
    async handler({ db, auth, query }) {
      return { payload: devicePayload(await getDeviceDetails(db, auth, query.deviceId)) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getLastReportedLocation",
    tag: "Devices",
    summary: "The device's last reported position (nulls when it never reported one).",
    auth: "token",
    permission: { modules: "devices" },
    query: deviceId,
    response: z.object({ message: z.string(), payload: locationShape }),
    async handler({ db, auth, query }) {
      return { payload: await getLastReportedLocation(db, auth, query.deviceId) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/device/checkAccess",
    tag: "Devices",
    summary:
      "Would these credentials open these doors at these instants, and why (or when they next open)? Decided from the console's own records with the same rules and core as the gateways. Up to 500 checks; a door outside the caller's company is not enabled.",
    auth: "token",
    permission: { modules: "devices" },
    body: accessChecks,
    response: z.object({ message: z.string(), payload: z.array(decisionShape) }),
    async handler({ db, core, auth, body }) {
      const checks = body.checks.map((c) => ({ ...c, at: typeof c.at === "number" ? c.at : Date.parse(c.at) }));
      const lang = /^es/i.test(body.language ?? "") ? "es" : "en";
      return { payload: await decideAtDoors(db, core, auth, checks, lang) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/device/startFirmwareUpdate",
    tag: "Devices",
    summary:
      "Starts the firmware update of one of the company's devices: its gateway then offers the board its type's active release (decision 0116). Needs devices/modify and, when the company allows installers only, the installer privilege (403 errorCode firmware-installer-only). 409 when the company forces updates (firmware-forced), there is no active release for the device's type (firmware-none) or the device runs it (firmware-up-to-date); 404 outside the caller's company.",
    auth: "token",
    permission: { modules: "devices", action: "modify" },
    body: firmwareStartSchema,
    response: z.object({ message: z.string(), payload: z.object({ releaseId: z.number(), version: z.string() }) }),
    async handler({ db, auth, body, now }) {
      const r = await startFirmwareUpdate(db, auth, body, now);
      return { message: r.message, payload: { releaseId: r.releaseId, version: r.version } };
    },
  }),
];
