import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, companyLog, db, login, schema, workerNow } from "./helpers";

const BASE = "/api/admin";
const ACME = 3;
const ACME_ADMIN_ROLE = 3;
const AUDITOR_ROLE = 4;
const ACME_ADMIN_USER = 3;
const AUDITOR_USER = 5;

let acme: string;
let beta: string;
let auditor: string;
let limited: string;
let limitedUserId: number;

const role = (over: Record<string, unknown> = {}) => ({
  role_title: "Door Staff",
  role_description: "Sees devices and groups",
  permission_all: false,
  permission_add: false,
  permission_modifly: false,
  permission_view: true,
  permission_delete: false,
  permission_module: { devices: true, device_group: true },
  ...over,
});

const activityNames = async () =>
  (
    await companyLog(ACME)
      .select({ name: schema.activityTypes.name, summary: schema.activityLogs.summary })
      .from(schema.activityLogs)
      .innerJoin(schema.activityTypes, eq(schema.activityTypes.id, schema.activityLogs.activityTypeId))
      .where(eq(schema.activityLogs.companyId, ACME))
  ).map((r) => `${r.name}: ${r.summary}`);

/** An ACME user who is not a super admin and holds only `role` + `users` with the add action. */
async function limitedAdmin(): Promise<{ token: string; id: number }> {
  const [r] = await db().insert(schema.roles).values({ companyId: ACME, title: "Limited Admin", permissionAdd: true, permissionView: true }).returning({ id: schema.roles.id });
  await db()
    .insert(schema.roleModules)
    .values(["role", "users"].map((m) => ({ roleId: r.id, companyId: ACME, moduleKey: m })));
  const hash = (await db().query.users.findFirst({ where: eq(schema.users.id, ACME_ADMIN_USER) }))!.passwordHash;
  const [u] = await db()
    .insert(schema.users)
    .values({
      companyId: ACME,
      roleId: r.id,
      firstName: "Lim",
      lastName: "Ited",
      displayName: "Ited, Lim",
      email: "limited@acme.example",
      passwordHash: hash,
      passwordChangedAt: workerNow(),
      isSentinel: true,
    })
    .returning({ id: schema.users.id });
  const res = await api(null, "POST", `${BASE}/user/login`, { companyId: "ACME", userName: "limited@acme.example", password: "Acme#Demo2026" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token: res.body.token, id: u.id };
}

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
  ({ token: limited, id: limitedUserId } = await limitedAdmin());
});

describe("GET /user/getRoles and getRoleDetails", () => {
  it("lists the company's roles with flags, modules and holders", async () => {
    const r = await api(acme, "GET", `${BASE}/user/getRoles`);
    expect(r.status).toBe(200);
    const titles = r.body.payload.map((x: { role_title: string }) => x.role_title);
    expect(titles).toEqual(expect.arrayContaining(["Company Admin", "Auditor"]));
    const auditorRole = r.body.payload.find((x: { id: number }) => x.id === AUDITOR_ROLE);
    expect(auditorRole).toMatchObject({ permission_all: false, permission_view: true, permission_module: { devices: true, activity: true, users: false } });
    expect(auditorRole.users).toBeGreaterThanOrEqual(1);
    const details = await api(acme, "GET", `${BASE}/user/getRoleDetails?id=${ACME_ADMIN_ROLE}`);
    expect(details.body.payload).toMatchObject({ id: ACME_ADMIN_ROLE, permission_all: true, permission_module: { role: true, company: false } });
  });

  it("needs the role module, and another company's role is 404", async () => {
    expect((await api(auditor, "GET", `${BASE}/user/getRoles`)).status).toBe(403);
    expect((await api(beta, "GET", `${BASE}/user/getRoleDetails?id=${ACME_ADMIN_ROLE}`)).status).toBe(404);
    const betaRoles = await api(beta, "GET", `${BASE}/user/getRoles`);
    expect(betaRoles.body.payload.map((x: { id: number }) => x.id)).not.toContain(ACME_ADMIN_ROLE);
  });
});

describe("POST /user/createRole", () => {
  it("creates the role with its modules and 'Role Created' in one batch", async () => {
    const r = await api(acme, "POST", `${BASE}/user/createRole`, role());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Role created successfully");
    const created = await db().query.roles.findFirst({ where: eq(schema.roles.id, r.body.payload.id) });
    expect(created).toMatchObject({ companyId: ACME, title: "Door Staff", permissionView: true, permissionAll: false });
    const modules = await db().select().from(schema.roleModules).where(eq(schema.roleModules.roleId, r.body.payload.id));
    expect(modules.map((m) => m.moduleKey).sort()).toEqual(["device_group", "devices"]);
    expect(await activityNames()).toContain("Role Created: Door Staff");
  });

  it("validates with the spec's messages", async () => {
    const noTitle = await api(acme, "POST", `${BASE}/user/createRole`, role({ role_title: " " }));
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.message).toBe("Required role");
    const nothing = await api(acme, "POST", `${BASE}/user/createRole`, role({ role_title: "Empty", permission_view: false, permission_module: {} }));
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe("Please choose at least one permission modules or actions or permission all");
    const dup = await api(acme, "POST", `${BASE}/user/createRole`, role({ role_title: "door staff" }));
    expect(dup.status).toBe(422);
  });

  it("refuses escalation: a module or action the caller does not hold", async () => {
    const module = await api(limited, "POST", `${BASE}/user/createRole`, role({ role_title: "Esc 1", permission_module: { devices: true } }));
    expect(module.status).toBe(403);
    expect(module.body.message).toBe("You cannot grant a module or permission you do not hold");
    const action = await api(limited, "POST", `${BASE}/user/createRole`, role({ role_title: "Esc 2", permission_delete: true, permission_module: { users: true } }));
    expect(action.status).toBe(403);
    const all = await api(limited, "POST", `${BASE}/user/createRole`, role({ role_title: "Esc 3", permission_all: true, permission_module: { users: true } }));
    expect(all.status).toBe(403);
    expect(await db().query.roles.findFirst({ where: and(eq(schema.roles.companyId, ACME), eq(schema.roles.title, "Esc 1")) })).toBeUndefined();
    const ok = await api(limited, "POST", `${BASE}/user/createRole`, role({ role_title: "User Adders", permission_add: true, permission_module: { users: true } }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("platform modules are not available to a company's roles", async () => {
    const r = await api(acme, "POST", `${BASE}/user/createRole`, role({ role_title: "Sneaky", permission_module: { company: true } }));
    expect([403, 422]).toContain(r.status);
    expect(await db().query.roles.findFirst({ where: and(eq(schema.roles.companyId, ACME), eq(schema.roles.title, "Sneaky")) })).toBeUndefined();
  });
});

describe("PUT /user/modifyRole and DELETE /user/deleteRole", () => {
  it("modifies a role and replaces its modules", async () => {
    const id = (await db().query.roles.findFirst({ where: and(eq(schema.roles.companyId, ACME), eq(schema.roles.title, "Door Staff")) }))!.id;
    const r = await api(acme, "PUT", `${BASE}/user/modifyRole`, { ...role({ role_title: "Door Staff", permission_module: { devices: true, activity: true } }), id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Role modified successfully");
    const modules = await db().select().from(schema.roleModules).where(eq(schema.roleModules.roleId, id));
    expect(modules.map((m) => m.moduleKey).sort()).toEqual(["activity", "devices"]);
    expect(await activityNames()).toContain("Role Modified: Door Staff");
  });

  it("a role with rights the editor lacks cannot be edited or deleted by them; another company's role is 404", async () => {
    const edit = await api(limited, "PUT", `${BASE}/user/modifyRole`, { ...role({ role_title: "Company Admin", permission_module: { users: true } }), id: ACME_ADMIN_ROLE });
    expect(edit.status).toBe(403);
    const modules = await db().select().from(schema.roleModules).where(eq(schema.roleModules.roleId, ACME_ADMIN_ROLE));
    expect(modules.length).toBeGreaterThan(2);
    const cross = await api(beta, "PUT", `${BASE}/user/modifyRole`, { ...role({ role_title: "Hijack" }), id: ACME_ADMIN_ROLE });
    expect(cross.status).toBe(404);
    expect((await api(beta, "DELETE", `${BASE}/user/deleteRole?id=${AUDITOR_ROLE}`)).status).toBe(404);
    expect((await db().query.roles.findFirst({ where: eq(schema.roles.id, ACME_ADMIN_ROLE) }))!.title).toBe("Company Admin");
  });

  it("refuses deleting a role users hold; deletes an unused one", async () => {
    const inUse = await api(acme, "DELETE", `${BASE}/user/deleteRole?id=${AUDITOR_ROLE}`);
    expect(inUse.status).toBe(422);
    expect(inUse.body.message).toBe("This role is assigned to users; assign them another role first");
    const spare = await api(acme, "POST", `${BASE}/user/createRole`, role({ role_title: "Spare" }));
    const r = await api(acme, "DELETE", `${BASE}/user/deleteRole?id=${spare.body.payload.id}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Role deleted successfully");
    expect(await db().query.roles.findFirst({ where: eq(schema.roles.id, spare.body.payload.id) })).toBeUndefined();
    expect(await activityNames()).toContain("Role Removed: Spare");
  });
});

describe("role assignment", () => {
  it("lists users without and with a role; assigning moves a user and writes 'Role Assigned'", async () => {
    const without = await api(acme, "GET", `${BASE}/user/getUsers`);
    expect(without.status).toBe(200);
    expect(without.body.payload.every((u: { Role: unknown }) => u.Role === null)).toBe(true);
    const target = without.body.payload[0];
    const doorStaff = (await db().query.roles.findFirst({ where: and(eq(schema.roles.companyId, ACME), eq(schema.roles.title, "Door Staff")) }))!.id;

    const r = await api(acme, "POST", `${BASE}/user/assignRoleToUser`, { user_id: target.id, role_id: doorStaff });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Role assigned successfully");
    const withRole = await api(acme, "GET", `${BASE}/user/getUsers?type=assigned`);
    expect(withRole.body.payload.find((u: { id: number }) => u.id === target.id)).toMatchObject({ Role: { id: doorStaff, role_title: "Door Staff" } });
    expect((await api(acme, "GET", `${BASE}/user/getUsers`)).body.payload.map((u: { id: number }) => u.id)).not.toContain(target.id);
    expect(await activityNames()).toContain(`Role Assigned: Door Staff → ${target.dispay_name}`);

    const removed = await api(acme, "DELETE", `${BASE}/user/removeRoleFromUser?id=${target.id}`);
    expect(removed.status).toBe(200);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, target.id) }))!.roleId).toBeNull();
  });

  it("the assigned user's permissions become exactly the role's", async () => {
    const doorStaff = (await db().query.roles.findFirst({ where: and(eq(schema.roles.companyId, ACME), eq(schema.roles.title, "Door Staff")) }))!.id;
    expect((await api(acme, "POST", `${BASE}/user/assignRoleToUser`, { user_id: AUDITOR_USER, role_id: doorStaff })).status).toBe(200);
    const p = await api(auditor, "GET", `${BASE}/user/getUserPermissions?roleId=${doorStaff}`);
    expect(p.status).toBe(200);
    expect(p.body.payload).toMatchObject({ devices: true, activity: true, users: false, device_group: false, change_password: false });
    expect((await api(auditor, "GET", `${BASE}/user/getAllUsers`)).status).toBe(403);
    expect((await api(acme, "POST", `${BASE}/user/assignRoleToUser`, { user_id: AUDITOR_USER, role_id: AUDITOR_ROLE })).status).toBe(200);
  });

  it("validates with 'Required role' and 'Required user'", async () => {
    const noRole = await api(acme, "POST", `${BASE}/user/assignRoleToUser`, { user_id: AUDITOR_USER });
    expect(noRole.status).toBe(400);
    expect(noRole.body.message).toBe("Required role");
    const noUser = await api(acme, "POST", `${BASE}/user/assignRoleToUser`, { role_id: AUDITOR_ROLE, user_id: "" });
    expect(noUser.status).toBe(400);
    expect(noUser.body.message).toBe("Required user");
  });

  it("only a super admin may change a super admin's role; nobody assigns a role beyond their own rights", async () => {
    const adders = (await db().query.roles.findFirst({ where: and(eq(schema.roles.companyId, ACME), eq(schema.roles.title, "User Adders")) }))!.id;
    const sa = await api(limited, "POST", `${BASE}/user/assignRoleToUser`, { user_id: ACME_ADMIN_USER, role_id: adders });
    expect(sa.status).toBe(403);
    expect(sa.body.message).toBe("Only a super admin can change a super admin's role");
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, ACME_ADMIN_USER) }))!.roleId).toBe(ACME_ADMIN_ROLE);
    const beyond = await api(limited, "POST", `${BASE}/user/assignRoleToUser`, { user_id: limitedUserId, role_id: ACME_ADMIN_ROLE });
    expect(beyond.status).toBe(403);
    const takeAway = await api(limited, "DELETE", `${BASE}/user/removeRoleFromUser?id=${AUDITOR_USER}`);
    expect(takeAway.status).toBe(403);
  });

  it("nobody changes or removes their own role, so an admin cannot lock themselves out", async () => {
    const removed = await api(acme, "DELETE", `${BASE}/user/removeRoleFromUser?id=${ACME_ADMIN_USER}`);
    expect(removed.status).toBe(403);
    expect(removed.body.message).toBe("You cannot change your own role");
    const changed = await api(acme, "POST", `${BASE}/user/assignRoleToUser`, { user_id: ACME_ADMIN_USER, role_id: AUDITOR_ROLE });
    expect(changed.status).toBe(403);
    expect(changed.body.message).toBe("You cannot change your own role");
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, ACME_ADMIN_USER) }))!.roleId).toBe(ACME_ADMIN_ROLE);
    // Assigning the role one already holds changes nothing and stays allowed.
    expect((await api(acme, "POST", `${BASE}/user/assignRoleToUser`, { user_id: ACME_ADMIN_USER, role_id: ACME_ADMIN_ROLE })).status).toBe(200);
  });

  it("another company's users and roles are 404 and unchanged", async () => {
    const betaRole = 5;
    expect((await api(beta, "POST", `${BASE}/user/assignRoleToUser`, { user_id: AUDITOR_USER, role_id: betaRole })).status).toBe(404);
    expect((await api(acme, "POST", `${BASE}/user/assignRoleToUser`, { user_id: AUDITOR_USER, role_id: betaRole })).status).toBe(404);
    expect((await api(beta, "DELETE", `${BASE}/user/removeRoleFromUser?id=${AUDITOR_USER}`)).status).toBe(404);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, AUDITOR_USER) }))!.roleId).toBe(AUDITOR_ROLE);
  });
});

describe("OpenAPI", () => {
  it("documents the nine role calls", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    for (const p of ["getRoles", "getRoleDetails", "createRole", "modifyRole", "deleteRole", "getUsers", "assignRoleToUser", "removeRoleFromUser"])
      expect(r.body.paths).toHaveProperty([`/api/admin/user/${p}`]);
  });
});
