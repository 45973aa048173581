import { z } from "zod";
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
];
