import { scheduleForAccess, type Schedule } from "~/schemas/ekeys";
import type { OnHolidays } from "~/schemas/holidays";
import type { AssignedKey, GroupOption, PanelData } from "./types";

/** The key being assigned or modified, as the panel edits it. */
export type Draft = {
  type: "device" | "group";
  keyId: number | null;
  schedule: Schedule;
  zoneId: number | null;
  entryId: number | null;
  fob: string;
  /** The holiday calendar the key follows, and how (decision 0077). */
  onHolidays: OnHolidays;
  calendarId: number | null;
};

/** A fresh assignment: a device key with full access in the company's zone. */
export const freshDraft = (data: PanelData): Draft => ({
  type: "device",
  keyId: null,
  schedule: scheduleForAccess("full_access", data.today),
  zoneId: data.defaultZoneId,
  entryId: null,
  fob: "",
  onHolidays: "ignore",
  calendarId: null,
});

/** docs/ARCHITECTURE.md §7.2: a group forces custom access with the group's schedule, never ending. */
export const groupSchedule = (g: GroupOption, today: string): Schedule => ({
  accessType: "custom_access",
  startDate: today,
  endDate: null,
  startTime: g.isAllDay ? null : g.startAt,
  endTime: g.isAllDay ? null : g.endAt,
  days: g.days,
  isNeverEnd: true,
  isAllDay: g.isAllDay,
});

/** An assigned key, loaded into the panel to be modified. */
export const draftOfKey = (k: AssignedKey, defaultZoneId: number | null): Draft => ({
  entryId: k.entryId,
  type: k.isGroup ? "group" : "device",
  keyId: k.isGroup ? (k.group?.id ?? null) : (k.device?.id ?? null),
  zoneId: k.timeZoneId ?? defaultZoneId,
  fob: k.fobDeviceId ?? "",
  onHolidays: k.onHolidays,
  calendarId: k.holidayCalendarId,
  schedule: {
    accessType: k.accessType,
    startDate: k.startDate,
    endDate: k.endDate,
    startTime: k.startTime,
    endTime: k.endTime,
    days: k.days,
    isNeverEnd: k.isNeverEnd,
    isAllDay: k.isAllDay,
  },
});

/**
 * The assign post, in the names and values the service takes (`keyAssignmentSchema`): absent is null,
 * flags are booleans and the days go Monday first (`days[0]` … `days[6]`). The key's status (one-time
 * or not) is the server's to derive from the access type.
 */
export function assignFields(draft: Draft, userId: number | null): Record<string, string | number | boolean> {
  const s = draft.schedule;
  const payload = {
    userId,
    keyId: draft.keyId,
    type: draft.type,
    fobNumber: draft.fob.trim() || null,
    startDate: s.startDate,
    startTime: s.startTime,
    endDate: s.endDate,
    endTime: s.endTime,
    accessType: s.accessType,
    isNeverEnd: s.isNeverEnd,
    isAllDay: s.isAllDay,
    entryId: draft.entryId,
    ...Object.fromEntries(s.days.map((on, i) => [`days[${i}]`, on])),
    zone: draft.zoneId,
    onHolidays: draft.onHolidays,
    holidayCalendarId: draft.onHolidays === "ignore" ? null : draft.calendarId,
  };
  return Object.fromEntries(Object.entries(payload).filter((e): e is [string, string | number | boolean] => e[1] != null));
}
