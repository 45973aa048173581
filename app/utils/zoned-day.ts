/** Instants of local days in a time zone, with the platform's zone data (Intl), for date filters. */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** How far `tz`'s wall clock is ahead of UTC at `ms`, in milliseconds. */
function offsetAt(ms: number, tz: string): number {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - Math.floor(ms / 1000) * 1000;
}

/** The instant local day `day` (YYYY-MM-DD) starts in `tz`, or the day `plusDays` after it. */
export function localDayStart(day: string, tz: string, plusDays = 0): number {
  return instantOfWall(Date.parse(`${day}T00:00:00Z`) + plusDays * 86_400_000, tz);
}

/** The instant of a local date and time (`YYYY-MM-DDTHH:MM`) in `tz`. */
export const localDateTimeInstant = (dateTime: string, tz: string): number => instantOfWall(Date.parse(`${dateTime}:00Z`), tz);

/** `wall`: the local time read as if it were UTC. */
function instantOfWall(wall: number, tz: string): number {
  // Twice: the offset at the guess can differ from the one at the answer across a DST change.
  const first = wall - offsetAt(wall, tz);
  return wall - offsetAt(first, tz);
}

/** `ms` as a local date and time (`YYYY-MM-DDTHH:MM`) in `tz`, for a datetime-local input. */
export const localDateTimeOf = (ms: number, tz: string): string => new Date(Math.floor(ms / 60_000) * 60_000 + offsetAt(ms, tz)).toISOString().slice(0, 16);
