import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { MODULES, type ModuleKey } from "~/utils/permissions";
import { checkbox } from "./flag";

/**
 * Roles (spec part 2 §2 Roles, §3 Role, §5): the role form in domain names, shared by the form, its action
 * (both read the posted strings, `readsPostedStrings`, so an empty title and no rights report both messages) and the service. The admin API's names (`permission_modifly` sic) are mapped in
 * `app/api/endpoints/roles.server.ts`. Messages are the spec's English texts.
 */
export const ROLE_MSG = {
  required: "Required role",
  atLeastOne: "Please choose at least one permission modules or actions or permission all",
  requiredUser: "Required user",
  created: "Role created successfully",
  modified: "Role modified successfully",
  removed: "Role deleted successfully",
  assigned: "Role assigned successfully",
  unassigned: "Role removed successfully",
  notFound: "The provided role is invalid",
  userNotFound: "The provided user is invalid",
  titleTaken: "A role with this title already exists",
  inUse: "This role is assigned to users; assign them another role first",
  escalation: "You cannot grant a module or permission you do not hold",
  superAdmin: "Only a super admin can change a super admin's role",
  notAllowedModule: "This module is not available to your company",
  noRole: "This user has no role",
  ownRole: "You cannot change your own role",
} as const;

export const ROLE_ACTIONS = ["permissionAll", "permissionAdd", "permissionModify", "permissionView", "permissionDelete"] as const;
export type RoleAction = (typeof ROLE_ACTIONS)[number];

/**
 * Modules only a platform (root) company's roles may hold, and those only a root or var company's roles may hold.
 * billing_portal is in neither: an ec company reads the invoices billed to it (decision 0024).
 */
export const PLATFORM_MODULES: readonly ModuleKey[] = ["company", "deviceType"];
export const RESELLER_MODULES: readonly ModuleKey[] = ["var_panel"];

/** The modules a role of a company of `type` may hold at all. */
export function modulesForCompanyType(type: string): ModuleKey[] {
  return MODULES.filter((m) => (PLATFORM_MODULES.includes(m) ? type === "root" : RESELLER_MODULES.includes(m) ? type === "root" || type === "var" : true));
}

export const roleTitle = z
  .string({ required_error: ROLE_MSG.required, invalid_type_error: ROLE_MSG.required })
  .trim()
  .min(1, ROLE_MSG.required)
  .max(100, "The role title is too long");
export const roleDescription = z
  .string()
  .trim()
  .max(500)
  .nullish()
  .transform((v) => v ?? "");

/** A role grants at least one action or one module. */
export function requireSomeRight(v: Record<RoleAction, boolean> & { modules: readonly string[] }, ctx: z.RefinementCtx, modulesPath: string) {
  if (!ROLE_ACTIONS.some((f) => v[f]) && v.modules.length === 0) ctx.addIssue({ code: "custom", path: [modulesPath], message: ROLE_MSG.atLeastOne });
}

export const roleFormSchema = readsPostedStrings(
  z
    .object({
      title: roleTitle,
      description: roleDescription,
      permissionAll: checkbox(),
      permissionAdd: checkbox(),
      permissionModify: checkbox(),
      permissionView: checkbox(),
      permissionDelete: checkbox(),
      // One ticked module posts a single value, none posts nothing.
      modules: z.preprocess((m) => (m === undefined ? [] : [m].flat()), z.array(z.string())).transform((m) => MODULES.filter((k) => m.includes(k))),
    })
    .superRefine((v, ctx) => requireSomeRight(v, ctx, "modules")),
);
export type RoleInput = z.output<typeof roleFormSchema>;

export const modifyRoleSchema = z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required") });

/** The API bodies: transport-level shape only; the endpoint parses them into `RoleInput`. */
export const roleBody = z
  .object({
    role_title: z.string().optional(),
    role_description: z.string().nullish(),
    permission_all: z.unknown().optional(),
    permission_add: z.unknown().optional(),
    permission_modifly: z.unknown().optional(),
    permission_view: z.unknown().optional(),
    permission_delete: z.unknown().optional(),
    permission_title: z.string().nullish(),
    permission_description: z.string().nullish(),
    permission_module: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough();
export const modifyRoleBody = roleBody.extend({ id: z.union([z.number(), z.string()]) });

export const assignRoleBody = z.object({
  user_id: z.union([z.number(), z.string()]).optional(),
  role_id: z.union([z.number(), z.string()]).optional(),
});

export const assignRoleSchema = z.object({
  user_id: z.coerce.number({ invalid_type_error: ROLE_MSG.requiredUser }).int(ROLE_MSG.requiredUser).positive(ROLE_MSG.requiredUser),
  role_id: z.coerce.number({ invalid_type_error: ROLE_MSG.required }).int(ROLE_MSG.required).positive(ROLE_MSG.required),
});

export const roleIdQuery = z.object({ id: z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required") });
export const getUsersQuery = z.object({ type: z.enum(["assigned", "unassigned"]).optional() });
