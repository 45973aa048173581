/**
 * Display formatting shared by server and client.
 *
 * Every date helper takes an explicit IANA zone and assembles its output from `formatToParts`, so
 * the server render and the hydrated client produce the same string regardless of the machine's
 * locale or zone. Invalid or missing input yields "".
 *
 * The date helpers also take the reader's language (`i18n.language` in the browser, `getLanguage(request)`
 * in a loader), required so that no caller can forget it (decision 0067): English dates are the spec's
 * MM/DD/YYYY, Spanish ones are written as Spanish readers write them, DD/MM/YYYY. Times are 24-hour in both.
 */

export type Timestamp = number | Date | null | undefined;

type Parts = Record<"year" | "month" | "day" | "hour" | "minute" | "second", string>;

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFor(value: Timestamp, timeZone: string): Parts | null {
  if (value === null || value === undefined) return null;
  const ms = typeof value === "number" ? value : value.getTime();
  if (!Number.isFinite(ms)) return null;

  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      // h23, not hour12:false: some engines render midnight as "24" with hour12:false.
      hourCycle: "h23",
    });
    partFormatters.set(timeZone, formatter);
  }

  const parts = { year: "", month: "", day: "", hour: "", minute: "", second: "" };
  for (const part of formatter.formatToParts(ms)) {
    if (part.type in parts) parts[part.type as keyof Parts] = part.value;
  }
  return parts;
}

const isSpanish = (language: string) => language.toLowerCase().startsWith("es");

/** The calendar day in the reader's order: MM/DD/YYYY in English, DD/MM/YYYY in Spanish. */
const day = (p: Parts, language: string) => (isSpanish(language) ? `${p.day}/${p.month}/${p.year}` : `${p.month}/${p.day}/${p.year}`);

/** `MM/DD/YYYY` (`DD/MM/YYYY` in Spanish), e.g. formatDate(Date.UTC(2026, 0, 5), "UTC", "en") → "01/05/2026", with "es" → "05/01/2026". */
export function formatDate(value: Timestamp, timeZone: string, language: string): string {
  const p = partsFor(value, timeZone);
  return p ? day(p, language) : "";
}

/**
 * A calendar date `YYYY-MM-DD` (a due date, a start date: no instant, no zone) as `formatDate` writes
 * a day: "2026-01-05" → "01/05/2026", in Spanish "05/01/2026". Anything else is returned as it is.
 */
export function formatCalendarDate(iso: string | null | undefined, language: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? "");
  return m ? day({ year: m[1], month: m[2], day: m[3], hour: "", minute: "", second: "" }, language) : (iso ?? "");
}

/** `MM/DD/YYYY HH:mm` (24-hour; the day as `formatDate` writes it). */
export function formatDateTime(value: Timestamp, timeZone: string, language: string): string {
  const p = partsFor(value, timeZone);
  return p ? `${day(p, language)} ${p.hour}:${p.minute}` : "";
}

/** `MM/DD/YYYY HH:mm:ss` (24-hour; the day as `formatDate` writes it). */
export function formatDateTimeSeconds(value: Timestamp, timeZone: string, language: string): string {
  const p = partsFor(value, timeZone);
  return p ? `${day(p, language)} ${p.hour}:${p.minute}:${p.second}` : "";
}

/** The local calendar day, YYYY-MM-DD (what a Date cell filters to). */
export function localDay(ms: number, timeZone: string): string {
  const p = partsFor(ms, timeZone);
  return p ? `${p.year}-${p.month}-${p.day}` : "";
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
 * A moment in a zone, labelled with the zone's abbreviation: "11/20/2026 13:00:05 CET" ("20/11/2026
 * 13:00:05 CET" in Spanish). Every screen that shows when something happened uses this, so the same
 * event reads the same everywhere.
 */
export function formatZonedTime(value: Timestamp, timeZone: string, language: string): string {
  const text = formatDateTimeSeconds(value, timeZone, language);
  if (!text) return "";
  const ms = typeof value === "number" ? value : value!.getTime();
  return `${text} ${zoneAbbreviation(ms, timeZone)}`;
}

const monthNames = new Map<string, Intl.DateTimeFormat>();

/**
 * Support-ticket submission time with the month named: the spec's `MMMM DD, YYYY, HH:mm:ss` in
 * English, "January 05, 2026, 14:03:09"; in Spanish as Spanish readers write it, "5 de enero de 2026, 14:03:09".
 */
export function formatTicketTime(value: Timestamp, timeZone: string, language: string): string {
  const p = partsFor(value, timeZone);
  if (!p) return "";
  const spanish = isSpanish(language);
  const locale = spanish ? "es-ES" : "en-US";
  const key = `${locale}|${timeZone}`;
  let months = monthNames.get(key);
  if (!months) monthNames.set(key, (months = new Intl.DateTimeFormat(locale, { timeZone, month: "long" })));
  const month = months.format(typeof value === "number" ? value : value!.getTime());
  const time = `${p.hour}:${p.minute}:${p.second}`;
  return spanish ? `${Number(p.day)} de ${month} de ${p.year}, ${time}` : `${month} ${p.day}, ${p.year}, ${time}`;
}

/**
 * A phone for people, in international format. Stored numbers are E.164 beside their calling code
 * (decision 0037): formatPhone("034", "+34612345678") → "+34 612 345 678"; +1 keeps the spec's mask,
 * formatPhone("001", "+15551234567") → "+1 555-123-4567". The calling code splits the number, so no
 * numbering metadata reaches the pages that only show phones. A legacy pair of digits
 * (formatPhone("001", "5551234567")) reads the same way; anything else is shown as stored.
 */
export function formatPhone(countryCode: string | number | null | undefined, stored: string | null | undefined): string {
  const value = String(stored ?? "").trim();
  const country = String(countryCode ?? "")
    .replace(/\D/g, "")
    .replace(/^0+/, "");
  const digits = value.replace(/\D/g, "");
  const national = value.startsWith("+") ? (country && digits.startsWith(country) ? digits.slice(country.length) : null) : digits;
  if (national === null) return value;
  const grouped = country === "1" || !country ? groupUs(national) : groupNational(national);
  if (!country) return grouped;
  return grouped ? `+${country} ${grouped}` : `+${country}`;
}

/** 5551234567 → 555-123-4567 (the spec's mask; short numbers are grouped as far as they go). */
const groupUs = (d: string) => [d.slice(0, 3), d.slice(3, 6), d.slice(6)].filter(Boolean).join("-");

/** Groups of three from the end, the first group taking what is left: 612345678 → 612 345 678, 7911123456 → 7911 123 456. */
function groupNational(d: string): string {
  if (d.length <= 6) return d;
  const head = d.length - 6;
  return [d.slice(0, head), d.slice(head, head + 3), d.slice(head + 3)].join(" ");
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** US dollars from integer cents, e.g. formatMoney(123450) → "$1,234.50", formatMoney(-5) → "-$0.05". */
export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return "";
  return usd.format(Math.round(cents) / 100);
}
