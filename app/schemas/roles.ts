import { z } from "zod";
import { MODULES, type ModuleKey } from "~/utils/permissions";

/**
 * Roles (spec part 2 §2 Roles, §3 Role, §5): the role form shared by the form, the service and the
 * admin API, in the spec's names (`permission_modifly` sic). Messages are the spec's English texts.
 */
export const ROLE_MSG = {
  required: "Required role",
  atLeastOne: "Please choose at least one permission modules or actions or permission all",
  requiredUser: "Required user",
} as const;

export const ACTION_FLAGS = ["permission_all", "permission_add", "permission_modifly", "permission_view", "permission_delete"] as const;
export type ActionFlag = (typeof ACTION_FLAGS)[number];

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

const flag = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false", "on", ""]), z.literal(1), z.literal(0)])
  .transform((v) => v === true || v === 1 || v === "1" || v === "true" || v === "on")
  .default(false);

export const roleFormSchema = z
  .object({
    role_title: z.string({ required_error: ROLE_MSG.required, invalid_type_error: ROLE_MSG.required }).trim().min(1, ROLE_MSG.required).max(100, "The role title is too long"),
    role_description: z
      .string()
      .trim()
      .max(500)
      .nullish()
      .transform((v) => v ?? ""),
    permission_all: flag,
    permission_add: flag,
    permission_modifly: flag,
    permission_view: flag,
    permission_delete: flag,
    permission_title: z.string().nullish(),
    permission_description: z.string().nullish(),
    permission_module: z
      .record(z.string(), flag)
      .nullish()
      .transform((m) => MODULES.filter((k) => m?.[k] === true)),
  })
  .superRefine((v, ctx) => {
    const anyAction = ACTION_FLAGS.some((f) => v[f]);
    if (!anyAction && v.permission_module.length === 0) ctx.addIssue({ code: "custom", path: ["permission_module"], message: ROLE_MSG.atLeastOne });
  });
export type RoleInput = z.output<typeof roleFormSchema>;

export const modifyRoleSchema = z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required") });

/** The API bodies: transport-level shape only; the service runs `roleFormSchema`. */
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
