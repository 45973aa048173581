/**
 * Activity timestamps: local time in a zone with its abbreviation (docs/ARCHITECTURE.md §7.3), e.g.
 * "11/20/2026 13:00:05 CET". Loaders format them, so the page shows the server's text as is.
 */
import { formatDateTimeSeconds, formatZonedTime } from "~/utils/format";

export function formatActivityTime(ms: number, timeZone: string): string {
  return formatZonedTime(ms, timeZone);
}

/** The local calendar day, YYYY-MM-DD (what a Date cell filters to). */
export function localDay(ms: number, timeZone: string): string {
  const [m, d, y] = formatDateTimeSeconds(ms, timeZone).slice(0, 10).split("/");
  return `${y}-${m}-${d}`;
}
