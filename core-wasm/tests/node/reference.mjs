// An independent implementation of the window semantics (docs/ARCHITECTURE.md §5) on Intl.DateTimeFormat,
// i.e. on Node's own ICU time-zone data. Used only by the differential test.

const formatters = new Map();
function formatter(tz) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      era: "short",
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Local reading of `t` in `tz`: {day (days since 1970-01-01), ms (since local midnight), offset (s)}. */
export function localOf(t, tz) {
  const p = {};
  for (const { type, value } of formatter(tz).formatToParts(new Date(t))) p[type] = value;
  const year = p.era === "BC" ? 1 - +p.year : +p.year;
  const wall = Date.UTC(year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) + (((t % 1000) + 1000) % 1000);
  const day = Math.floor(wall / 86_400_000);
  return { day, ms: wall - day * 86_400_000, offset: Math.round((wall - t) / 1000) };
}

const dayOf = (date) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const minutes = (hhmm) => +hhmm.slice(0, 2) * 60 + +hhmm.slice(3, 5);
const weekday = (day) => (((day + 3) % 7) + 7) % 7; // Monday = 0

export function isOpen(w, t) {
  if ((w.kind === "ekey" && w.access === "full") || (w.kind === "alert" && w.schedule === "any")) return true;
  if (w.kind === "ekey" && w.access === "oneTime" && w.used) return false;
  const { day, ms } = localOf(t, w.tz);
  if (w.kind === "scheduledOpen") return scheduledOpen(w, t, day, ms);
  const allowed = (d) => w.days[weekday(d)] && (w.startDate == null || d >= dayOf(w.startDate)) && (w.endDate == null || d <= dayOf(w.endDate));
  if (w.allDay) return allowed(day);
  const s = minutes(w.startTime) * 60_000;
  const e = minutes(w.endTime) * 60_000;
  if (s < e) return allowed(day) && ms >= s && ms < e;
  return (allowed(day) && ms >= s) || (allowed(day - 1) && ms < e);
}

function rowFor(w, day) {
  const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
  return w.exceptions?.find((x) => x.date === date) ?? w.week[weekday(day)];
}

function hoursOf(row) {
  if (!row.openWholeDay) return null;
  if (!row.openTime && !row.closeTime) return [0, 86_400_000];
  return [minutes(row.openTime) * 60_000, minutes(row.closeTime) * 60_000];
}

function scheduledOpen(w, t, day, ms) {
  const hours = hoursOf(rowFor(w, day));
  if (!hours || ms < hours[0] || ms >= hours[1]) return false;
  if (!w.fpi) return true;
  if (w.firstEntryAt == null) return false;
  const fe = typeof w.firstEntryAt === "number" ? w.firstEntryAt : Date.parse(w.firstEntryAt);
  const first = localOf(fe, w.tz);
  return fe <= t && first.day === day && first.ms >= hours[0];
}

/** RFC 3339 local time, as the CLI prints it. */
export function formatLocal(t, tz) {
  const { day, ms, offset } = localOf(t, tz);
  const iso = new Date(day * 86_400_000 + ms).toISOString(); // 1970..9999 only
  const frac = t % 1000 === 0 ? "" : iso.slice(19, 23);
  const a = Math.abs(offset);
  const hh = String(Math.floor(a / 3600)).padStart(2, "0");
  const mm = String(Math.floor(a / 60) % 60).padStart(2, "0");
  return `${iso.slice(0, 19)}${frac}${offset < 0 ? "-" : "+"}${hh}:${mm}${a % 60 ? ":" + String(a % 60).padStart(2, "0") : ""}`;
}
