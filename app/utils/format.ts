/**
 * Display formatting shared by server and client.
 *
 * Every date helper takes an explicit IANA zone (default UTC) and assembles its output from
 * `formatToParts`, so the server render and the hydrated client produce the same string
 * regardless of the machine's locale or zone. Invalid or missing input yields "".
 */
import { formatPhoneE164 } from "./phone";

export type Timestamp = number | Date | null | undefined;

const DEFAULT_ZONE = "UTC";

type Parts = Record<"year" | "month" | "day" | "hour" | "minute" | "second", string>;

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFor(value: Timestamp, timeZone: string, monthStyle: "2-digit" | "long"): Parts | null {
  if (value === null || value === undefined) return null;
  const ms = typeof value === "number" ? value : value.getTime();
  if (!Number.isFinite(ms)) return null;

  const cacheKey = `${timeZone}|${monthStyle}`;
  let formatter = partFormatters.get(cacheKey);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: monthStyle,
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      // h23, not hour12:false: some engines render midnight as "24" with hour12:false.
      hourCycle: "h23",
    });
    partFormatters.set(cacheKey, formatter);
  }

  const parts = { year: "", month: "", day: "", hour: "", minute: "", second: "" };
  for (const part of formatter.formatToParts(ms)) {
    if (part.type in parts) parts[part.type as keyof Parts] = part.value;
  }
  return parts;
}

/** `MM/DD/YYYY`, e.g. formatDate(Date.UTC(2026, 0, 5)) → "01/05/2026". */
export function formatDate(value: Timestamp, timeZone = DEFAULT_ZONE): string {
  const p = partsFor(value, timeZone, "2-digit");
  return p ? `${p.month}/${p.day}/${p.year}` : "";
}

/** `MM/DD/YYYY HH:mm` (24-hour). */
export function formatDateTime(value: Timestamp, timeZone = DEFAULT_ZONE): string {
  const p = partsFor(value, timeZone, "2-digit");
  return p ? `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute}` : "";
}

/** `MM/DD/YYYY HH:mm:ss` (24-hour). */
export function formatDateTimeSeconds(value: Timestamp, timeZone = DEFAULT_ZONE): string {
  const p = partsFor(value, timeZone, "2-digit");
  return p ? `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute}:${p.second}` : "";
}

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

/**
 * A moment in a zone, labelled with the zone's abbreviation: "11/20/2026 13:00:05 CET". Every screen
 * that shows when something happened uses this, so the same event reads the same everywhere.
 */
export function formatZonedTime(value: Timestamp, timeZone = DEFAULT_ZONE): string {
  const text = formatDateTimeSeconds(value, timeZone);
  if (!text) return "";
  const ms = typeof value === "number" ? value : value!.getTime();
  return `${text} ${zoneAbbreviation(ms, timeZone)}`;
}

/** Support-ticket submission time: `MMMM DD, YYYY, HH:mm:ss`, e.g. "January 05, 2026, 14:03:09". */
export function formatTicketTime(value: Timestamp, timeZone = DEFAULT_ZONE): string {
  const p = partsFor(value, timeZone, "long");
  return p ? `${p.month} ${p.day}, ${p.year}, ${p.hour}:${p.minute}:${p.second}` : "";
}

/**
 * A phone for people. Stored numbers are E.164 (decision 0037) and show in international format
 * ("+34 612 34 56 78", "+1 555-123-4567"); the country code is then ignored.
 * A legacy pair shows as "+<country> ddd-ddd-rest", e.g. formatPhone("001", "5551234567") → "+1 555-123-4567".
 * Non-digits are ignored; leading zeros of the stored country code are dropped; a missing
 * country code leaves out the prefix; short numbers are grouped as far as they go.
 */
export function formatPhone(countryCode: string | number | null | undefined, digits: string | null | undefined): string {
  if (String(digits ?? "").startsWith("+")) return formatPhoneE164(digits);
  const number = String(digits ?? "").replace(/\D/g, "");
  const country = String(countryCode ?? "")
    .replace(/\D/g, "")
    .replace(/^0+/, "");
  const groups = [number.slice(0, 3), number.slice(3, 6), number.slice(6)].filter(Boolean);
  const local = groups.join("-");
  if (!country) return local;
  return local ? `+${country} ${local}` : `+${country}`;
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** US dollars from integer cents, e.g. formatMoney(123450) → "$1,234.50", formatMoney(-5) → "-$0.05". */
export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return "";
  return usd.format(Math.round(cents) / 100);
}
