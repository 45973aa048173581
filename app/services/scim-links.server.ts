/**
 * What a directory group grants (decision 0080): an admin links it to device groups (group keys) and/or a
 * role. Linking applies at once to the group's present members: the keys the group gave are replaced by
 * the new link's, and their roles follow (grants.server.ts). Only a super admin links, and only to a role
 * within their own rights, so a directory can never hand out more than the admin could.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Core } from "~core";
import { DIRECTORY_MSG, scimGroupLinkSchema, type ScimGroupLinkInput } from "~/schemas/directory";
import { grantableRole } from "~/services/roles.server";
import { assertDirectoryAdmin } from "~/services/scim-tokens.server";
import { grantsOf, groupGrants, joinStatements, leaveStatements, memberIds, roleStatements, type Actor } from "~/services/scim/grants.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { companyZone, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { inCompany, liveInCompany } from "~/utils/tenant.server";

const sg = schema.scimGroups;
const links = schema.scimGroupDeviceGroups;

export type DirectoryGroupRow = {
  id: number;
  displayName: string;
  externalId: string | null;
  members: number;
  role: { id: number; title: string } | null;
  deviceGroups: { id: number; fullName: string }[];
};

export async function listDirectoryGroups(db: Db, auth: Auth): Promise<DirectoryGroupRow[]> {
  assertDirectoryAdmin(auth);
  const { roles: r, deviceGroups: g, scimGroupMembers: m, users: u } = schema;
  const [groups, linked] = await db.batch([
    db
      .select({
        id: sg.id,
        displayName: sg.displayName,
        externalId: sg.externalId,
        roleId: sg.roleId,
        roleTitle: r.title,
        members: sql<number>`(select count(*) from ${m} join ${u} on ${u.id} = ${m.userId} and ${u.deletedAt} is null where ${m.groupId} = ${sg.id})`,
      })
      .from(sg)
      .leftJoin(r, and(eq(r.id, sg.roleId), eq(r.companyId, sg.companyId)))
      .where(inCompany(sg, auth))
      .orderBy(asc(sg.displayName)),
    db
      .select({ scimGroupId: links.scimGroupId, id: g.id, fullName: g.fullName })
      .from(links)
      .innerJoin(g, and(eq(g.id, links.deviceGroupId), isNull(g.deletedAt)))
      .where(inCompany(links, auth))
      .orderBy(asc(g.fullName)),
  ]);
  return groups.map((x) => ({
    id: x.id,
    displayName: x.displayName,
    externalId: x.externalId,
    members: Number(x.members),
    role: x.roleId != null && x.roleTitle != null ? { id: x.roleId, title: x.roleTitle } : null,
    deviceGroups: linked.filter((l) => l.scimGroupId === x.id).map((l) => ({ id: l.id, fullName: l.fullName })),
  }));
}

export async function linkDirectoryGroup(db: Db, auth: Auth, core: Core, input: ScimGroupLinkInput, now: number): Promise<{ message: string }> {
  assertDirectoryAdmin(auth);
  const v = parseInput(scimGroupLinkSchema, input);
  const group =
    (await db
      .select()
      .from(sg)
      .where(inCompany(sg, auth, eq(sg.id, v.groupId)))
      .get()) ?? notFound(DIRECTORY_MSG.groupNotFound);
  const role = v.roleId != null ? await grantableRole(db, auth, v.roleId) : null;
  const deviceGroupIds = [...new Set(v.deviceGroupIds)];
  if (deviceGroupIds.length) {
    const g = schema.deviceGroups;
    const found = await db
      .select({ id: g.id })
      .from(g)
      .where(liveInCompany(g, auth, inArray(g.id, deviceGroupIds)));
    if (found.length !== deviceGroupIds.length) notFound(DIRECTORY_MSG.deviceGroupNotFound);
  }
  const companyId = auth.company.id;
  const zone = companyZone(auth);
  const actor: Actor = { companyId, userId: auth.user.id, directory: null };
  const people = await memberIds(db, companyId, group.id);
  const before = await groupGrants(db, core, companyId, group.id, zone, now);
  const after = await grantsOf(db, core, companyId, { groupId: group.id, name: group.displayName, roleId: role?.id ?? null, deviceGroupIds }, zone, now);
  await db.batch([
    db.delete(links).where(and(eq(links.companyId, companyId), eq(links.scimGroupId, group.id))),
    ...deviceGroupIds.map((deviceGroupId) => db.insert(links).values({ scimGroupId: group.id, deviceGroupId, companyId })),
    db
      .update(sg)
      .set({ roleId: role?.id ?? null, updatedAt: now })
      .where(inCompany(sg, auth, eq(sg.id, group.id))),
    ...leaveStatements(db, actor, before, people, now),
    ...joinStatements(db, actor, after, people, now),
    ...(before.roleId != null || after.roleId != null ? roleStatements(db, companyId, people, now) : []),
    activityInsert(db, {
      companyId,
      name: "Directory Group Linked",
      createdByUserId: auth.user.id,
      summary: `${group.displayName}: ${role ? `role ${role.title}, ` : ""}${deviceGroupIds.length} device groups`,
      details: { role_id: role?.id ?? null, device_group_ids: deviceGroupIds, members: people.length },
      at: now,
    }),
  ]);
  return { message: DIRECTORY_MSG.groupLinked };
}

/** What a group may be linked to: the company's roles and live device groups (the server still checks each link). */
export async function directoryLinkOptions(db: Db, auth: Auth) {
  assertDirectoryAdmin(auth);
  const { roles: r, deviceGroups: g } = schema;
  const [roles, deviceGroups] = await db.batch([
    db.select({ id: r.id, title: r.title }).from(r).where(inCompany(r, auth)).orderBy(asc(r.title)),
    db.select({ id: g.id, fullName: g.fullName }).from(g).where(liveInCompany(g, auth)).orderBy(asc(g.fullName)),
  ]);
  return { roles, deviceGroups };
}
