import { z } from "zod";
import { assignRoleBody, getUsersQuery, modifyRoleBody, requireSomeRight, roleBody, roleDescription, roleIdQuery, roleTitle, type RoleInput } from "~/schemas/roles";
import * as roles from "~/services/roles.server";
import type { RoleRow, RoleUserRow } from "~/services/roles.server";
import { parseInput } from "~/utils/parse-input.server";
import { MODULES } from "~/utils/permissions";
import { endpoint } from "../define.server";
import { withWireFields } from "../wire-fields.server";

const message = z.object({ message: z.string() });
const tag = "Roles";

const roleShape = z.object({
  id: z.number(),
  role_title: z.string(),
  role_description: z.string(),
  permission_all: z.boolean(),
  permission_add: z.boolean(),
  permission_modifly: z.boolean(),
  permission_view: z.boolean(),
  permission_delete: z.boolean(),
  permission_title: z.string(),
  permission_description: z.string(),
  permission_module: z.object(Object.fromEntries(MODULES.map((m) => [m, z.boolean()]))),
  users: z.number(),
});
/** A role in the spec's names (decision 0017): title and description twice, modules as `{module: boolean}`. */
const rolePayload = (r: RoleRow) => ({
  id: r.id,
  role_title: r.title,
  role_description: r.description,
  permission_all: r.permissionAll,
  permission_add: r.permissionAdd,
  permission_modifly: r.permissionModify,
  permission_view: r.permissionView,
  permission_delete: r.permissionDelete,
  permission_title: r.title,
  permission_description: r.description,
  permission_module: Object.fromEntries(MODULES.map((m) => [m, r.modules.includes(m)])),
  users: r.users,
});
/** The spec's '1'/'0', JSON booleans and 1/0, "true"/"false", a checkbox's "on"; absent is off, anything else refused. */
const flag = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false", "on", ""]), z.literal(1), z.literal(0)])
  .transform((v) => v === true || v === 1 || v === "1" || v === "true" || v === "on")
  .default(false);

/** The role's domain fields in the spec's names; field errors go back under these. */
const ROLE_WIRE = {
  title: "role_title",
  description: "role_description",
  permissionAll: "permission_all",
  permissionAdd: "permission_add",
  permissionModify: "permission_modifly",
  permissionView: "permission_view",
  permissionDelete: "permission_delete",
  modules: "permission_module",
} as const;

/** A create/modify body in the spec's names, as the role the service takes. */
const roleInput = z
  .object({
    role_title: roleTitle,
    role_description: roleDescription,
    permission_all: flag,
    permission_add: flag,
    permission_modifly: flag,
    permission_view: flag,
    permission_delete: flag,
    permission_module: z
      .record(z.string(), flag)
      .nullish()
      .transform((m) => MODULES.filter((k) => m?.[k] === true)),
  })
  .transform((v): RoleInput => ({
    title: v.role_title,
    description: v.role_description,
    permissionAll: v.permission_all,
    permissionAdd: v.permission_add,
    permissionModify: v.permission_modifly,
    permissionView: v.permission_view,
    permissionDelete: v.permission_delete,
    modules: v.permission_module,
  }))
  .superRefine((v, ctx) => requireSomeRight(v, ctx, ROLE_WIRE.modules));

const roleUserPayload = (u: RoleUserRow) => ({
  id: u.id,
  dispay_name: u.displayName,
  e_mail: u.email,
  isSuperAdmin: u.isSuperAdmin,
  Role: u.role ? { id: u.role.id, role_title: u.role.title } : null,
});

const roleUser = z.object({
  id: z.number(),
  dispay_name: z.string(),
  e_mail: z.string(),
  isSuperAdmin: z.boolean(),
  Role: z.object({ id: z.number(), role_title: z.string() }).nullable(),
});

export const roleEndpoints = [
  endpoint({
    method: "GET",
    path: "/user/getRoles",
    tag,
    summary: "The caller's company's roles with their permission flags and modules.",
    auth: "token",
    permission: { modules: "role" },
    response: z.object({ payload: z.array(roleShape) }),
    async handler({ db, auth }) {
      return { payload: (await roles.listRoles(db, auth)).map(rolePayload) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getRoleDetails",
    tag,
    summary: "One role (404 outside the caller's company).",
    auth: "token",
    permission: { modules: "role" },
    query: roleIdQuery,
    response: z.object({ payload: roleShape }),
    async handler({ db, auth, query }) {
      return { payload: rolePayload(await roles.getRoleDetails(db, auth, query.id)) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/createRole",
    tag,
    summary:
      "Creates a role ('Role Created'). permission_module is {module: boolean}. 400 'Required role' or the at-least-one-permission message; 403 when it holds a module or action the caller does not.",
    auth: "token",
    permission: { modules: "role", action: "add" },
    body: roleBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now }) {
      const r = await withWireFields(ROLE_WIRE, () => roles.createRole(db, auth, parseInput(roleInput, body), now));
      return { message: r.message, payload: { id: r.id } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/user/modifyRole",
    tag,
    summary: "Saves a role ('Role Modified'); neither its current nor its new rights may exceed the caller's.",
    auth: "token",
    permission: { modules: "role", action: "modify" },
    body: modifyRoleBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await withWireFields(ROLE_WIRE, () => roles.modifyRole(db, auth, Number(body.id), parseInput(roleInput, body), now));
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/deleteRole",
    tag,
    summary: "Deletes a role no user holds ('Role Removed'); 422 while users hold it.",
    auth: "token",
    permission: { modules: "role", action: "delete" },
    query: roleIdQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await roles.deleteRole(db, auth, query.id, now);
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getUsers",
    tag,
    summary: "Users without a role, or with type=assigned the users with one (and their Role).",
    auth: "token",
    permission: { modules: "role" },
    query: getUsersQuery,
    response: z.object({ payload: z.array(roleUser) }),
    async handler({ db, auth, query }) {
      return { payload: (await roles.listRoleUsers(db, auth, query.type ?? "unassigned")).map(roleUserPayload) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/assignRoleToUser",
    tag,
    summary: "Gives a user a role ('Role Assigned'). 400 'Required role' / 'Required user'; 403 escalation or a super admin's role changed by a non-super admin.",
    auth: "token",
    permission: { modules: "role", action: "add" },
    body: assignRoleBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await roles.assignRole(db, auth, body, now);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/removeRoleFromUser",
    tag,
    summary: "Takes a user's role away (id is the user's id).",
    auth: "token",
    permission: { modules: "role", action: "add" },
    query: roleIdQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await roles.removeRoleFromUser(db, auth, query.id, now);
    },
  }),
];
