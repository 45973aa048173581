/**
 * What a directory group's members get (decision 0080): group keys to the device groups an admin linked
 * (each key carries `scim_group_id`, so leaving withdraws exactly the keys that group gave) and, when the
 * link names a role, that role. Nothing else: the directory never sets super admin, installer or any
 * other right. Every change reaches gateways through the feed's triggers, like a console change.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Core } from "~core";
import { groupKeyPlan, keyValues, type KeyPlan } from "~/services/ekeys.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { chunks, schema, type Db } from "~/utils/db.server";

const k = schema.ekeyAssignments;
const sg = schema.scimGroups;
const links = schema.scimGroupDeviceGroups;
const members = schema.scimGroupMembers;
const u = schema.users;

type BatchItem = Parameters<Db["batch"]>[0][number];

/** Who made the change, for the activity log: an admin (linking) or the directory (its token's name). */
export type Actor = { companyId: number; userId: number | null; directory: string | null };

export type GroupGrants = { groupId: number; name: string; roleId: number | null; keys: KeyPlan[] };

/** A group's link: what it grants, before the keys are planned. */
export type GroupLink = { groupId: number; name: string; roleId: number | null; deviceGroupIds: number[] };

/** The link an admin set on directory group `groupId`. */
export async function readLink(db: Db, companyId: number, groupId: number): Promise<GroupLink> {
  const [[group], rows] = await db.batch([
    db
      .select({ name: sg.displayName, roleId: sg.roleId })
      .from(sg)
      .where(and(eq(sg.companyId, companyId), eq(sg.id, groupId))),
    db
      .select({ id: links.deviceGroupId })
      .from(links)
      .where(and(eq(links.companyId, companyId), eq(links.scimGroupId, groupId))),
  ]);
  return { groupId, name: group?.name ?? "", roleId: group?.roleId ?? null, deviceGroupIds: rows.map((r) => r.id) };
}

/** A link's keys as of today (the company's day starts them), to live device groups of the company only. */
export async function grantsOf(db: Db, core: Core, companyId: number, link: GroupLink, zone: string, now: number): Promise<GroupGrants> {
  const { deviceGroups: g, timeZones: tz } = schema;
  const rows = link.deviceGroupIds.length
    ? await db
        .select({ group: g, zoneId: tz.id, zoneName: tz.name })
        .from(g)
        .leftJoin(tz, eq(tz.id, g.timeZoneId))
        .where(and(eq(g.companyId, companyId), isNull(g.deletedAt), inArray(g.id, link.deviceGroupIds)))
    : [];
  const today = core.formatLocal(now, zone).slice(0, 10);
  const keys = rows.map((r) => groupKeyPlan(r.group, r.zoneId != null && r.zoneName != null ? { id: r.zoneId, name: r.zoneName } : null, today));
  return { groupId: link.groupId, name: link.name, roleId: link.roleId, keys };
}

/** The grants of directory group `groupId` as linked now. */
export async function groupGrants(db: Db, core: Core, companyId: number, groupId: number, zone: string, now: number): Promise<GroupGrants> {
  return grantsOf(db, core, companyId, await readLink(db, companyId, groupId), zone, now);
}

const logBase = (a: Actor) => ({ companyId: a.companyId, createdByUserId: a.userId, ...(a.directory && { details: { directory: a.directory } }) });

/** Keys for `userIds` joining the group (audited per person when the group grants anything). */
export function joinStatements(db: Db, actor: Actor, grants: GroupGrants, userIds: readonly number[], now: number): BatchItem[] {
  if (!grants.keys.length && grants.roleId == null) return [];
  return userIds.flatMap((userId) => [
    ...grants.keys.map((plan) => db.insert(k).values({ ...keyValues(plan, null, now), companyId: actor.companyId, userId, scimGroupId: grants.groupId, createdAt: now })),
    activityInsert(db, { ...logBase(actor), name: "Directory Access Granted", targetUserId: userId, summary: grants.name, at: now }),
  ]);
}

/** The group's keys of `userIds` withdrawn (they left it, or the group went). */
export function leaveStatements(db: Db, actor: Actor, grants: GroupGrants, userIds: readonly number[], now: number): BatchItem[] {
  if (!userIds.length) return [];
  const audits =
    grants.keys.length || grants.roleId != null
      ? userIds.map((userId) => activityInsert(db, { ...logBase(actor), name: "Directory Access Withdrawn", targetUserId: userId, summary: grants.name, at: now }))
      : [];
  return [...chunks([...userIds]).map((ids) => db.delete(k).where(and(eq(k.companyId, actor.companyId), eq(k.scimGroupId, grants.groupId), inArray(k.userId, ids)))), ...audits];
}

/**
 * Each of `userIds` gets the role of their lowest-numbered directory group that links one, or no role.
 * Run after the membership change, and only when a group that links a role changed: a person in no
 * such group keeps the role an admin gave them. Super admins are out of the directory's reach.
 */
export function roleStatements(db: Db, companyId: number, userIds: readonly number[], now: number): BatchItem[] {
  const role = sql`(select ${sg.roleId} from ${sg} join ${members} on ${members.groupId} = ${sg.id}
    where ${members.userId} = ${u.id} and ${sg.roleId} is not null order by ${sg.id} limit 1)`;
  return chunks([...userIds]).map((ids) =>
    db
      .update(u)
      .set({ roleId: role, updatedAt: now })
      .where(and(eq(u.companyId, companyId), isNull(u.deletedAt), eq(u.isSuperAdmin, false), inArray(u.id, ids))),
  );
}

/** The members of a group (live users). */
export async function memberIds(db: Db, companyId: number, groupId: number): Promise<number[]> {
  const rows = await db
    .select({ id: members.userId })
    .from(members)
    .innerJoin(u, and(eq(u.id, members.userId), isNull(u.deletedAt)))
    .where(and(eq(members.companyId, companyId), eq(members.groupId, groupId)));
  return rows.map((r) => r.id);
}
