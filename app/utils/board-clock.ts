/**
 * When a board's clock or zone data is flagged (decision 0092): the gateway measures, the console and
 * the gateway (gateway/src/events/board-clocks.js) apply the same two rules.
 */

/** A clock this far from its gateway's is flagged. */
export const DRIFT_FLAG_MS = 30_000;

/** A tz database version: four digits of year and one or two letters ("2025b"). */
export const TZDATA_VERSION = /^\d{4}[a-z]{1,2}$/;

/** Whether zone data `a` is older than `b`: by year, then by the letters' length ("z" before "aa"), then alphabetically. */
export function olderZoneData(a: string, b: string): boolean {
  const [ya, la, yb, lb] = [a.slice(0, 4), a.slice(4), b.slice(0, 4), b.slice(4)];
  if (ya !== yb) return ya < yb;
  if (la.length !== lb.length) return la.length < lb.length;
  return la < lb;
}

export type ClockReading = { driftMs: number | null; tzdata: string | null; coreTzdata: string };

export function clockFlags(r: ClockReading): { drifted: boolean; staleZones: boolean } {
  return {
    drifted: r.driftMs !== null && Math.abs(r.driftMs) > DRIFT_FLAG_MS,
    staleZones: r.tzdata !== null && TZDATA_VERSION.test(r.coreTzdata) && olderZoneData(r.tzdata, r.coreTzdata),
  };
}
