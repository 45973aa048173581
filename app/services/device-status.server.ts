/**
 * A device's live status as SQL expressions over `devices` (decision 0033), shared by the devices
 * list and the home dashboard so both count the same way:
 * - online: 1 while a gateway instance that called the console within PRESENCE_STALE_MS reports the
 *   board connected, 0 once seen but not so, null when no gateway ever reported it;
 * - since: when it connected (online) or was last known connected (offline);
 * - firmware pending: the active release of its type is another version, or a delivery is under way.
 * A board in a reseller's stock is boxed, not in service: it counts in none of these (decision 0056).
 */
import { sql, type SQL } from "drizzle-orm";
import type { Core } from "~core";
import { DEACTIVATED } from "~/schemas/device-groups";
import { schema, type Db } from "~/utils/db.server";
import { PRESENCE_STALE_MS } from "./board-presence.server";
import { loadScheduledOpen } from "./door-decision.server";

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

/** Whether the company's scheduled-open hours hold its doors open at `now`, decided by the core as at the doors. */
export async function scheduledOpenNow(db: Db, core: Core, companyId: number, now: number): Promise<boolean> {
  const state = await loadScheduledOpen(db, companyId);
  return Boolean(state.live && state.schedule && core.isOpen(state.schedule, now));
}

/**
 * The door is covered by its company's lockdown or evacuation in force at `now` (of `mode`, when given), as
 * SQL over `devices`: the rule of the door decision's `lockdownAt` (scope the company, the door, or one of its
 * live groups), read in the same statement, so a count costs no extra round trip.
 */
export function lockdownCoversSql(now: number, mode?: "lockdown" | "evacuation"): SQL {
  const inGroup = sql`exists (select 1 from ${m} join ${dg} on ${dg.id} = ${m.groupId} where ${m.deviceId} = ${d.id}
    and ${m.groupId} in (select value from json_each(${l.scopeIds})) and ${dg.deletedAt} is null and ${dg.status} <> ${DEACTIVATED})`;
  return sql`exists (select 1 from ${l} where ${l.companyId} = ${d.companyId} and ${l.startedAt} is not null and ${l.endedAt} is null
    and (${l.endsAt} is null or ${l.endsAt} > ${now}) ${mode ? sql`and ${l.mode} = ${mode}` : sql``}
    and (${l.scope} = 'company' or (${l.scope} = 'doors' and ${d.id} in (select value from json_each(${l.scopeIds}))) or (${l.scope} = 'groups' and ${inGroup})))`;
}

/**
 * The doors held unlocked at `now`, as SQL over `devices` (decision 0087, the rule of the door decision's
 * `heldOpen`): every configured door an evacuation covers, and the hours' doors while the hours are open
 * (`hoursOpen`, from `scheduledOpenNow`) that no lockdown or evacuation covers.
 */
export function heldOpenSql(hoursOpen: boolean, now: number): SQL {
  const evacuated = sql`(${d.status} = 'configured' and ${lockdownCoversSql(now, "evacuation")})`;
  return hoursOpen ? sql`(${evacuated} or (${followsScheduleSql} and not ${lockdownCoversSql(now)}))` : evacuated;
}
