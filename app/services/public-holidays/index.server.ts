/**
 * Public holidays of a country or region for a year (issue 31), from the compact file that
 * scripts/gen-public-holidays.mjs writes with date-holidays: the Worker carries the dates, not the library.
 */
import data from "./data.json";
import type { StoredHolidayDate } from "~/schemas/holidays";

type HolidaySet = { label: string; names: string[]; years: Record<string, string> };
const sets = data.sets as Record<string, HolidaySet>;

/** The sets to import from, `ES` and `ES-MD` style codes with their English labels, sorted by label. */
export function publicHolidaySets(): { code: string; label: string }[] {
  return Object.entries(sets)
    .map(([code, s]) => ({ code, label: s.label }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The set's whole-day holidays in `year`; undefined for an unknown set or a year the file does not cover. */
export function publicHolidays(code: string, year: number): StoredHolidayDate[] | undefined {
  const set = Object.hasOwn(sets, code) ? sets[code] : undefined;
  const days = set?.years[String(year)];
  if (days === undefined) return undefined;
  return days
    .split(" ")
    .filter(Boolean)
    .map((d) => {
      const [mmdd, n] = d.split(".");
      return { date: `${year}-${mmdd.slice(0, 2)}-${mmdd.slice(2)}`, name: set!.names[Number(n)] ?? "", openTime: null, closeTime: null };
    });
}
