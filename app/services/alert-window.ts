/** An alert's schedule as the access-window core reads it (docs/ARCHITECTURE.md §5, kind "alert"). */
import type { AlertWindow, Days, HolidayFields } from "~core";

export type StoredSchedule = {
  schedule: "any" | "custom";
  startDate: string | null;
  endDate: string | null;
  isNeverEnd: boolean;
  days: string;
  isAllDay: boolean;
  startTime: string | null;
  endTime: string | null;
  zoneName: string | null;
};

/**
 * "any" is always inside; a custom schedule is inside its dates, days and hours in its own zone. `holidays`:
 * the calendar a custom schedule follows (decision 0077), as `holidayFields` makes them from the alert's
 * `onHolidays` and its calendar's dates; an "any" schedule never follows one.
 */
export function alertWindow(s: StoredSchedule, holidays: HolidayFields = {}): AlertWindow {
  if (s.schedule === "any") return { kind: "alert", schedule: "any", tz: s.zoneName || "UTC" };
  return {
    kind: "alert",
    schedule: "custom",
    tz: s.zoneName ?? "",
    startDate: s.startDate || null,
    endDate: s.isNeverEnd ? null : s.endDate || null,
    days: [...s.days.padEnd(7, "0").slice(0, 7)].map((c) => c === "1") as Days,
    allDay: s.isAllDay,
    startTime: s.isAllDay ? null : s.startTime || null,
    endTime: s.isAllDay ? null : s.endTime || null,
    ...holidays,
  };
}
