import { scheduleForAccess, type Schedule } from "~/schemas/ekeys";
import type { AssignedKey, GroupOption, PanelData } from "./types";

/** The key being assigned or modified, as the panel edits it. */
export type Draft = { type: "device" | "group"; eKey: number | null; schedule: Schedule; zoneId: number | null; entryId: number | null; fob: string };

/** A fresh assignment: a device key with full access in the company's zone. */
export const freshDraft = (data: PanelData): Draft => ({
  type: "device",
  eKey: null,
  schedule: scheduleForAccess("full_access", data.today),
  zoneId: data.defaultZoneId,
  entryId: null,
  fob: "",
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
  eKey: k.isGroup ? (k.group?.id ?? null) : (k.device?.id ?? null),
  zoneId: k.timeZoneId ?? defaultZoneId,
  fob: k.fobDeviceId ?? "",
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
 * The assign post: plain fields (absent = null) that the action parses with the admin API's assign
 * schema, so the key's status (one-time or not) is the server's to derive from the access type.
 */
export function assignFields(draft: Draft, userId: number | null): Record<string, string | number> {
  const s = draft.schedule;
  const payload = {
    userId,
    eKey: draft.eKey,
    type: draft.type,
    FOBDeviceId: draft.fob.trim() || null,
    startDate: s.startDate,
    startTime: s.startTime,
    endDate: s.endDate,
    endTime: s.endTime,
    accessType: s.accessType,
    isNeverEnd: s.isNeverEnd ? "1" : "0",
    isAllDay: s.isAllDay ? "1" : "0",
    entryId: draft.entryId,
    scheduleDays: s.days.map((d) => (d ? "1" : "0")).join(""),
    zone: draft.zoneId,
  };
  return Object.fromEntries(Object.entries(payload).filter((e): e is [string, string | number] => e[1] != null));
}
