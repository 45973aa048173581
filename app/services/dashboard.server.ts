/**
 * The home dashboard's numbers (decision 0033). Each is counted with the same conditions as the list
 * it links to, so a number and its filtered list always agree: users as /users shows them, devices
 * with the devices list's status expressions, denials with the activity log's own filter. Only the
 * numbers of modules the caller holds are computed. A company admin's first-run checklist (decision
 * 0056) is read in the same D1 batch as the counts, and from the activity log's tallies.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Core } from "~core";
import type { Auth } from "~/utils/auth-guards.server";
import { companyToday } from "~/services/ekeys.server";
import { batchOf, type Batch } from "~/utils/batch-of.server";
import type { Checklist } from "~/utils/checklist-steps";
import type { LogDb } from "~/utils/company-log.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { can, type ModuleKey } from "~/utils/permissions";
import { liveInCompany } from "~/utils/tenant.server";
import { listActivity } from "./activity.server";
import { activeAlarmsWhere } from "./door-alarms.server";
import { firmwarePendingSql, followsScheduleSql, inServiceSql, lockdownCoversSql, presenceSql, scheduledOpenNow } from "./device-status.server";

export const DENIED_ACTIVITY = "Access Denied";

/** Who is shown the checklist: an admin of a customer company, who can act on every step. */
const CHECKLIST_MODULES: readonly ModuleKey[] = ["users", "devices", "company_settings", "activity"];
/** A door was opened by a person's credential: what "test a door" waits for. */
const DOOR_OPENED = ["Access Granted", "Unlocked With App"];
/** The app reached people: an invite was resent (a first invite is a live invite link, `checklistRow`), or someone used the phone app (signed in, opened a door). */
const INVITED = "Invite Resent";
const PHONE_SIGN_IN = "User Logs In";

export type DashboardNumbers = {
  users?: number;
  /** A lockdown or evacuation in force, and how many of the company's doors it covers. */
  lockdown?: { mode: "lockdown" | "evacuation"; doors: number };
  devices?: { online: number; offline: number; neverSeen: number; scheduledOpen: number; lowBattery: number; firmwarePending: number };
  /** today: the company zone's date the denials are counted for */
  denied?: { today: string; count: number };
  /** door alarms nobody has acknowledged yet (decision 0076) */
  alarms?: number;
  checklist?: Checklist;
};

export const showsChecklist = (auth: Auth) => auth.company.type !== "var" && auth.company.type !== "root" && CHECKLIST_MODULES.every((m) => auth.permissions[m]);

/**
 * `log` is the company's activity log (its own store, app/utils/company-log.server.ts). The D1 reads go
 * into `batch` and run as one round trip; a caller with more to read (the reseller's home) adds its own
 * statements to the same batch first and reads them from `batch.run()` afterwards.
 */
export async function dashboardNumbers(db: Db, log: LogDb, auth: Auth, core: Core, now: number, batch: Batch = batchOf(db)): Promise<DashboardNumbers> {
  const out: DashboardNumbers = {};
  const p = auth.permissions;
  const u = schema.users;
  const readUsers = can(p, "users") ? batch.add(countWhere(db, u, liveInCompany(u, auth, eq(u.isInactive, false)))) : null;
  const readDevices = can(p, "devices") ? batch.add(deviceNumbers(db, auth, now)) : null;
  const readAlarms = can(p, "activity") ? batch.add(countWhere(db, schema.doorAlarms, activeAlarmsWhere(auth))) : null;
  const readChecklist = showsChecklist(auth) ? batch.add(checklistRow(db, auth)) : null;
  const jobs: Promise<unknown>[] = [batch.run()];
  let hoursOpen = false;
  if (readDevices) jobs.push(scheduledOpenNow(db, core, auth.company.id, now).then((open) => (hoursOpen = open)));
  if (can(p, "activity")) {
    jobs.push(
      (async () => {
        const today = companyToday(auth, core, now);
        const page = await listActivity(log, auth, { filterFromDate: today, filterToDate: today, additionalFilter: DENIED_ACTIVITY, pageSize: 1 }, core);
        out.denied = { today, count: page.total };
      })(),
    );
  }
  const tallies = readChecklist ? checklistTallies(log, auth) : null;
  if (tallies) jobs.push(tallies);
  await Promise.all(jobs);
  const results = await batch.run();
  if (readUsers) out.users = readUsers(results)[0]?.n ?? 0;
  if (readAlarms) out.alarms = readAlarms(results)[0]?.n ?? 0;
  if (readDevices) {
    // Doors held open now (decision 0087): an evacuation's, and the hours' doors no lockdown or evacuation covers.
    const { followingFree, evacuated, covered, ...rest } = readDevices(results)[0];
    out.devices = { ...rest, scheduledOpen: evacuated + (hoursOpen ? followingFree : 0) };
    if (auth.company.lockdown) out.lockdown = { mode: auth.company.lockdown.mode, doors: covered };
  }
  if (readChecklist && tallies) {
    const row = readChecklist(results)[0];
    const seen = await tallies;
    out.checklist = {
      zone: auth.company.zone != null,
      door: Boolean(row?.door),
      people: Boolean(row?.people),
      app: Boolean(row?.phone) || seen.app,
      test: seen.test,
    };
  }
  return out;
}

/** The device numbers, one statement; boards in stock are left out (decision 0056). */
function deviceNumbers(db: Db, auth: Auth, now: number) {
  const d = schema.devices;
  const { online } = presenceSql(now);
  const n = (cond: ReturnType<typeof sql>) => sql<number>`coalesce(sum(case when ${cond} then 1 else 0 end), 0)`;
  return db
    .select({
      online: n(sql`${online} = 1`),
      offline: n(sql`${online} = 0`),
      neverSeen: n(sql`${online} is null`),
      // The hours' doors no lockdown or evacuation covers, and the configured doors one covers.
      followingFree: n(sql`${followsScheduleSql} and not ${lockdownCoversSql(now)}`),
      covered: n(sql`${d.status} = 'configured' and ${lockdownCoversSql(now)}`),
      evacuated: n(sql`${d.status} = 'configured' and ${lockdownCoversSql(now, "evacuation")}`),
      lowBattery: n(sql`${d.lowBattery} = 1`),
      firmwarePending: n(firmwarePendingSql),
    })
    .from(d)
    .where(liveInCompany(d, auth, inServiceSql));
}

/** The checklist's D1 facts in one row: a configured door, a person who is not an administrator, a phone bound to someone or a person's invite link. */
function checklistRow(db: Db, auth: Auth) {
  const id = auth.company.id;
  return db
    .select({
      door: sql<number>`exists (select 1 from devices where company_id = ${id} and deleted_at is null and status = 'configured')`,
      people: sql<number>`exists (select 1 from users where company_id = ${id} and deleted_at is null and is_super_admin = 0)`,
      phone: sql<number>`exists (select 1 from users where company_id = ${id} and deleted_at is null and bound_device_id is not null)
        or exists (select 1 from phone_authenticators where company_id = ${id})
        or exists (select 1 from password_reset_tokens p join users u on u.id = p.user_id
          where p.company_id = ${id} and p.purpose = 'invite' and u.is_super_admin = 0)`,
    })
    .from(schema.companies)
    .where(eq(schema.companies.id, id));
}

/** From the log's tallies (one statement): has a door opened for someone, and has the app reached anyone. */
async function checklistTallies(log: LogDb, auth: Auth): Promise<{ app: boolean; test: boolean }> {
  const c = schema.activityCounts;
  const t = schema.activityTypes;
  const rows = await log
    .select({ name: t.name, op: c.operationType, n: c.n })
    .from(c)
    .innerJoin(t, eq(t.id, c.activityTypeId))
    .where(and(eq(c.companyId, auth.company.id), inArray(t.name, [...DOOR_OPENED, INVITED, PHONE_SIGN_IN]), sql`${c.n} > 0`));
  return {
    test: rows.some((r) => DOOR_OPENED.includes(r.name)),
    app: rows.some((r) => r.name === INVITED || r.op === "App"),
  };
}
