/**
 * A device's live status as SQL expressions over `devices` (decision 0033), shared by the devices
 * list and the home dashboard so both count the same way:
 * - online: 1 while a gateway instance that called the console within PRESENCE_STALE_MS reports the
 *   board connected, 0 once seen but not so, null when no gateway ever reported it;
 * - since: when it connected (online) or was last known connected (offline);
 * - firmware pending: the active release of its type is another version, or a delivery is under way.
 * A board in a reseller's stock is boxed, not in service: it counts in none of these (decision 0056).
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { Core } from "~core";
import { DEACTIVATED } from "~/schemas/device-groups";
import { schema, type Db } from "~/utils/db.server";
import { PRESENCE_STALE_MS } from "./board-presence.server";
import { loadScheduledOpen } from "./door-decision.server";
import { isInForce, lockdownIds } from "./lockdown.server";

const d = schema.devices;
const p = schema.devicePresence;
const g = schema.gateways;
const f = schema.firmwareReleases;
const fp = schema.firmwareProgress;
const l = schema.companyLockdowns;
const m = schema.deviceGroupMembers;
const dg = schema.deviceGroups;

export function presenceSql(now: number) {
  const cut = now - PRESENCE_STALE_MS;
  const live = sql`(${p.online} = 1 and coalesce(${g.lastSeenAt}, 0) >= ${cut})`;
  const rows = sql`from ${p} left join ${g} on ${g.id} = ${p.gatewayId} where ${p.deviceId} = ${d.id}`;
  const online = sql<number | null>`(select case when count(*) = 0 then null when max(${live}) = 1 then 1 else 0 end ${rows})`;
  const since = sql<number | null>`(select case when max(${live}) = 1 then min(case when ${live} then ${p.since} end)
    else max(case when ${p.online} = 1 then max(${p.since}, coalesce(${g.lastSeenAt}, 0)) else ${p.since} end) end ${rows})`;
  return { online, since };
}

/** In service: anything but a board in stock, which is in its box and never connected or reporting. */
export const inServiceSql: SQL = sql`${d.status} <> 'stock'`;

/** Versions are compared as strings, as the gateway does before it offers a release. */
export const firmwarePendingSql: SQL<number> = sql<number>`(exists (select 1 from ${f} where ${f.deviceTypeId} = ${d.deviceTypeId} and ${f.isActive} = 1
  and ${f.deletedAt} is null and ${f.version} is not coalesce(${d.firmwareVersion}, ''))
  or exists (select 1 from ${fp} where ${fp.deviceId} = ${d.id} and ${fp.state} in ('offered', 'downloading', 'verified')))`;

/** In service and following the company's scheduled-open hours: held open while those hours are open. */
export const followsScheduleSql: SQL = sql`(${d.status} = 'configured' and ${d.scheduleOpen} = 1)`;

/**
 * The doors held unlocked at `now`, as SQL over `devices` (decision 0087, the rule of the door decision's
 * `heldOpen`): the hours' doors while the core says the hours are open, except those a lockdown covers, and
 * every configured door an evacuation covers. With it, the lockdown or evacuation in force and the doors
 * it covers (the dashboard counts them).
 */
export async function doorHoldNow(
  db: Db,
  core: Core,
  companyId: number,
  now: number,
): Promise<{ heldOpen: SQL; lockdown: { mode: "lockdown" | "evacuation"; covers: SQL } | null }> {
  const [state, [lockdown]] = await Promise.all([loadScheduledOpen(db, companyId), db.select().from(l).where(eq(l.companyId, companyId))]);
  if (!state.live) return { heldOpen: sql`0`, lockdown: null };
  const hours = state.schedule && core.isOpen(state.schedule, now) ? followsScheduleSql : sql`0`;
  if (!lockdown || !isInForce(lockdown, now)) return { heldOpen: hours, lockdown: null };
  const ids = lockdownIds(lockdown.scopeIds);
  const inScope =
    lockdown.scope === "company"
      ? sql`1`
      : lockdown.scope === "doors"
        ? sql`${d.id} in ${ids.length ? ids : [0]}`
        : sql`exists (select 1 from ${m} join ${dg} on ${dg.id} = ${m.groupId} where ${m.deviceId} = ${d.id} and ${m.groupId} in ${ids.length ? ids : [0]}
            and ${dg.deletedAt} is null and ${dg.status} <> ${DEACTIVATED})`;
  const covers = sql`(${d.status} = 'configured' and ${inScope})`;
  return {
    heldOpen: lockdown.mode === "evacuation" ? sql`(${covers} or ${hours})` : sql`(${hours} and not ${inScope})`,
    lockdown: { mode: lockdown.mode, covers },
  };
}
