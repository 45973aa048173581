/**
 * Roles and role assignment (spec part 2 §2 Roles, §3, §4, §5, §7 `user/*Role*`, `user/getUsers`).
 *
 * A role belongs to one company. No escalation: nobody creates, edits, deletes or assigns a role
 * holding a module or an action they do not hold themselves, and only a super admin may change a
 * super admin's role. Platform modules (company, deviceType) only exist in the root company's roles;
 * var_panel only in root and var companies' roles; billing_portal in any company's (decision 0024).
 */
import { asc, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { assignRoleSchema, modulesForCompanyType, ROLE_MSG, type RoleAction, type RoleInput } from "~/schemas/roles";
import { activityInsert } from "~/utils/activity-insert.server";
import { issuesByField } from "~/utils/field-errors";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { canAct, MODULES, type ModuleKey } from "~/utils/permissions";
import { inCompany, liveInCompany } from "~/utils/tenant.server";

const r = schema.roles;
const rm = schema.roleModules;
const u = schema.users;

/** A role as the console reads it; the API's names are mapped in `app/api/endpoints/roles.server.ts` (decision 0017). */
export type RoleRow = {
  id: number;
  title: string;
  description: string;
  permissionAll: boolean;
  permissionAdd: boolean;
  permissionModify: boolean;
  permissionView: boolean;
  permissionDelete: boolean;
  /** The role's modules, in `MODULES` order. */
  modules: ModuleKey[];
  users: number;
};

function toRow(row: typeof r.$inferSelect, modules: string[], users: number): RoleRow {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    permissionAll: row.permissionAll,
    permissionAdd: row.permissionAdd,
    permissionModify: row.permissionModify,
    permissionView: row.permissionView,
    permissionDelete: row.permissionDelete,
    modules: MODULES.filter((m) => modules.includes(m)),
    users,
  };
}

/** The caller's company's roles, by title, each with its modules and how many users hold it. */
export async function listRoles(db: Db, auth: Auth): Promise<RoleRow[]> {
  assertCan(auth, "role");
  const [roles, modules, counts] = await db.batch([
    db.select().from(r).where(inCompany(r, auth)).orderBy(asc(r.title), asc(r.id)),
    db.select({ roleId: rm.roleId, key: rm.moduleKey }).from(rm).where(inCompany(rm, auth)),
    db
      .select({ roleId: u.roleId, n: sql<number>`count(*)` })
      .from(u)
      .where(liveInCompany(u, auth, isNotNull(u.roleId)))
      .groupBy(u.roleId),
  ]);
  return roles.map((role) =>
    toRow(
      role,
      modules.filter((m) => m.roleId === role.id).map((m) => m.key),
      Number(counts.find((c) => c.roleId === role.id)?.n ?? 0),
    ),
  );
}

async function findRole(db: Db, auth: Auth, id: number) {
  if (!Number.isInteger(id) || id <= 0) notFound(ROLE_MSG.notFound);
  const role = await db.query.roles.findFirst({ where: inCompany(r, auth, eq(r.id, id)) });
  if (!role) notFound(ROLE_MSG.notFound);
  const modules = await db.select({ key: rm.moduleKey }).from(rm).where(eq(rm.roleId, role!.id));
  return { role: role!, modules: modules.map((m) => m.key) as ModuleKey[] };
}

export async function getRoleDetails(db: Db, auth: Auth, id: number): Promise<RoleRow> {
  assertCan(auth, "role");
  const { role, modules } = await findRole(db, auth, id);
  const [n] = await countWhere(db, u, liveInCompany(u, auth, eq(u.roleId, role.id)));
  return toRow(role, modules, Number(n?.n ?? 0));
}

/** What a role grants, in the caller-comparable form. */
type Grant = { modules: readonly string[]; all: boolean; add: boolean; modify: boolean; view: boolean; delete: boolean };

const grantOfInput = (v: RoleInput): Grant => ({
  modules: v.modules,
  all: v.permissionAll,
  add: v.permissionAdd,
  modify: v.permissionModify,
  view: v.permissionView,
  delete: v.permissionDelete,
});
export const grantOfRow = (row: typeof r.$inferSelect, modules: readonly string[]): Grant => ({
  modules,
  all: row.permissionAll,
  add: row.permissionAdd,
  modify: row.permissionModify,
  view: row.permissionView,
  delete: row.permissionDelete,
});

/** No escalation: every module and action of `g` is held by the caller. */
export function assertWithinCaller(auth: Auth, g: Grant) {
  const p = auth.permissions;
  const missingModule = g.modules.some((m) => !p[m as ModuleKey]);
  const missingAction = (g.all && !p.permissionAll) || (g.add && !canAct(p, "add")) || (g.modify && !canAct(p, "modify")) || (g.delete && !canAct(p, "delete"));
  if (missingModule || missingAction) throw new ServiceError(403, ROLE_MSG.escalation);
}

function assertModulesAllowed(auth: Auth, v: RoleInput) {
  const allowed = modulesForCompanyType(auth.company.type);
  if (v.modules.some((m) => !allowed.includes(m))) throw new ServiceError(422, ROLE_MSG.notAllowedModule);
}

async function assertTitleFree(db: Db, auth: Auth, title: string, exceptId?: number) {
  const same = await db
    .select({ id: r.id })
    .from(r)
    .where(inCompany(r, auth, sql`lower(${r.title}) = ${title.toLowerCase()}`, exceptId ? ne(r.id, exceptId) : undefined))
    .limit(1);
  if (same.length) throw new ServiceError(422, ROLE_MSG.titleTaken, { fieldErrors: { title: [ROLE_MSG.titleTaken] } });
}

const roleColumns = (v: RoleInput) => ({
  title: v.title,
  description: v.description,
  permissionAll: v.permissionAll,
  permissionAdd: v.permissionAdd,
  permissionModify: v.permissionModify,
  permissionView: v.permissionView,
  permissionDelete: v.permissionDelete,
});

export async function createRole(db: Db, auth: Auth, v: RoleInput, now: number): Promise<{ id: number; message: string }> {
  assertCan(auth, "role", "add");
  assertModulesAllowed(auth, v);
  assertWithinCaller(auth, grantOfInput(v));
  await assertTitleFree(db, auth, v.title);
  const roleId = sql`(select id from roles where company_id = ${auth.company.id} and role_title = ${v.title})`;
  await db.batch([
    db.insert(r).values({ ...roleColumns(v), companyId: auth.company.id, createdAt: now, updatedAt: now }),
    ...(v.modules.length ? [db.insert(rm).values(v.modules.map((m) => ({ roleId, companyId: auth.company.id, moduleKey: m })))] : []),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Role Created",
      createdByUserId: auth.user.id,
      summary: v.title,
      details: { modules: v.modules },
      at: now,
    }),
  ]);
  const created = await db.query.roles.findFirst({ where: inCompany(r, auth, eq(r.title, v.title)), columns: { id: true } });
  return { id: created!.id, message: ROLE_MSG.created };
}

export async function modifyRole(db: Db, auth: Auth, id: number, v: RoleInput, now: number): Promise<{ message: string }> {
  assertCan(auth, "role", "modify");
  const { role, modules } = await findRole(db, auth, id);
  // Neither what the role holds now nor what it will hold may exceed the editor's own rights.
  assertWithinCaller(auth, grantOfRow(role, modules));
  assertModulesAllowed(auth, v);
  assertWithinCaller(auth, grantOfInput(v));
  await assertTitleFree(db, auth, v.title, role.id);
  await db.batch([
    db
      .update(r)
      .set({ ...roleColumns(v), updatedAt: now })
      .where(inCompany(r, auth, eq(r.id, role.id))),
    db.delete(rm).where(inCompany(rm, auth, eq(rm.roleId, role.id))),
    ...(v.modules.length ? [db.insert(rm).values(v.modules.map((m) => ({ roleId: role.id, companyId: auth.company.id, moduleKey: m })))] : []),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Role Modified",
      createdByUserId: auth.user.id,
      summary: v.title,
      details: { modules: v.modules },
      at: now,
    }),
  ]);
  return { message: ROLE_MSG.modified };
}

export async function deleteRole(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertCan(auth, "role", "delete");
  const { role, modules } = await findRole(db, auth, id);
  assertWithinCaller(auth, grantOfRow(role, modules));
  const holders = await db
    .select({ id: u.id })
    .from(u)
    .where(liveInCompany(u, auth, eq(u.roleId, role.id)))
    .limit(1);
  if (holders.length) throw new ServiceError(422, ROLE_MSG.inUse);
  await db.batch([
    db.delete(rm).where(inCompany(rm, auth, eq(rm.roleId, role.id))),
    db.delete(r).where(inCompany(r, auth, eq(r.id, role.id))),
    // Users who held it while deleted keep no dangling id.
    db
      .update(u)
      .set({ roleId: null })
      .where(inCompany(u, auth, eq(u.roleId, role.id))),
    activityInsert(db, { companyId: auth.company.id, name: "Role Removed", createdByUserId: auth.user.id, summary: role.title, at: now }),
  ]);
  return { message: ROLE_MSG.removed };
}

export type RoleUserRow = { id: number; displayName: string; email: string; isSuperAdmin: boolean; role: { id: number; title: string } | null };

/** GET user/getUsers: live users without a role, or (`assigned`) with one, by display name. */
export async function listRoleUsers(db: Db, auth: Auth, type: "assigned" | "unassigned" = "unassigned"): Promise<RoleUserRow[]> {
  assertCan(auth, "role");
  const rows = await db
    .select({ id: u.id, name: u.displayName, email: u.email, superAdmin: u.isSuperAdmin, roleId: u.roleId, roleTitle: r.title })
    .from(u)
    .leftJoin(r, eq(r.id, u.roleId))
    .where(liveInCompany(u, auth, type === "assigned" ? isNotNull(u.roleId) : isNull(u.roleId)))
    .orderBy(asc(u.displayName), asc(u.id));
  return rows.map((row) => ({
    id: row.id,
    displayName: row.name,
    email: row.email,
    isSuperAdmin: row.superAdmin,
    role: row.roleId != null ? { id: row.roleId, title: row.roleTitle ?? "" } : null,
  }));
}

async function findUser(db: Db, auth: Auth, id: number) {
  const user = await db.query.users.findFirst({ where: liveInCompany(u, auth, eq(u.id, id)) });
  return user ?? notFound(ROLE_MSG.userNotFound);
}

/** Only a super admin may change a super admin's role. */
function assertMayChangeRoleOf(auth: Auth, user: { isSuperAdmin: boolean }) {
  if (user.isSuperAdmin && !auth.user.isSuperAdmin) forbidden(ROLE_MSG.superAdmin);
}

/** Nobody changes or removes their own role: one click would lock the caller (maybe the company's only admin) out. */
function assertNotOwnRole(auth: Auth, user: { id: number; roleId: number | null }, newRoleId: number | null) {
  if (user.id === auth.user.id && user.roleId !== newRoleId) forbidden(ROLE_MSG.ownRole);
}

export async function assignRole(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string }> {
  assertCan(auth, "role", "add");
  const parsed = assignRoleSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors = issuesByField(parsed.error.issues);
    // 'Required role' first, as the form lists the role first.
    const message = fieldErrors.role_id?.[0] ?? parsed.error.issues[0].message;
    throw new ServiceError(400, message, { fieldErrors });
  }
  const { role, modules } = await findRole(db, auth, parsed.data.role_id);
  const user = await findUser(db, auth, parsed.data.user_id);
  assertMayChangeRoleOf(auth, user);
  assertNotOwnRole(auth, user, role.id);
  assertWithinCaller(auth, grantOfRow(role, modules));
  // Taking a role away is also a change of rights: the role the user holds now must be within the caller's too.
  if (user.roleId != null && user.roleId !== role.id) {
    const current = await findRole(db, auth, user.roleId).catch(() => null);
    if (current) assertWithinCaller(auth, grantOfRow(current.role, current.modules));
  }
  await setRoleOf(db, auth, user, role.id, `${role.title} → ${user.displayName}`, now);
  return { message: ROLE_MSG.assigned };
}

/** A role of the caller's company that the caller holds every right of (404 or 403 otherwise): what a directory group may be linked to. */
export async function grantableRole(db: Db, auth: Auth, id: number) {
  const { role, modules } = await findRole(db, auth, id);
  assertWithinCaller(auth, grantOfRow(role, modules));
  return role;
}

/** Sets or clears a user's role, with its 'Role Assigned' entry, in one batch. */
function setRoleOf(db: Db, auth: Auth, user: { id: number }, roleId: number | null, summary: string, now: number) {
  return db.batch([
    db
      .update(u)
      .set({ roleId, updatedAt: now })
      .where(liveInCompany(u, auth, eq(u.id, user.id))),
    activityInsert(db, { companyId: auth.company.id, name: "Role Assigned", createdByUserId: auth.user.id, targetUserId: user.id, summary, details: { role_id: roleId }, at: now }),
  ]);
}

export async function removeRoleFromUser(db: Db, auth: Auth, userId: number, now: number): Promise<{ message: string }> {
  assertCan(auth, "role", "add");
  const user = await findUser(db, auth, userId);
  assertMayChangeRoleOf(auth, user);
  if (user.roleId == null) throw new ServiceError(422, ROLE_MSG.noRole);
  assertNotOwnRole(auth, user, null);
  const current = await findRole(db, auth, user.roleId).catch(() => null);
  if (current) assertWithinCaller(auth, grantOfRow(current.role, current.modules));
  await setRoleOf(db, auth, user, null, `${current?.role.title ?? "Role"} removed from ${user.displayName}`, now);
  return { message: ROLE_MSG.unassigned };
}

/** The modules the caller may put in a role (held by the caller and available to the company type). */
export function grantableModules(auth: Auth): ModuleKey[] {
  const allowed = modulesForCompanyType(auth.company.type);
  return allowed.filter((m) => auth.permissions[m]);
}

/** The action flags the caller may put in a role. */
export function grantableActions(auth: Auth): Record<RoleAction, boolean> {
  const p = auth.permissions;
  return {
    permissionAll: p.permissionAll,
    permissionAdd: canAct(p, "add"),
    permissionModify: canAct(p, "modify"),
    permissionView: true,
    permissionDelete: canAct(p, "delete"),
  };
}
