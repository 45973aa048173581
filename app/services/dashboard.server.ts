/**
 * The home dashboard's numbers (decision 0033). Each is counted with the same conditions as the list
 * it links to, so a number and its filtered list always agree: users as /users shows them, devices
 * with the devices list's status expressions, denials with the activity log's own filter. Only the
 * numbers of modules the caller holds are computed.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Core } from "~core";
import type { Auth } from "~/utils/auth-guards.server";
import { companyToday } from "~/services/ekeys.server";
import type { LogDb } from "~/utils/company-log.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { liveInCompany } from "~/utils/tenant.server";
import { listActivity } from "./activity.server";
import { firmwarePendingSql, followsScheduleSql, presenceSql, scheduledOpenNow } from "./device-status.server";

export const DENIED_ACTIVITY = "Access Denied";

export type DashboardNumbers = {
  users?: number;
  devices?: { online: number; offline: number; neverSeen: number; scheduledOpen: number; lowBattery: number; firmwarePending: number };
  /** today: the company zone's date the denials are counted for */
  denied?: { today: string; count: number };
};

/** `log` is the company's activity log (its own store, app/utils/company-log.server.ts). */
export async function dashboardNumbers(db: Db, log: LogDb, auth: Auth, core: Core, now: number): Promise<DashboardNumbers> {
  const out: DashboardNumbers = {};
  const p = auth.permissions;
  const jobs: Promise<unknown>[] = [];
  if (can(p, "users")) {
    const u = schema.users;
    jobs.push(countWhere(db, u, liveInCompany(u, auth, eq(u.isInactive, false))).then(([r]) => (out.users = r?.n ?? 0)));
  }
  if (can(p, "devices")) jobs.push(deviceNumbers(db, core, auth, now).then((n) => (out.devices = n)));
  if (can(p, "activity")) {
    jobs.push(
      (async () => {
        const today = companyToday(auth, core, now);
        const page = await listActivity(log, auth, { filterFromDate: today, filterToDate: today, additionalFilter: DENIED_ACTIVITY, pageSize: 1 }, core);
        out.denied = { today, count: page.total };
      })(),
    );
  }
  await Promise.all(jobs);
  return out;
}

async function deviceNumbers(db: Db, core: Core, auth: Auth, now: number) {
  const d = schema.devices;
  const { online } = presenceSql(now);
  const n = (cond: ReturnType<typeof sql>) => sql<number>`coalesce(sum(case when ${cond} then 1 else 0 end), 0)`;
  const [[row], open] = await Promise.all([
    db
      .select({
        online: n(sql`${online} = 1`),
        offline: n(sql`${online} = 0`),
        neverSeen: n(sql`${online} is null`),
        following: n(followsScheduleSql),
        lowBattery: n(sql`${d.lowBattery} = 1`),
        firmwarePending: n(firmwarePendingSql),
      })
      .from(d)
      .where(and(liveInCompany(d, auth))),
    scheduledOpenNow(db, core, auth.company.id, now),
  ]);
  const { following, ...rest } = row;
  return { ...rest, scheduledOpen: open ? following : 0 };
}
