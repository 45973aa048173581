/**
 * Fleet health across customer companies (decision 0091): for a reseller its subtree, for the platform
 * every company. Only the health of things: boards online and offline and since when, low batteries,
 * firmware behind the active release, active door alarms, clocks and zone data flagged (decision 0092), and
 * when the company's gateways last followed the change feed. Never people: no user, key or activity detail is read here.
 */
import { and, asc, count, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { FleetFilters, FleetTrouble } from "~/schemas/fleet";
import type { Auth } from "~/utils/auth-guards.server";
import { DRIFT_FLAG_MS } from "~/utils/board-clock";
import { schema, type Db } from "~/utils/db.server";
import { notFound } from "~/utils/errors.server";
import { assertPlatformCaller, COMPANY_MSG, findVisibleCompany, visibleCompanies } from "./companies.server";
import { inServiceSql, presenceSql } from "./device-status.server";

const { companies: c, devices: d, deviceTypes: dt, firmwareReleases: f, doorAlarms: a, devicePresence: p, gateways: g, deviceClocks: k } = schema;

/** The active release of the board's type, newest first; null when its type has none. */
const latestVersion = sql<string | null>`(select ${f.version} from ${f} where ${f.deviceTypeId} = ${d.deviceTypeId} and ${f.isActive} = 1
  and ${f.deletedAt} is null order by ${f.id} desc limit 1)`;
/** Behind: its type has an active release of another version (compared as strings, as the gateway does). */
const behindSql = sql<number>`(exists (select 1 from ${f} where ${f.deviceTypeId} = ${d.deviceTypeId} and ${f.isActive} = 1
  and ${f.deletedAt} is null and ${f.version} is not coalesce(${d.firmwareVersion}, '')))`;
const activeAlarms = sql<number>`(select count(*) from ${a} where ${a.deviceId} = ${d.id} and ${a.state} = 'active')`;
/** The zone data is older than the core's, by the rule of utils/board-clock.ts (year, letters' length, letters). */
const staleZonesSql = sql`(${k.tzdata} is not null and (substr(${k.tzdata}, 1, 4) < substr(${k.coreTzdata}, 1, 4) or (substr(${k.tzdata}, 1, 4) = substr(${k.coreTzdata}, 1, 4)
  and (length(${k.tzdata}) < length(${k.coreTzdata}) or (length(${k.tzdata}) = length(${k.coreTzdata}) and ${k.tzdata} < ${k.coreTzdata})))))`;
/** Its last clock reading is flagged: drift past DRIFT_FLAG_MS, or zone data older than the core's. */
const clockFlaggedSql = sql<number>`(exists (select 1 from ${k} where ${k.deviceId} = ${d.id} and (abs(coalesce(${k.driftMs}, 0)) > ${DRIFT_FLAG_MS} or ${staleZonesSql})))`;
const likeOf = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
const liveBoards = and(isNull(d.deletedAt), inServiceSql) as SQL;

export type FleetCompanyRow = {
  id: number;
  name: string;
  code: string;
  boards: number;
  online: number;
  offline: number;
  /** The earliest instant (epoch ms) one of its offline boards was last known connected; null with none offline. */
  offlineSince: number | null;
  lowBattery: number;
  behind: number;
  alarms: number;
  /** Boards whose clock or zone data is flagged. */
  clock: number;
  /** When a gateway of the company's cell last called the console (follows the feed); null if none ever did. */
  lastSync: number | null;
};

/** `trouble`, the default, is every count of trouble added up: the most troubled companies first. */
export const FLEET_COMPANY_SORTS = ["trouble", "name", "code", "boards", "offline", "lowBattery", "behind", "alarms", "clock", "lastSync"] as const;
/** Who may look: the platform's company module, a reseller's VAR panel (the service checks the company type too). */
export const FLEET_MODULES = ["company", "var_panel"] as const;

type Slice = { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } };

/** Customer companies in the caller's view with their boards' health, the most troubled first by default. */
export async function listFleetCompanies(db: Db, auth: Auth, o: Slice & { filters?: FleetFilters; now: number }): Promise<{ rows: FleetCompanyRow[]; total: number }> {
  assertPlatformCaller(auth);
  const { online, since } = presenceSql(o.now);
  const agg = db
    .select({
      companyId: d.companyId,
      boards: count(d.id).as("boards"),
      online: sql<number>`sum(case when ${online} = 1 then 1 else 0 end)`.as("online_n"),
      offline: sql<number>`sum(case when ${online} = 0 then 1 else 0 end)`.as("offline_n"),
      offlineSince: sql<number | null>`min(case when ${online} = 0 then ${since} end)`.as("offline_since"),
      lowBattery: sql<number>`sum(case when ${d.lowBattery} = 1 then 1 else 0 end)`.as("low_battery_n"),
      behind: sql<number>`sum(${behindSql})`.as("behind_n"),
      alarms: sql<number>`sum(${activeAlarms})`.as("alarms_n"),
      clock: sql<number>`sum(${clockFlaggedSql})`.as("clock_n"),
    })
    .from(d)
    .where(liveBoards)
    .groupBy(d.companyId)
    .as("fleet");
  const n = (x: unknown) => sql<number>`coalesce(${x}, 0)`;
  const cols = {
    boards: n(agg.boards),
    online: n(agg.online),
    offline: n(agg.offline),
    lowBattery: n(agg.lowBattery),
    behind: n(agg.behind),
    alarms: n(agg.alarms),
    clock: n(agg.clock),
    lastSync: sql<number | null>`(select max(${g.lastSeenAt}) from ${g} where ${g.cell} = ${c.cell})`,
  };
  const sorts: Record<(typeof FLEET_COMPANY_SORTS)[number], SQL> = {
    trouble: sql`${cols.offline} + ${cols.lowBattery} + ${cols.behind} + ${cols.alarms} + ${cols.clock}`,
    name: sql`lower(${c.name})`,
    code: sql`${c.code}`,
    boards: cols.boards,
    offline: cols.offline,
    lowBattery: cols.lowBattery,
    behind: cols.behind,
    alarms: cols.alarms,
    clock: cols.clock,
    lastSync: sql`coalesce(${cols.lastSync}, 0)`,
  };
  const f = o.filters ?? {};
  const trouble: Record<FleetTrouble, SQL> = {
    offline: sql`${cols.offline} > 0`,
    lowBattery: sql`${cols.lowBattery} > 0`,
    behind: sql`${cols.behind} > 0`,
    alarms: sql`${cols.alarms} > 0`,
    clock: sql`${cols.clock} > 0`,
  };
  const where = visibleCompanies(
    auth,
    // The caller's own company is not a customer: a reseller's stock has its own screen.
    sql`${c.id} <> ${auth.company.id}`,
    f.trouble ? trouble[f.trouble] : undefined,
    f.q ? sql`(lower(${c.name}) like ${likeOf(f.q)} escape '\\' or lower(${c.code}) like ${likeOf(f.q)} escape '\\')` : undefined,
  );
  const key = o.sort && o.sort.key in sorts ? (o.sort.key as keyof typeof sorts) : "trouble";
  const order = [(o.sort ? (o.sort.desc ? desc : asc) : desc)(sorts[key]), asc(sql`lower(${c.name})`), asc(c.id)];
  const base = db
    .select({ id: c.id, name: c.name, code: c.code, ...cols, offlineSince: agg.offlineSince })
    .from(c)
    .leftJoin(agg, eq(agg.companyId, c.id))
    .where(where)
    .orderBy(...order);
  const [rows, totals] = await db.batch([
    o.page ? base.limit(o.page.limit).offset(o.page.offset) : base,
    db.select({ n: count() }).from(c).leftJoin(agg, eq(agg.companyId, c.id)).where(where),
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      code: r.code,
      boards: Number(r.boards),
      online: Number(r.online),
      offline: Number(r.offline),
      offlineSince: r.offlineSince == null ? null : Number(r.offlineSince),
      lowBattery: Number(r.lowBattery),
      behind: Number(r.behind),
      alarms: Number(r.alarms),
      clock: Number(r.clock),
      lastSync: r.lastSync == null ? null : Number(r.lastSync),
    })),
    total: Number(totals[0]?.n ?? 0),
  };
}

export type FleetBoardRow = {
  id: number;
  name: string;
  serialNumber: string;
  deviceType: string | null;
  /** null: no gateway ever reported it. */
  online: boolean | null;
  /** Connected since (online) or last known connected (offline). */
  since: number | null;
  lowBattery: boolean;
  firmwareVersion: string | null;
  latestVersion: string | null;
  behind: boolean;
  alarms: number;
  /** Its clock minus its gateway's at the last reading; null: never reported. */
  driftMs: number | null;
  /** The zone data it decides with, and the core's at that reading; null: never reported. */
  tzdata: string | null;
  coreTzdata: string | null;
  /** Its clock or zone data is flagged. */
  clockFlagged: boolean;
  /** The gateway that last reported it. */
  gateway: string | null;
};

export const FLEET_BOARD_SORTS = ["name", "serialNumber", "since", "firmwareVersion", "alarms", "clock"] as const;

/** One customer company's boards in the caller's view (404 outside it), with their health. */
export async function listFleetBoards(
  db: Db,
  auth: Auth,
  companyId: number,
  o: Slice & { filters?: FleetFilters; now: number },
): Promise<{ company: { id: number; name: string; code: string }; rows: FleetBoardRow[]; total: number }> {
  assertPlatformCaller(auth);
  // The caller's own company is not a customer (root sees itself among all companies): 404, as outside the view.
  if (companyId === auth.company.id) notFound(COMPANY_MSG.notFound);
  const company = await findVisibleCompany(db, auth, companyId);
  const { online, since } = presenceSql(o.now);
  const name = sql<string>`coalesce(nullif(${d.displayName}, ''), ${d.fullName})`;
  const gateway = sql<string | null>`(select ${g.name} from ${p} join ${g} on ${g.id} = ${p.gatewayId} where ${p.deviceId} = ${d.id} order by ${p.updatedAt} desc limit 1)`;
  const f = o.filters ?? {};
  const trouble: Record<FleetTrouble, SQL> = {
    offline: sql`${online} = 0`,
    lowBattery: sql`${d.lowBattery} = 1`,
    behind: behindSql,
    alarms: sql`${activeAlarms} > 0`,
    clock: clockFlaggedSql,
  };
  const where = and(
    eq(d.companyId, company.id),
    liveBoards,
    f.trouble ? trouble[f.trouble] : undefined,
    f.q ? sql`(lower(${name}) like ${likeOf(f.q)} escape '\\' or lower(${d.serialNumber}) like ${likeOf(f.q)} escape '\\')` : undefined,
  ) as SQL;
  const sorts: Record<(typeof FLEET_BOARD_SORTS)[number], SQL> = {
    name: sql`lower(${name})`,
    serialNumber: sql`${d.serialNumber}`,
    since: sql`coalesce(${since}, 0)`,
    firmwareVersion: sql`coalesce(${d.firmwareVersion}, '')`,
    alarms: activeAlarms,
    clock: sql`abs(coalesce(${k.driftMs}, 0))`,
  };
  const key = o.sort && o.sort.key in sorts ? (o.sort.key as keyof typeof sorts) : "name";
  const base = db
    .select({
      id: d.id,
      name,
      serialNumber: d.serialNumber,
      deviceType: dt.deviceType,
      online,
      since,
      lowBattery: d.lowBattery,
      firmwareVersion: d.firmwareVersion,
      latestVersion,
      behind: behindSql,
      alarms: activeAlarms,
      driftMs: k.driftMs,
      tzdata: k.tzdata,
      coreTzdata: k.coreTzdata,
      clockFlagged: clockFlaggedSql,
      gateway,
    })
    .from(d)
    .leftJoin(dt, eq(dt.id, d.deviceTypeId))
    .leftJoin(k, eq(k.deviceId, d.id))
    .where(where)
    .orderBy((o.sort?.desc ? desc : asc)(sorts[key]), asc(d.id));
  const [rows, totals] = await db.batch([o.page ? base.limit(o.page.limit).offset(o.page.offset) : base, db.select({ n: count() }).from(d).where(where)]);
  return {
    company: { id: company.id, name: company.name, code: company.code },
    rows: rows.map((r) => ({
      ...r,
      online: r.online == null ? null : Number(r.online) === 1,
      since: r.since == null ? null : Number(r.since),
      lowBattery: Boolean(r.lowBattery),
      behind: Boolean(Number(r.behind)),
      alarms: Number(r.alarms),
      clockFlagged: Boolean(Number(r.clockFlagged)),
    })),
    total: Number(totals[0]?.n ?? 0),
  };
}
