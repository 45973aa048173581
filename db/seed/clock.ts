/**
 * The demo seed's clock (docs/decisions/0064-seed-relative-to-the-run-clock.md). Every seeded date is
 * derived from one instant, the seed instant: e-key windows, door traffic, invoices due, billing dates,
 * scheduled-open exceptions. A run seeds at the start of the UTC day its clock reads (the real time, or
 * the shifted test clock), so a seeded copy serves a whole day (scripts/d1-template.sh) and tests
 * derive what they expect from the same instant instead of from a calendar date.
 */
export const DAY_MS = 86_400_000;

/** The seed instant for a run whose clock reads `now`: the start of its UTC day. */
export const seedInstant = (now: number): number => now - (((now % DAY_MS) + DAY_MS) % DAY_MS);

/** The UTC calendar date (YYYY-MM-DD) `days` days after `at` (before it when negative). */
export const isoDay = (at: number, days = 0): string => new Date(at + days * DAY_MS).toISOString().slice(0, 10);

/** The first `month`/`day` (1-based) on or after the UTC date of `at`: next Christmas, next New Year's Eve. */
export function nextDate(at: number, month: number, day: number): string {
  const from = isoDay(at);
  const year = Number(from.slice(0, 4));
  const md = `${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return `${year}-${md}` >= from ? `${year}-${md}` : `${year + 1}-${md}`;
}

/** The demo's dates, all from the seed instant `at`, for the seed and the tests that expect them. */
export function demoDates(at: number) {
  return {
    /** ACME's scheduled-open exceptions: closed on Christmas, half a day on New Year's Eve (the next ones). */
    christmas: nextDate(at, 12, 25),
    newYearsEve: nextDate(at, 12, 31),
    /** Each company's "Device Group Created" entry: older than the default 90-day hot window, at noon UTC (one date in every zone tests read). */
    groupCreatedAt: at - 100 * DAY_MS + DAY_MS / 2,
  };
}
