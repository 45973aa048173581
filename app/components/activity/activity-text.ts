/**
 * What an activity row says, in the reader's language: the catalogue name translated (a sensor's
 * custom name stays as the company wrote it), whether it granted or denied access, the gateway's
 * denial code as a reason, and a summary of device and e-key events built from the names it joins.
 */
import type { TFunction } from "i18next";
import { storedSummary } from "./stored-summaries";

/** What these read of a row: the service's whole row (details page) or a grid row (the list). */
type Row = {
  activityName: string;
  activityType: { name: string; type: string };
  details: Record<string, unknown>;
  summary: string;
  targetDevice: { fullName: string; displayName: string } | null;
  targetDeviceGroup: { fullName: string } | null;
};

const GRANTED = new Set(["Access Granted", "Unlocked With App", "Sentinel Unlock"]);
const DENIED = new Set(["Access Denied", "App Access Denied"]);
/** Device events whose summary is only the door's name and what happened (stored in English), by catalogue name. */
const SUMMARIES: Record<string, string> = {
  "Access Granted": "access_granted",
  "Access Denied": "access_denied",
  "Door Opened": "door_opened",
  "Door Closed": "door_closed",
  "Door Forced Open": "door_forced",
  "Door Held Open": "door_heldOpen",
  "Door Held Open Alarm": "alarm_heldOpen",
  "Door Forced Open Alarm": "alarm_forced",
  "Door Alarm Cleared": "alarm_cleared",
  "Panic Button Pressed": "panic_pressed",
};

export function activityLabel(t: TFunction, r: Row): string {
  const name = r.activityType.name;
  return r.activityName === name ? t(`name.${name}`, { defaultValue: name }) : r.activityName;
}

export function outcomeOf(r: Pick<Row, "activityType">): "granted" | "denied" | null {
  return GRANTED.has(r.activityType.name) ? "granted" : DENIED.has(r.activityType.name) ? "denied" : null;
}

/** What an entry's badge says: access granted or denied, or a door or board needing attention. */
export type Mark = "granted" | "denied" | "forced" | "heldOpen" | "tamper" | "lowBattery";

const ALARMS: Record<string, Mark> = { "Door Forced Open": "forced", "Door Held Open": "heldOpen", "Tamper Detected": "tamper", "Low Battery": "lowBattery" };

/** The badge of an entry, if any; a cleared tamper needs none. */
export function markOf(r: Pick<Row, "activityType" | "summary">): Mark | null {
  const mark = outcomeOf(r) ?? ALARMS[r.activityType.name] ?? null;
  return mark === "tamper" && /^Tamper cleared /.test(r.summary) ? null : mark;
}

/** The reason of a denial from its code (gateway/PROTOCOL.md "Denial codes"); an unknown code still reads as a denial. */
export function denialReason(t: TFunction, r: Row): string | null {
  if (outcomeOf(r) !== "denied") return null;
  const code = typeof r.details.code === "string" ? r.details.code : "";
  return t(`reason.${code}`, { defaultValue: t("reason.unknown") });
}

const EKEY_EVENTS = new Set(["eKey Assigned", "eKey Modified", "eKey Removed"]);
/** An e-key entry stores "<door or group>: <access code>" (or the code alone on removal), see services/ekeys.server.ts. */
const EKEY_SUMMARY = /^(?:(.*): )?(full_access|custom_access|one_time_access)$/s;

/** "Front Door: Custom" in the reader's language, naming the door or group as it is called now. */
function ekeySummary(t: TFunction, r: Row): string | null {
  const match = EKEY_SUMMARY.exec(r.summary);
  if (!match) return null;
  const target = r.targetDevice?.fullName || r.targetDevice?.displayName || r.targetDeviceGroup?.fullName || match[1];
  const access = t(`access.${match[2]}`);
  return target ? `${target}: ${access}` : access;
}

/** A summary that is only the event's catalogue name ("Low Battery"), stored in English, reads as the translated name. */
function nameAsSummary(t: TFunction, r: Row): string | null {
  const name = r.activityType.name;
  return r.summary === name ? t(`name.${name}`, { defaultValue: name }) : null;
}

export function summaryText(t: TFunction, r: Row): string {
  if (EKEY_EVENTS.has(r.activityType.name)) return ekeySummary(t, r) ?? r.summary;
  const key = SUMMARIES[r.activityType.name];
  if (!key || !r.targetDevice || r.activityType.type !== "Device") return storedSummary(t, r.activityType.name, r.summary) ?? nameAsSummary(t, r) ?? r.summary;
  const door = r.targetDevice.fullName || r.targetDevice.displayName;
  // A guest's entry names the guest from their visitor pass (a guest is no user).
  const guest = r.details.keyKind === "pass" && typeof r.details.guest === "string" ? r.details.guest : null;
  const text = guest && (key === "access_granted" || key === "access_denied") ? t(`summary.${key}_guest`, { door, guest }) : t(`summary.${key}`, { door });
  const reason = denialReason(t, r);
  return reason ? `${text}: ${reason}` : text;
}
