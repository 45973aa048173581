import { z } from "zod";
import { decideAtDoors, MAX_CHECKS } from "~/services/door-decision.server";
import { getDeviceDetails, getLastReportedLocation, scheduleText, WEEKDAYS, type DeviceDetails } from "~/services/devices.server";
import { endpoint } from "../define.server";

const deviceId = z.object({ deviceId: z.coerce.number({ invalid_type_error: "deviceId must be a number" }).int().positive() });

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
    path: "/user/getDeviceDetails",
    tag: "Devices",
    summary: "A device with its settings, the company's scheduled-open hours, key holders and groups. 404 outside the caller's company.",
    auth: "token",
    query: deviceId,
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
    body: accessChecks,
    response: z.object({ message: z.string(), payload: z.array(decisionShape) }),
    async handler({ db, core, auth, body }) {
      const checks = body.checks.map((c) => ({ ...c, at: typeof c.at === "number" ? c.at : Date.parse(c.at) }));
      const lang = /^es/i.test(body.language ?? "") ? "es" : "en";
      return { payload: await decideAtDoors(db, core, auth, checks, lang) };
    },
  }),
];
