/**
 * A time of day typed by hand, read as 24-hour `HH:mm`: "22:00", "2200", "22.00", "22h00", "9:05"
 * and "905" are read; anything else is returned as typed, for the form's own check to refuse.
 */
export function normalizeTimeText(text: string): string {
  const m = /^\s*(\d{1,2})(?:[:.hH]?(\d{2}))\s*$/.exec(text);
  if (!m) return text.trim();
  const [h, min] = [Number(m[1]), Number(m[2])];
  if (h > 23 || min > 59) return text.trim();
  return `${String(h).padStart(2, "0")}:${m[2]}`;
}

/** Whether the window `start`–`end` (`HH:mm`) runs past midnight into the next day (the core's rule: end before start). */
export const runsOvernight = (start: string, end: string): boolean => /^\d{2}:\d{2}$/.test(start) && /^\d{2}:\d{2}$/.test(end) && end < start;
