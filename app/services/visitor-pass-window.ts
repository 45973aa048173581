import type { EKeyWindow } from "~core";
import { ALL_DAYS, toWindow } from "~/schemas/ekeys";

/** The stored fields a pass's window is made of. */
export type PassTimes = { oneEntry: boolean; startDate: string; endDate: string; startTime: string; endTime: string; usedAt: number | null };

/**
 * A visitor pass's access window (decision 0096): every day from `startDate` to `endDate`, between
 * `startTime` and `endTime` in `tz`; one entry is an e-key's `oneTime`, spent once used. The console, the
 * feed (every gateway) and the signed credential (every board) all decide by this one window.
 */
export function passWindow(p: PassTimes, tz: string): EKeyWindow {
  return toWindow(
    {
      accessType: p.oneEntry ? "one_time_access" : "custom_access",
      startDate: p.startDate,
      endDate: p.endDate,
      startTime: p.startTime,
      endTime: p.endTime,
      days: ALL_DAYS,
      isNeverEnd: false,
      isAllDay: false,
    },
    tz,
    p.usedAt != null,
  );
}

/** The id a pass goes by in the feed and its credentials: `v` and the row id, never a user's or a key's. */
export const passFeedId = (id: number) => `v${id}`;
