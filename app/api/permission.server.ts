/** The dispatcher's permission check, made before any input is read (decision 0061). */
import type { Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";
import { forbidden } from "~/utils/errors.server";
import { can, type Action } from "~/utils/permissions";
import type { Permission } from "./define.server";

type ModulePermission = Extract<Permission, { modules: unknown }>;
const actionsOf = (p: ModulePermission): readonly Action[] => (p.action === undefined ? ["view"] : typeof p.action === "string" ? [p.action] : p.action);

/** Throws the 403 ServiceError when the caller lacks the endpoint's permission. */
export async function assertPermission(db: Db, auth: Auth, p: Permission | undefined): Promise<void> {
  if (p === "signed-in") return;
  // The caller's own account (sign-out, sign-in codes) is a person's: no API key acts on it.
  if (p === "own-account") return auth.apiKey ? forbidden() : undefined;
  // A token endpoint without a declared permission is refused rather than left open.
  if (!p) return forbidden();
  if ("rule" in p) return p.guard(db, auth);
  if (!actionsOf(p).some((a) => can(auth.permissions, p.modules, a))) forbidden();
  if (p.superAdmin && !auth.user.isSuperAdmin) forbidden();
  await p.guard?.(db, auth);
}

/** The permission as the OpenAPI document shows it (`x-permission`). */
export function describePermission(p: Permission): unknown {
  if (p === "signed-in" || p === "own-account") return p;
  if ("rule" in p) return { rule: p.rule };
  return {
    modules: typeof p.modules === "string" ? [p.modules] : p.modules,
    actions: actionsOf(p),
    ...(p.superAdmin && { superAdmin: true }),
    ...(p.guard && { refined: "the service's own rule (company type or installer), also before the input" }),
  };
}
