/**
 * The activity log (docs/ARCHITECTURE.md §7.1 and §7.2; API calls `user/activity*`, §8): the filtered,
 * sorted, paged list, the CSV report, one entry with its notes, and the filter pickers' options.
 * Every query is scoped to the caller's company; another company's entry is a 404. The reads take a
 * `LogDb`: the company's own store in the console (decision 0047), or D1, which the differential test
 * holds it to; the pickers read the directory in D1.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, max, min, or, sql, type SQL } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AlertWindow, Core, Interval } from "~core";
import {
  ACTIVITY_MSG,
  ACTIVITY_SORTS,
  activityFilterSchema,
  DEFAULT_ACTIVITY_SORT,
  type ActivityFilter,
  type ActivityFilterInput,
  type ActivityNoteInput,
  type FilterType,
} from "~/schemas/activity";
import { assertActivityReader, assertCan, companyZone, type Auth } from "~/utils/auth-guards.server";
import { activityLogFor, reportParts, type CompanyLogEnv, type LogDb, type LogPart, type Span } from "~/utils/company-log.server";
import { csvLine } from "~/utils/csv";
import { schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { formatZonedTime } from "~/utils/format";
import { parseInput } from "~/utils/parse-input.server";
import { parseSort } from "~/utils/sort";
import { inCompany, liveInCompany } from "~/utils/tenant.server";

const { activityLogs: l, activityTypes: at, devices: d, deviceGroups: g, activityNotes: n, users: u, activityCounts: c, activityRefCounts: rc } = schema;
const creator = alias(u, "creator");
const target = alias(u, "target");
const MODULE = "activity";

/** The report is one bounded query; a larger export needs a narrower filter. */
export const REPORT_LIMIT = 10_000;
const NOTES_LIMIT = 500;
const OPTIONS_LIMIT = 1000;
const DAY = 86_400_000;
/** The access-window core expands at most 10,000 days. */
const MAX_DAYS = 10_000;

/** Activity names whose text a device can rename (its custom sensor names, docs/ARCHITECTURE.md §8). */
const SENSOR_NAMES = {
  "Sensor 1 Open": "sensor1OpenName",
  "Sensor 1 Closed": "sensor1CloseName",
  "Sensor 2 Open": "sensor2OpenName",
  "Sensor 2 Closed": "sensor2CloseName",
} as const;

/** One log entry with the names it shows (the admin API maps it to the spec's names, decision 0017). */
export type ActivityRow = {
  id: number;
  at: number;
  activityType: { name: string; type: string; alertConditions: string; firstSectionInfo: string; detailsSectionInfo: string };
  /** The activity name as shown: a sensor activity takes the device's custom sensor name. */
  activityName: string;
  details: Record<string, unknown>;
  targetDevice: {
    id: number;
    displayName: string;
    fullName: string;
    sensor1OpenName: string;
    sensor1CloseName: string;
    sensor2OpenName: string;
    sensor2CloseName: string;
  } | null;
  targetDeviceGroup: { id: number; fullName: string; displayName: string } | null;
  createdByUser: { id: number; displayName: string } | null;
  targetUser: { id: number; displayName: string } | null;
  createdByUserId: number | null;
  targetUserId: number | null;
  targetDeviceId: number | null;
  targetDeviceGroupId: number | null;
  operationType: string;
  summary: string;
  gpsLocation: string | null;
};

const rowColumns = {
  id: l.id,
  ts: l.activityTimestamp,
  operationType: l.operationType,
  summary: l.summary,
  detailsJson: l.detailsJson,
  gps: l.gpsLocation,
  createdById: l.createdByUserId,
  targetUserId: l.targetUserId,
  deviceId: l.targetDeviceId,
  groupId: l.targetDeviceGroupId,
  name: at.name,
  type: at.type,
  conditions: at.alertConditions,
  first: at.firstSectionInfo,
  details: at.detailsSectionInfo,
  creatorName: creator.displayName,
  targetName: target.displayName,
  deviceName: d.displayName,
  deviceFullName: d.fullName,
  s1o: d.sensor1OpenName,
  s1c: d.sensor1CloseName,
  s2o: d.sensor2OpenName,
  s2c: d.sensor2CloseName,
  groupFullName: g.fullName,
  groupDisplayName: g.displayName,
};
type Flat = { [K in keyof typeof rowColumns]: (typeof rowColumns)[K]["_"]["data"] | null };

function parseDetails(text: string | null): Record<string, unknown> {
  try {
    const v = JSON.parse(text ?? "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function shape(r: Flat): ActivityRow {
  const device =
    r.deviceId != null && r.deviceName != null
      ? {
          id: r.deviceId,
          displayName: r.deviceName,
          fullName: r.deviceFullName ?? "",
          sensor1OpenName: r.s1o ?? "",
          sensor1CloseName: r.s1c ?? "",
          sensor2OpenName: r.s2o ?? "",
          sensor2CloseName: r.s2c ?? "",
        }
      : null;
  const name = r.name ?? "";
  const sensorField = SENSOR_NAMES[name as keyof typeof SENSOR_NAMES];
  return {
    id: r.id!,
    at: r.ts!,
    activityType: { name, type: r.type ?? "", alertConditions: r.conditions ?? "000", firstSectionInfo: r.first ?? "", detailsSectionInfo: r.details ?? "" },
    activityName: (sensorField && device?.[sensorField]) || name,
    details: parseDetails(r.detailsJson),
    targetDevice: device,
    targetDeviceGroup: r.groupId != null && r.groupFullName != null ? { id: r.groupId, fullName: r.groupFullName, displayName: r.groupDisplayName ?? "" } : null,
    createdByUser: r.createdById != null && r.creatorName != null ? { id: r.createdById, displayName: r.creatorName } : null,
    targetUser: r.targetUserId != null && r.targetName != null ? { id: r.targetUserId, displayName: r.targetName } : null,
    createdByUserId: r.createdById,
    targetUserId: r.targetUserId,
    targetDeviceId: r.deviceId,
    targetDeviceGroupId: r.groupId,
    operationType: r.operationType ?? "",
    summary: r.summary ?? "",
    gpsLocation: r.gps,
  };
}

/** The log joined with the names it shows; history keeps names of removed users and devices. */
const joined = (db: LogDb) =>
  db
    .select(rowColumns)
    .from(l)
    .innerJoin(at, eq(at.id, l.activityTypeId))
    .leftJoin(creator, eq(creator.id, l.createdByUserId))
    .leftJoin(target, eq(target.id, l.targetUserId))
    .leftJoin(d, eq(d.id, l.targetDeviceId))
    .leftJoin(g, eq(g.id, l.targetDeviceGroupId));

const SORT_COLUMNS = {
  date: l.activityTimestamp,
  activity: at.name,
  trigger: l.operationType,
  triggeredBy: creator.displayName,
  user: target.displayName,
  device: d.fullName,
  deviceGroup: g.fullName,
} as const;

type SortKey = keyof typeof SORT_COLUMNS;

/**
 * The sorts the tallies can walk: by a name, the log column that refers to the named row and its tally
 * in activity_ref_counts (activities and triggers are tallied in activity_counts). Equal values keep
 * each row's entries together (the referenced id breaks a name's tie), so the order is one index range
 * per value, read newest first: no index of its own for either direction (decision 0047).
 */
const TALLY_SORTS = {
  activity: { column: l.activityTypeId, kind: null },
  trigger: { column: l.operationType, kind: null },
  triggeredBy: { column: l.createdByUserId, kind: "creator" },
  user: { column: l.targetUserId, kind: "target" },
  device: { column: l.targetDeviceId, kind: "device" },
  deviceGroup: { column: l.targetDeviceGroupId, kind: "group" },
} as const;
type TallySort = keyof typeof TALLY_SORTS;
const isTallySort = (key: SortKey): key is TallySort => key in TALLY_SORTS;

function sortOf(sortText: string): { key: SortKey; desc: boolean } {
  const parsed = parseSort(sortText);
  const s = parsed && (ACTIVITY_SORTS as readonly string[]).includes(parsed.key) ? parsed : parseSort(DEFAULT_ACTIVITY_SORT)!;
  return { key: s.key as SortKey, desc: s.desc };
}

/** The order of a sort; `reverse` reads it from the other end (a late page is a short walk from the end). */
function orderOf(sortText: string, reverse = false) {
  const s = sortOf(sortText);
  const dir = s.desc !== reverse ? desc : asc;
  // Newest first within equal values, and the id keeps pages stable.
  const newest = reverse ? asc : desc;
  if (s.key === "date") return [dir(l.activityTimestamp), dir(l.id)];
  const tie = isTallySort(s.key) && s.key !== "trigger" ? [dir(TALLY_SORTS[s.key].column)] : [];
  return [dir(SORT_COLUMNS[s.key]), ...tie, newest(l.activityTimestamp), newest(l.id)];
}

/**
 * The ids of one page, read from the indexes alone where the sort allows: the skipped rows are
 * index entries, never joined rows (a deferred join). Only the table the sort names is joined.
 */
function pageIds(db: LogDb, scope: Scope, sortText: string, reverse: boolean, limit: number, offset: number) {
  const key = sortOf(sortText).key;
  // Written out: drizzle checks a selected column's table against `from`, which may be the intervals' join
  // (whose json_each has an `id` of its own, so the name is qualified).
  const base = db.select({ id: sql<number>`"activity_logs"."id"`.mapWith(Number) }).from(scope.from);
  const q =
    key === "activity"
      ? base.innerJoin(at, eq(at.id, l.activityTypeId))
      : key === "triggeredBy"
        ? base.leftJoin(creator, eq(creator.id, l.createdByUserId))
        : key === "user"
          ? base.leftJoin(target, eq(target.id, l.targetUserId))
          : key === "device"
            ? base.leftJoin(d, eq(d.id, l.targetDeviceId))
            : key === "deviceGroup"
              ? base.leftJoin(g, eq(g.id, l.targetDeviceGroupId))
              : base;
  return q
    .where(scope.where)
    .orderBy(...orderOf(sortText, reverse))
    .limit(limit)
    .offset(offset);
}

const ID_COLUMNS: Record<FilterType, SQLiteColumn> = {
  "Triggered By": l.createdByUserId,
  User: l.targetUserId,
  Device: l.targetDeviceId,
  "Device Group": l.targetDeviceGroupId,
};

export function parseFilter(input: ActivityFilterInput): ActivityFilter {
  return parseInput(activityFilterSchema, input);
}

/**
 * The caller's zone for dates and times: the payload's `tz`, else the company's default zone (resolved
 * with the session, so no query of its own), else UTC.
 */
export function zoneFor(auth: Auth, core: Core, tz: string | undefined): string {
  if (tz) {
    try {
      core.offsetAt(0, tz);
      return tz;
    } catch {
      throw new ServiceError(400, `Unknown time zone ${tz}`, { fieldErrors: { tz: [`Unknown time zone ${tz}`] } });
    }
  }
  return companyZone(auth);
}

/** How far an open end of a one-date filter reaches: inside the core's 10,000 days with the margins below. */
const OPEN_END = (MAX_DAYS - 10) * DAY;

/**
 * The UTC times the filter's dates can cover in any zone (a local day is within two days of the UTC
 * one), or none without dates: the part of the log a filtered read needs (the store or the archive).
 * A date alone is open at its other end ("from that day on", "up to that day"), as far as the core reaches.
 */
export function filterSpan(f: ActivityFilter): Span | null {
  const from = f.filterFromDate ? Date.parse(`${f.filterFromDate}T00:00:00Z`) - 2 * DAY : null;
  const to = f.filterToDate ? Date.parse(`${f.filterToDate}T00:00:00Z`) + 3 * DAY : null;
  if (from === null && to === null) return null;
  return { from: from ?? to! - OPEN_END, to: to ?? from! + OPEN_END };
}

/**
 * The part of the company's log a read with this filter needs (its store, or a view of the archive when
 * the dates reach before the store's rows) and where the store's rows begin (`archivedBefore`; null while
 * nothing is archived out of it). A filter that does not parse reads the store, which then says why.
 */
export async function activityLog(env: CompanyLogEnv, auth: Auth, input: ActivityFilterInput, now: number): Promise<{ db: LogDb; archivedBefore: number | null }> {
  const parsed = activityFilterSchema.safeParse(input);
  const { db, hotFrom } = await activityLogFor(env, auth.company.id, parsed.success ? filterSpan(parsed.data) : null, now);
  return { db, archivedBefore: hotFrom };
}

/** The parts of the company's log a streamed report reads (store and archive). */
export const reportSource =
  (env: CompanyLogEnv, auth: Auth): ReportSource =>
  (span, oldestFirst) =>
    reportParts(env, auth.company.id, span, oldestFirst);

/**
 * The date and time filters as UTC intervals, expanded by the access-window core: dates are
 * whole local days, times a daily local window (overnight when the end is before the start),
 * both together that window on those days. Times alone cover the span of the company's log. A date
 * alone leaves the other end open; a time alone runs from midnight to it, or from it to midnight.
 */
async function timeIntervals(db: LogDb, auth: Auth, core: Core, f: ActivityFilter, tz: string): Promise<Interval[] | null> {
  if (!f.filterFromDate && !f.filterToDate && !f.filterFromTime && !f.filterToTime) return null;
  let from: number;
  let to: number;
  const span = filterSpan(f);
  if (span) {
    ({ from, to } = span);
  } else {
    // Two queries: SQLite reads a lone min() or max() from the index's end, but both at once scan the range.
    const [[first], [last]] = await db.batch([
      db
        .select({ at: min(l.activityTimestamp) })
        .from(l)
        .where(inCompany(l, auth)),
      db
        .select({ at: max(l.activityTimestamp) })
        .from(l)
        .where(inCompany(l, auth)),
    ]);
    const span = { first: first?.at, last: last?.at };
    if (span.first == null || span.last == null) return [];
    to = span.last + 2 * DAY;
    from = Math.max(span.first - 2 * DAY, to - (MAX_DAYS - 1) * DAY);
  }
  if (to - from > MAX_DAYS * DAY) throw new ServiceError(400, `A date range can span at most ${MAX_DAYS - 5} days`);
  const window: AlertWindow = {
    kind: "alert",
    schedule: "custom",
    tz,
    startDate: f.filterFromDate ?? null,
    endDate: f.filterToDate ?? null,
    days: [true, true, true, true, true, true, true],
    allDay: !f.filterFromTime && !f.filterToTime,
    // "00:00" as the end is the next midnight (an end before the start runs overnight).
    startTime: f.filterFromTime ?? (f.filterToTime ? "00:00" : null),
    endTime: f.filterToTime ?? (f.filterFromTime ? "00:00" : null),
  };
  const problems = core.validate(window);
  if (problems.length) throw new ServiceError(400, problems[0].message);
  return core.occurrences(window, from, to);
}

/** One interval is an index range; many go in as one JSON parameter, each still an index range on (company, time). */
function inIntervals(auth: Auth, intervals: Interval[]): SQL {
  if (intervals.length === 0) return sql`0`;
  if (intervals.length === 1) return and(gte(l.activityTimestamp, intervals[0][0]), lt(l.activityTimestamp, intervals[0][1]))!;
  // CROSS JOIN keeps the intervals as the outer loop, so each one is a range scan of the index.
  return sql`${l.id} in (select x.id from json_each(${JSON.stringify(intervals)}) w cross join activity_logs x
    on x.company_id = ${auth.company.id} and x.activity_timestamp >= json_extract(w.value, '$[0]') and x.activity_timestamp < json_extract(w.value, '$[1]'))`;
}

/**
 * Many intervals (a daily time window) as the driving table of a list query: each is a range scan of
 * (company, time), so a count or a page costs the rows inside the windows, not the whole log.
 */
function fromIntervals(auth: Auth, intervals: Interval[]): SQL {
  return sql`json_each(${JSON.stringify(intervals)}) w cross join ${l} on ${l.companyId} = ${auth.company.id}
    and ${l.activityTimestamp} >= json_extract(w.value, '$[0]') and ${l.activityTimestamp} < json_extract(w.value, '$[1]')`;
}

/** What a list query reads: `where` on the log alone, or on the log driven by many time intervals. */
type Scope = { from: typeof l | SQL; where: SQL };

type Filtered = { where: SQL; scope: Scope; intervals: Interval[] | null };

/** The event types a filter names: its `events` and the spec's `additionalFilter`. */
const eventsOf = (f: ActivityFilter): string[] => [...new Set([...(f.events ?? []), ...(f.additionalFilter ? [f.additionalFilter] : [])])];

/** `column` is the id of one of the named catalogue activities. */
const ofEvents = (column: SQLiteColumn, names: string[]) => sql`${column} in (select id from activity_types where name in ${names})`;

/** A LIKE pattern containing `text` literally (its own % and _ escaped with \). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Rows whose summary, people, device or group name contains the text (case-insensitive for ASCII). Names
 * are looked up in the log's own name tables (small), so only the summary is read row by row.
 */
function textMatch(text: string): SQL {
  const like = containing(text);
  const named = (table: SQL, columns: SQL) => sql`(select id from ${table} where ${columns})`;
  const people = named(sql`users`, sql`display_name like ${like} escape '\\'`);
  return sql`(${l.summary} like ${like} escape '\\'
    or ${l.createdByUserId} in ${people}
    or ${l.targetUserId} in ${people}
    or ${l.targetDeviceId} in ${named(sql`devices`, sql`full_name like ${like} escape '\\' or display_name like ${like} escape '\\'`)}
    or ${l.targetDeviceGroupId} in ${named(sql`device_groups`, sql`full_name like ${like} escape '\\'`)})`;
}

async function whereOf(db: LogDb, auth: Auth, core: Core, f: ActivityFilter, tz: string): Promise<Filtered> {
  const intervals = await timeIntervals(db, auth, core, f, tz);
  const events = eventsOf(f);
  const base = inCompany(
    l,
    auth,
    f.filterOperationType !== "All" ? eq(l.operationType, f.filterOperationType) : undefined,
    f.type && f.id ? eq(ID_COLUMNS[f.type], f.id) : undefined,
    events.length ? ofEvents(l.activityTypeId, events) : undefined,
    f.person ? or(eq(l.createdByUserId, f.person), eq(l.targetUserId, f.person)) : undefined,
    f.door ? eq(l.targetDeviceId, f.door) : undefined,
    f.q ? textMatch(f.q) : undefined,
  );
  const where = intervals ? and(base, inIntervals(auth, intervals))! : base;
  const scope = intervals && intervals.length > 1 ? { from: fromIntervals(auth, intervals), where: base } : { from: l, where };
  return { where, scope, intervals };
}

const REF_KINDS: Record<FilterType, (typeof schema.activityRefCounts.$inferSelect)["kind"]> = {
  "Triggered By": "creator",
  User: "target",
  Device: "device",
  "Device Group": "group",
};

/**
 * How many rows match. Without a time filter the tallies answer (decision 0036): the trigger and
 * activity filters sum a few tally rows, a person's, device's or group's filter alone is one row.
 * Otherwise the matching rows are counted on their index.
 */
async function countOf(db: LogDb, auth: Auth, f: ActivityFilter, filtered: Filtered): Promise<number> {
  const op = f.filterOperationType !== "All" ? f.filterOperationType : undefined;
  const events = eventsOf(f);
  const rowFilters = !!(f.person || f.door || f.q);
  if (!filtered.intervals && !(f.type && f.id) && !rowFilters) {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${c.n}), 0)` })
      .from(c)
      .where(and(eq(c.companyId, auth.company.id), op ? eq(c.operationType, op) : undefined, events.length ? ofEvents(c.activityTypeId, events) : undefined));
    return Math.max(0, Number(row?.n ?? 0));
  }
  if (!filtered.intervals && f.type && f.id && !op && !events.length && !rowFilters) {
    const [row] = await db
      .select({ n: rc.n })
      .from(rc)
      .where(and(eq(rc.companyId, auth.company.id), eq(rc.kind, REF_KINDS[f.type]), eq(rc.refId, f.id)));
    return Math.max(0, row?.n ?? 0);
  }
  const [{ total }] = await db.select({ total: count() }).from(filtered.scope.from).where(filtered.scope.where);
  return total;
}

const NAME_COLUMNS = { triggeredBy: creator.displayName, user: target.displayName, device: d.fullName, deviceGroup: g.fullName } as const;

/** The values a tally sort walks, in its order, with how many rows each has. */
async function tallyGroups(db: LogDb, auth: Auth, key: TallySort, descending: boolean): Promise<{ ref: number | string; n: number }[]> {
  const dir = descending ? desc : asc;
  const company = eq(c.companyId, auth.company.id);
  if (key === "trigger")
    return db
      .select({ ref: c.operationType, n: sql<number>`sum(${c.n})` })
      .from(c)
      .where(company)
      .groupBy(c.operationType)
      .having(sql`sum(${c.n}) > 0`)
      .orderBy(dir(c.operationType));
  if (key === "activity")
    return db
      .select({ ref: c.activityTypeId, n: sql<number>`sum(${c.n})` })
      .from(c)
      .innerJoin(at, eq(at.id, c.activityTypeId))
      .where(company)
      .groupBy(c.activityTypeId)
      .having(sql`sum(${c.n}) > 0`)
      .orderBy(dir(at.name), dir(c.activityTypeId));
  const table = { triggeredBy: creator, user: target, device: d, deviceGroup: g }[key];
  return db
    .select({ ref: rc.refId, n: rc.n })
    .from(rc)
    .leftJoin(table, eq(table.id, rc.refId))
    .where(and(eq(rc.companyId, auth.company.id), eq(rc.kind, TALLY_SORTS[key].kind), gt(rc.n, 0)))
    .orderBy(dir(NAME_COLUMNS[key]), dir(rc.refId));
}

/**
 * A page of an unfiltered tally sort without sorting the log: the tallies, in the sort's order, say
 * which values the page covers and how far into each; each value's rows are then one range of its
 * (company, column, time) index, read from whichever end is nearer.
 */
async function tallyPageIds(db: LogDb, auth: Auth, key: TallySort, descending: boolean, offset: number, limit: number): Promise<number[]> {
  const { column, kind } = TALLY_SORTS[key];
  const groups = await tallyGroups(db, auth, key, descending);
  const reads = [];
  let skip = offset;
  let want = limit;
  for (const { ref, n: size } of groups) {
    if (want === 0) break;
    if (skip >= size) {
      skip -= size;
      continue;
    }
    const take = Math.min(want, size - skip);
    // Tally 0 is the rows that name nobody.
    const match = inCompany(l, auth, kind !== null && ref === 0 ? isNull(column) : sql`${column} = ${ref}`);
    const fromEnd = skip > size / 2;
    const q = db.select({ id: l.id }).from(l).where(match);
    reads.push(
      fromEnd
        ? q
            .orderBy(asc(l.activityTimestamp), asc(l.id))
            .limit(take)
            .offset(size - skip - take)
        : q.orderBy(desc(l.activityTimestamp), desc(l.id)).limit(take).offset(skip),
    );
    want -= take;
    skip = 0;
  }
  if (reads.length === 0) return [];
  const pages = await db.batch(reads as [(typeof reads)[number], ...(typeof reads)[number][]]);
  return pages.flatMap((rows) => rows.map((r) => r.id));
}

const unfiltered = (f: ActivityFilter, filtered: Filtered) =>
  !filtered.intervals && f.filterOperationType === "All" && !(f.type && f.id) && !eventsOf(f).length && !f.person && !f.door && !f.q;

export type ActivityPage = { rows: ActivityRow[]; total: number; page: number; pageSize: number; tz: string };

/**
 * One page (0-based) and the total. A page past the middle is read backwards from the end, so no
 * page skips more than half the log; an unfiltered sort by name or trigger walks the tallies instead of sorting;
 * the page's rows are then joined by id. The zone comes with the session and the count is one
 * statement, so a page is two round trips (the tally sorts three; a time window alone one more for
 * the log's span).
 */
export async function listActivity(db: LogDb, auth: Auth, input: ActivityFilterInput, core: Core): Promise<ActivityPage> {
  assertActivityReader(auth);
  const f = parseFilter(input);
  const tz = zoneFor(auth, core, f.tz);
  const filtered = await whereOf(db, auth, core, f, tz);
  const total = await countOf(db, auth, f, filtered);
  const offset = f.page * f.pageSize;
  if (offset >= total) return { rows: [], total, page: f.page, pageSize: f.pageSize, tz };
  const s = sortOf(f.sort);
  const reverse = offset > total / 2;
  // The ids query goes in as a subquery: the page's ids and its joined rows are one statement, one round trip.
  const ids =
    isTallySort(s.key) && unfiltered(f, filtered)
      ? inArray(l.id, await tallyPageIds(db, auth, s.key, s.desc, offset, f.pageSize))
      : inArray(
          l.id,
          reverse
            ? pageIds(db, filtered.scope, f.sort, true, Math.min(f.pageSize, total - offset), Math.max(0, total - offset - f.pageSize))
            : pageIds(db, filtered.scope, f.sort, false, f.pageSize, offset),
        );
  const rows = await joined(db)
    .where(ids)
    .orderBy(...orderOf(f.sort));
  return { rows: (rows as Flat[]).map(shape), total, page: f.page, pageSize: f.pageSize, tz };
}

export const REPORT_FILE = "activity_report.csv";
const REPORT_COLUMNS = ["Date", "Activity", "Trigger", "Triggered By", "User", "Device", "Device Group", "Summary", "GPS Location"];

/** A report line; like its column names, its date is the spec's English MM/DD/YYYY whatever the reader's language. */
function reportLine(r: ActivityRow, tz: string): string {
  return csvLine([
    formatZonedTime(r.at, tz, "en"),
    r.activityName,
    r.operationType,
    r.createdByUser?.displayName,
    r.targetUser?.displayName,
    r.targetDevice?.fullName || r.targetDevice?.displayName,
    r.targetDeviceGroup?.fullName,
    r.summary,
    r.gpsLocation,
  ]);
}

/** The filtered log (every page, up to REPORT_LIMIT rows) as CSV, times in the filter's zone. */
export async function activityReport(db: LogDb, auth: Auth, input: ActivityFilterInput, core: Core): Promise<string> {
  assertActivityReader(auth);
  const f = parseFilter(input);
  const tz = zoneFor(auth, core, f.tz);
  const { where } = await whereOf(db, auth, core, f, tz);
  const rows = (
    (await joined(db)
      .where(where)
      .orderBy(...orderOf(f.sort))
      .limit(REPORT_LIMIT)) as Flat[]
  ).map(shape);
  return [REPORT_COLUMNS.join(","), ...rows.map((r) => reportLine(r, tz))].join("\r\n") + "\r\n";
}

/** Rows per query of the streamed report: small enough that memory stays flat, large enough to be quick. */
export const STREAM_CHUNK = 1000;

/** The parts of the log a streamed report reads within a span (none: all of it), in the order it reads them. */
export type ReportSource = (span: Span | null, oldestFirst: boolean) => Promise<LogPart[]>;

/**
 * Every row of the filtered log as a CSV stream, in time order (oldest first only when the grid is
 * sorted by date ascending), across the store and the archive: the parts cover times that do not meet,
 * and each is read in turn. Each chunk continues after the last row sent (a keyset on time and id, kept
 * from part to part), so the millionth row costs what the first does; nothing waits for the whole log.
 * When the upkeep moves days out of the store while the report is read, the rest is planned again.
 */
export async function activityReportStream(source: ReportSource, auth: Auth, input: ActivityFilterInput, core: Core): Promise<ReadableStream<Uint8Array>> {
  assertActivityReader(auth);
  const f = parseFilter(input);
  const tz = zoneFor(auth, core, f.tz);
  const s = sortOf(f.sort);
  const oldestFirst = s.key === "date" && !s.desc;
  const span = filterSpan(f);
  let parts = await source(span, oldestFirst);
  const dir = oldestFirst ? asc : desc;
  const past = oldestFirst ? gt : lt;
  const encoder = new TextEncoder();
  let part = 0;
  let where: SQL | null = null;
  let last: { at: number; id: number } | null = null;
  /** The times not sent yet, within the filter's. */
  const rest = (): Span | null => {
    if (!last) return span;
    const whole = span ?? { from: -Number.MAX_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER };
    return oldestFirst ? { from: last.at, to: whole.to } : { from: whole.from, to: last.at + 1 };
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // The byte-order mark makes spreadsheet programs read the names as UTF-8.
      controller.enqueue(encoder.encode(`\uFEFF${REPORT_COLUMNS.join(",")}\r\n`));
    },
    // Each pull sends rows or closes: a pull that enqueues nothing is not called again (the Streams
    // standard's pull waits for the next read), so a part with no rows to send moves on to the next.
    async pull(controller) {
      for (;;) {
        if (part === parts.length) return controller.close();
        const { db, span: covers, unchanged } = parts[part];
        where ??= and(
          (await whereOf(db, auth, core, f, tz)).where,
          covers?.from !== undefined ? gte(l.activityTimestamp, covers.from) : undefined,
          covers?.to !== undefined ? lt(l.activityTimestamp, covers.to) : undefined,
        )!;
        const after = last ? or(past(l.activityTimestamp, last.at), and(eq(l.activityTimestamp, last.at), past(l.id, last.id))) : undefined;
        const rows = ((await joined(db).where(and(where, after)).orderBy(dir(l.activityTimestamp), dir(l.id)).limit(STREAM_CHUNK)) as Flat[]).map(shape);
        // Asked after the read: a store unchanged now had dropped nothing before the read either. Otherwise
        // rows this read missed are in the archive now; the keyset skips what was sent.
        if (unchanged && !(await unchanged())) {
          parts = await source(rest(), oldestFirst);
          part = 0;
          where = null;
          continue;
        }
        if (rows.length < STREAM_CHUNK) {
          part++;
          where = null;
        }
        if (rows.length === 0) continue;
        last = { at: rows[rows.length - 1].at, id: rows[rows.length - 1].id };
        controller.enqueue(encoder.encode(rows.map((r) => reportLine(r, tz) + "\r\n").join("")));
        if (part === parts.length) controller.close();
        return;
      }
    },
  });
}

async function findActivity(db: LogDb, auth: Auth, id: number): Promise<ActivityRow> {
  if (!Number.isSafeInteger(id) || id <= 0) notFound(ACTIVITY_MSG.notFound);
  const [row] = await joined(db)
    .where(inCompany(l, auth, eq(l.id, id)))
    .limit(1);
  return row ? shape(row as Flat) : notFound(ACTIVITY_MSG.notFound);
}

export type ActivityNote = { id: number; createdAt: number; author: string; note: string };

const notesOf = (db: LogDb, auth: Auth, activityId: number) =>
  db
    .select({ id: n.id, createdAt: n.createdAt, author: u.displayName, note: n.note })
    .from(n)
    .leftJoin(u, eq(u.id, n.userId))
    .where(inCompany(n, auth, eq(n.activityId, activityId)))
    .orderBy(asc(n.createdAt), asc(n.id))
    .limit(NOTES_LIMIT)
    .then((rows) => rows.map((r): ActivityNote => ({ ...r, author: r.author ?? "" })));

/** /activityDetails: the entry and its notes (404 outside the caller's company). */
export async function getActivity(db: LogDb, auth: Auth, id: number): Promise<{ row: ActivityRow; notes: ActivityNote[] }> {
  assertActivityReader(auth);
  const [row, notes] = await Promise.all([findActivity(db, auth, id), notesOf(db, auth, id)]);
  return { row, notes };
}

export async function listNotes(db: LogDb, auth: Auth, activityId: number): Promise<ActivityNote[]> {
  assertActivityReader(auth);
  await findActivity(db, auth, activityId);
  return notesOf(db, auth, activityId);
}

/** Adding a note is an addition to the log, so it needs the add right (a read-only role only reads notes). */
export async function addNote(db: Db, log: LogDb, auth: Auth, body: ActivityNoteInput, now: number): Promise<{ message: string; id: number }> {
  assertCan(auth, MODULE, "add");
  await findActivity(log, auth, body.id);
  const [note] = await db.insert(n).values({ companyId: auth.company.id, activityId: body.id, userId: auth.user.id, note: body.note, createdAt: now }).returning({ id: n.id });
  return { message: ACTIVITY_MSG.noteAdded, id: note.id };
}

/** Devices are named as the log names them: by full name, or the display name until one is configured. */
const deviceName = sql<string>`coalesce(nullif(${d.fullName}, ''), ${d.displayName})`;

/** Picker options (docs/ARCHITECTURE.md §8): activities with their type, and the company's users, devices and groups. */
export async function getActivityOptions(db: Db, auth: Auth) {
  assertActivityReader(auth);
  const [activities, users, devices, groups] = await db.batch([
    db.select({ id: at.id, name: at.name, type: at.type, alertConditions: at.alertConditions }).from(at).orderBy(asc(at.name)),
    db.select({ id: u.id, name: u.displayName, email: u.email }).from(u).where(liveInCompany(u, auth)).orderBy(asc(u.displayName), asc(u.id)).limit(OPTIONS_LIMIT),
    db.select({ id: d.id, name: deviceName }).from(d).where(liveInCompany(d, auth)).orderBy(asc(deviceName), asc(d.id)).limit(OPTIONS_LIMIT),
    db.select({ id: g.id, name: g.fullName }).from(g).where(liveInCompany(g, auth)).orderBy(asc(g.fullName), asc(g.id)).limit(OPTIONS_LIMIT),
  ]);
  return {
    activities,
    users: users.map((x) => ({ ...x, type: "User" as const })),
    devices: devices.map((x) => ({ ...x, type: "Device" as const })),
    deviceGroups: groups.map((x) => ({ ...x, type: "Device Group" as const })),
  };
}

/** The name behind an id+type filter, for the page's filter chip; null when not the caller's. */
export async function filterTargetName(db: Db, auth: Auth, type: FilterType, id: number): Promise<string | null> {
  const [row] =
    type === "Device"
      ? await db
          .select({ name: d.fullName })
          .from(d)
          .where(inCompany(d, auth, eq(d.id, id)))
          .limit(1)
      : type === "Device Group"
        ? await db
            .select({ name: g.fullName })
            .from(g)
            .where(inCompany(g, auth, eq(g.id, id)))
            .limit(1)
        : await db
            .select({ name: u.displayName })
            .from(u)
            .where(inCompany(u, auth, eq(u.id, id)))
            .limit(1);
  return row?.name ?? null;
}
