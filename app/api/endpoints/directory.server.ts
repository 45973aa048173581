import { z } from "zod";
import { scimTokenRowSchema } from "~/schemas/directory";
import * as links from "~/services/scim-links.server";
import * as tokens from "~/services/scim-tokens.server";
import { endpoint } from "../define.server";

const tag = "Directory provisioning (SCIM)";
const message = z.object({ message: z.string() });
/** Tokens and links let a directory create people and grant access: a super admin's, with the users module. */
const permission = { modules: "users", action: "modify", superAdmin: true } as const;

const tokenShape = z.object({
  id: z.number(),
  name: z.string(),
  created_at: z.number(),
  rotated_at: z.number().nullable(),
  last_used_at: z.number().nullable().describe("Coarse: moves in steps of five minutes"),
  revoked_at: z.number().nullable(),
});
const tokenPayload = (t: tokens.ScimTokenRow) => ({
  id: t.id,
  name: t.name,
  created_at: t.createdAt,
  rotated_at: t.rotatedAt,
  last_used_at: t.lastUsedAt,
  revoked_at: t.revokedAt,
});
const issued = z.object({ message: z.string(), payload: z.object({ id: z.number(), token: z.string().describe("Shown this once; the console keeps only a keyed hash") }) });

const groupShape = z.object({
  id: z.number(),
  display_name: z.string(),
  external_id: z.string().nullable(),
  members: z.number(),
  role: z.object({ id: z.number(), role_title: z.string() }).nullable(),
  device_groups: z.array(z.object({ id: z.number(), full_name: z.string() })),
});

const idList = z.union([z.array(z.coerce.number()), z.string()]).optional();

export const directoryEndpoints = [
  endpoint({
    method: "GET",
    path: "/user/getDirectoryTokens",
    tag,
    summary: "The company's directory (SCIM) tokens, live first; never their secrets.",
    auth: "token",
    permission,
    response: z.object({ payload: z.array(tokenShape) }),
    async handler({ db, auth }) {
      return { payload: (await tokens.listScimTokens(db, auth)).map(tokenPayload) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/createDirectoryToken",
    tag,
    summary: "Creates a bearer token for /scim/v2 ('Directory Token Created'): name (up to 64 characters). The token is in this answer only.",
    auth: "token",
    permission,
    body: z.object({ name: z.unknown() }),
    response: issued,
    async handler({ db, auth, body, now }) {
      const r = await tokens.createScimToken(db, auth, { name: body.name as string }, now);
      return { message: r.message, payload: { id: r.id, token: r.token } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/rotateDirectoryToken",
    tag,
    summary: "A new secret for a live token ('Directory Token Rotated'); the old one stops working at once. 404 unknown, 409 revoked.",
    auth: "token",
    permission,
    body: scimTokenRowSchema,
    response: issued,
    async handler({ db, auth, body, now }) {
      const r = await tokens.rotateScimToken(db, auth, body.id, now);
      return { message: r.message, payload: { id: r.id, token: r.token } };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/revokeDirectoryToken",
    tag,
    summary: "Revokes a token for good ('Directory Token Revoked'). 404 unknown, 409 already revoked.",
    auth: "token",
    permission,
    query: scimTokenRowSchema,
    response: message,
    async handler({ db, auth, query, now }) {
      return tokens.revokeScimToken(db, auth, query.id, now);
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getDirectoryGroups",
    tag,
    summary: "The groups the directory pushed, with what each grants its members.",
    auth: "token",
    permission,
    response: z.object({ payload: z.array(groupShape) }),
    async handler({ db, auth }) {
      const rows = await links.listDirectoryGroups(db, auth);
      return {
        payload: rows.map((g) => ({
          id: g.id,
          display_name: g.displayName,
          external_id: g.externalId,
          members: g.members,
          role: g.role && { id: g.role.id, role_title: g.role.title },
          device_groups: g.deviceGroups.map((d) => ({ id: d.id, full_name: d.fullName })),
        })),
      };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/user/linkDirectoryGroup",
    tag,
    summary:
      "Sets what a directory group grants ('Directory Group Linked'): role_id (optional; a role within the caller's rights, 403 otherwise) and device_group_ids (group keys). Applies at once to the present members: the keys the group gave are replaced and roles follow. 404 unknown group, role or device group.",
    auth: "token",
    permission,
    body: z.object({ group_id: z.unknown(), role_id: z.unknown().optional(), device_group_ids: idList }),
    response: message,
    async handler({ db, auth, core, body, now }) {
      return links.linkDirectoryGroup(
        db,
        auth,
        core,
        { groupId: body.group_id as number, roleId: (body.role_id ?? null) as number | null, deviceGroupIds: (body.device_group_ids ?? []) as number[] },
        now,
      );
    },
  }),
];
