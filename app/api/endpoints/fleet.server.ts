/**
 * Fleet health across customer companies (decision 0091): root sees every company, a reseller its
 * subtree. Health of things only; no person, key or activity detail is ever in these answers.
 */
import { z } from "zod";
import { companyRefQuery } from "~/schemas/companies";
import { FLEET_SEARCH_MAX, FLEET_TROUBLES, parseFleetFilters } from "~/schemas/fleet";
import { assertPlatformCaller, companyIdOf } from "~/services/companies.server";
import { FLEET_BOARD_SORTS, FLEET_COMPANY_SORTS, FLEET_MODULES, listFleetBoards, listFleetCompanies, type FleetBoardRow, type FleetCompanyRow } from "~/services/fleet.server";
import { listFleetRollouts } from "~/services/fleet-rollouts.server";
import type { Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";
import { endpoint, type Permission } from "../define.server";

const tag = "Fleet";

const rolloutShape = z.object({
  id: z.number(),
  version: z.string(),
  device_type: z.string(),
  state: z.enum(["running", "paused"]),
  wave: z.number().describe("the highest open wave, 1 being the canary"),
  waves: z.number(),
  companies: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      code: z.string(),
      boards: z.number(),
      admitted: z.number(),
      installed: z.number(),
      failed: z.number(),
      deferred_until: z.string().nullable(),
    }),
  ),
});
const PAGE_MAX = 100;
const permission = { modules: FLEET_MODULES, guard: (_: Db, auth: Auth) => assertPlatformCaller(auth) } satisfies Permission;

const paging = {
  trouble: z
    .enum(FLEET_TROUBLES)
    .optional()
    .describe(
      "only companies (boards) with a board offline, low on battery, behind the active firmware, with an active door alarm, or with a clock more than 30 s off or zone data older than the core's (`clock`)",
    ),
  q: z.string().trim().max(FLEET_SEARCH_MAX).optional(),
  desc: z
    .enum(["0", "1", "true", "false"])
    .optional()
    .transform((v) => v === "1" || v === "true"),
  page: z.coerce.number().int().positive().max(100_000).default(1),
  page_size: z.coerce.number().int().positive().max(PAGE_MAX).default(25),
};
const filtersOf = (q: { trouble?: string; q?: string }) =>
  parseFleetFilters(new URLSearchParams(Object.entries({ trouble: q.trouble, q: q.q }).flatMap(([k, v]) => (v ? [[k, v]] : []))));

const companyShape = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  boards: z.number().describe("boards in service (not in stock)"),
  online: z.number(),
  offline: z.number(),
  offline_since: z.number().nullable().describe("epoch ms: the earliest time one of its offline boards was last known connected"),
  low_battery: z.number(),
  firmware_behind: z.number().describe("boards whose type has an active release of another version"),
  active_alarms: z.number().describe("door alarms not yet acknowledged"),
  clock_flagged: z.number().describe("boards whose clock is more than 30 s off their gateway's, or whose time-zone data is older than the core's"),
  last_sync: z.number().nullable().describe("epoch ms: when a gateway of the company's cell last called the console"),
});
const boardShape = z.object({
  id: z.number(),
  name: z.string(),
  serial_number: z.string(),
  device_type: z.string().nullable(),
  online: z.boolean().nullable().describe("null: no gateway ever reported the board"),
  since: z.number().nullable().describe("epoch ms: connected since (online), or last known connected (offline)"),
  low_battery: z.boolean(),
  firmware_version: z.string().nullable(),
  latest_version: z.string().nullable().describe("the active release of its type; null when none"),
  firmware_behind: z.boolean(),
  active_alarms: z.number(),
  clock_drift_ms: z.number().nullable().describe("the board's clock minus its gateway's at the last status that reported it; null: never reported"),
  tzdata: z.string().nullable().describe("the time-zone data version the board decides with (such as 2025b); null: never reported"),
  core_tzdata: z.string().nullable().describe("the gateway core's time-zone data version at that status"),
  clock_flagged: z.boolean().describe("drift over 30 s, or zone data older than the core's"),
  gateway: z.string().nullable().describe("the gateway that last reported it"),
});

const companyWire = (r: FleetCompanyRow) => ({
  id: r.id,
  name: r.name,
  code: r.code,
  boards: r.boards,
  online: r.online,
  offline: r.offline,
  offline_since: r.offlineSince,
  low_battery: r.lowBattery,
  firmware_behind: r.behind,
  active_alarms: r.alarms,
  clock_flagged: r.clock,
  last_sync: r.lastSync,
});
const boardWire = (r: FleetBoardRow) => ({
  id: r.id,
  name: r.name,
  serial_number: r.serialNumber,
  device_type: r.deviceType,
  online: r.online,
  since: r.since,
  low_battery: r.lowBattery,
  firmware_version: r.firmwareVersion,
  latest_version: r.latestVersion,
  firmware_behind: r.behind,
  active_alarms: r.alarms,
  clock_drift_ms: r.driftMs,
  tzdata: r.tzdata,
  core_tzdata: r.coreTzdata,
  clock_flagged: r.clockFlagged,
  gateway: r.gateway,
});

export const fleetEndpoints = [
  endpoint({
    method: "GET",
    path: "/fleet/companies",
    tag,
    summary:
      "Customer companies' board health (root: every company; a reseller: its subtree; 403 for a customer company). The most troubled first (`sort=trouble`, `desc=1`) unless `sort` names another column. Paged by page (from 1) and page_size (up to 100).",
    auth: "token",
    permission,
    query: z.object({ ...paging, sort: z.enum(FLEET_COMPANY_SORTS).optional() }),
    response: z.object({ payload: z.object({ total: z.number(), companies: z.array(companyShape) }) }),
    async handler({ db, auth, query, now }) {
      const { rows, total } = await listFleetCompanies(db, auth, {
        now,
        filters: filtersOf(query),
        sort: query.sort && { key: query.sort, desc: query.desc },
        page: { offset: (query.page - 1) * query.page_size, limit: query.page_size },
      });
      return { payload: { total, companies: rows.map(companyWire) } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/fleet/boards",
    tag,
    summary:
      "One customer company's boards and their health (company_id: its id or 4-character code; 404 outside the caller's view). Sorted by name unless `sort` says otherwise. Paged by page (from 1) and page_size (up to 100).",
    auth: "token",
    permission,
    query: companyRefQuery.extend({ ...paging, sort: z.enum(FLEET_BOARD_SORTS).optional() }),
    response: z.object({ payload: z.object({ company: z.object({ id: z.number(), name: z.string(), code: z.string() }), total: z.number(), boards: z.array(boardShape) }) }),
    async handler({ db, auth, query, now }) {
      const r = await listFleetBoards(db, auth, await companyIdOf(db, query.company_id), {
        now,
        filters: filtersOf(query),
        sort: query.sort && { key: query.sort, desc: query.desc },
        page: { offset: (query.page - 1) * query.page_size, limit: query.page_size },
      });
      return { payload: { company: r.company, total: r.total, boards: r.rows.map(boardWire) } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/fleet/rollouts",
    tag,
    summary:
      "Running and paused staged firmware rollouts (decision 0094), each with its progress per customer company of the caller's view: boards of the device type, those in open waves (`admitted`; none while the company sits rollouts out until `deferred_until`), installed, and failed since the last resume. Counts only.",
    auth: "token",
    permission,
    response: z.object({ payload: z.array(rolloutShape) }),
    async handler({ db, auth, now }) {
      const rows = await listFleetRollouts(db, auth, now);
      return {
        payload: rows.map((r) => ({
          id: r.id,
          version: r.version,
          device_type: r.deviceType,
          state: r.state,
          wave: r.wave + 1,
          waves: r.waves,
          companies: r.companies.map((c) => ({
            id: c.id,
            name: c.name,
            code: c.code,
            boards: c.boards,
            admitted: c.admitted,
            installed: c.installed,
            failed: c.failed,
            deferred_until: c.deferredUntil,
          })),
        })),
      };
    },
  }),
];
