import type { TFunction } from "i18next";
import type { DeviceDetails } from "~/services/devices.server";
import { formatDate, formatZonedTime } from "~/utils/format";
import type { DetailItem } from "./detail-list";

type Device = DeviceDetails["device"];

/** The stored trigger is a code ("Timer", "Door Close"): shown in the reader's language. */
const relockTrigger = (t: TFunction, code: string) => t(`details.relockTrigger.${code.replace(/\s+/g, "")}`, { defaultValue: code });

/**
 * The device's fields in the spec's order, with its conditional rules (docs/ARCHITECTURE.md §7.1), and
 * the date it was added (a column the list hides on narrow screens). Times are in the company's zone `tz`, labelled, dates in the reader's `language`.
 */
export function deviceSettingItems(t: TFunction, device: Device, deviceType: string, scheduledOpen: boolean, fpi: boolean, tz: string, language: string): DetailItem[] {
  const yesNo = (v: boolean) => (v ? t("yes") : t("no"));
  const seconds = (v: number | null) => (v == null ? "" : t("details.seconds", { count: v }));
  const timer = device.relockTrigger === "Timer";
  const items: (DetailItem | false)[] = [
    { key: "fullName", label: t("details.fullName"), value: device.fullName },
    { key: "displayName", label: t("details.displayName"), value: device.displayName },
    { key: "installedAt", label: t("details.installedAt"), value: formatDate(device.installedAt, tz, language) },
    { key: "serialNumber", label: t("details.serialNumber"), value: device.serialNumber },
    { key: "createdAt", label: t("col.createdAt"), value: formatZonedTime(device.createdAt, tz, language) },
    { key: "hardwareId", label: t("details.hardwareId"), value: device.hardwareId },
    { key: "deviceType", label: t("details.deviceType"), value: deviceType },
    { key: "lockType", label: t("details.lockType"), value: device.lockType && t(`lifecycle:lockTypes.${device.lockType}`, { defaultValue: device.lockType }) },
    { key: "relockTrigger", label: t("details.relockTrigger"), value: relockTrigger(t, device.relockTrigger) },
    timer
      ? { key: "relockTime", label: t("details.relockTime"), value: seconds(device.relockTimer) }
      : { key: "triggerMode", label: t("details.triggerMode"), value: device.triggerMode },
    { key: "manualUnlock", label: t("details.manualUnlock"), value: yesNo(device.manualLock) },
    { key: "heldOpenAlarm", label: t("details.heldOpenAlarm"), value: device.heldOpenSeconds == null ? t("details.alarmOff") : seconds(device.heldOpenSeconds) },
    { key: "forcedAlarm", label: t("details.forcedAlarm"), value: yesNo(device.forcedAlarm) },
    device.sleepMode && device.sleepTime != null && { key: "sleepTime", label: t("details.sleepTime"), value: seconds(device.sleepTime) },
    { key: "bluetoothPower", label: t("details.bluetoothPower"), value: device.bluetoothPowerLevel },
    !timer && { key: "dnortTime", label: t("details.dnortTime"), value: seconds(device.dnortTime) },
    { key: "battery", label: t("details.battery"), value: device.lowBattery ? t("details.batteryLow") : t("details.batteryGood") },
    {
      key: "location",
      label: t("details.location"),
      value:
        device.lastLatitude == null || device.lastLongitude == null
          ? t("details.noLocation")
          : t("details.locationAt", { lat: device.lastLatitude.toFixed(5), lon: device.lastLongitude.toFixed(5), at: formatZonedTime(device.lastLocationAt, tz, language) }),
    },
    { key: "scheduledOpen", label: t("details.scheduledOpen"), value: yesNo(scheduledOpen) },
    scheduledOpen && { key: "fpi", label: t("details.fpi"), value: yesNo(fpi) },
    { key: "sensor1Open", label: t("details.sensor1Open"), value: device.sensor1OpenName },
    { key: "sensor1Close", label: t("details.sensor1Close"), value: device.sensor1CloseName },
    { key: "sensor2Open", label: t("details.sensor2Open"), value: device.sensor2OpenName },
    { key: "sensor2Close", label: t("details.sensor2Close"), value: device.sensor2CloseName },
  ];
  return items.filter((i): i is DetailItem => i !== false);
}
