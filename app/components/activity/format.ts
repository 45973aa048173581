/**
 * Activity timestamps: local time in a zone with its abbreviation (docs/ARCHITECTURE.md §7.3), e.g.
 * "11/20/2026 13:00:05 CET". Loaders format them, so the page shows the server's text as is.
 */
import { formatDateTimeSeconds } from "~/utils/format";

const zoneNames = new Map<string, Intl.DateTimeFormat>();

function zoneName(ms: number, timeZone: string, locale: string): string {
  const key = `${locale}|${timeZone}`;
  let f = zoneNames.get(key);
  if (!f) zoneNames.set(key, (f = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "short" })));
  return f.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "";
}

/** "EST", "CET", "CEST"…; English ICU data names US zones under en-US and European ones under en-GB, otherwise "GMT+3". */
export function zoneAbbreviation(ms: number, timeZone: string): string {
  const us = zoneName(ms, timeZone, "en-US");
  if (!/^GMT[+-]/.test(us)) return us;
  const gb = zoneName(ms, timeZone, "en-GB");
  return /^GMT[+-]/.test(gb) ? us : gb;
}

export function formatActivityTime(ms: number, timeZone: string): string {
  return `${formatDateTimeSeconds(ms, timeZone)} ${zoneAbbreviation(ms, timeZone)}`;
}

/** The local calendar day, YYYY-MM-DD (what a Date cell filters to). */
export function localDay(ms: number, timeZone: string): string {
  const [m, d, y] = formatDateTimeSeconds(ms, timeZone).slice(0, 10).split("/");
  return `${y}-${m}-${d}`;
}
