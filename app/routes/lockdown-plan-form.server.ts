import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, asc, eq, isNull } from "drizzle-orm";
import { lockdownPlanModifySchema, lockdownPlanSchema, LOCKDOWN_MSG } from "~/schemas/lockdown";
import { addPlan, modifyPlan } from "~/services/lockdown.server";
import type { Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs, schema } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

/** What the plan form offers: the company's live device groups, doors, users and roles, by name. */
export async function lockdownPlanOptions(context: AppLoadContext, auth: Auth) {
  const db = getDb(context);
  const s = schema;
  const c = auth.company.id;
  const [groups, doors, users, roles] = await db.batch([
    db
      .select({ id: s.deviceGroups.id, label: s.deviceGroups.fullName })
      .from(s.deviceGroups)
      .where(and(eq(s.deviceGroups.companyId, c), isNull(s.deviceGroups.deletedAt)))
      .orderBy(asc(s.deviceGroups.fullName))
      .limit(500),
    db
      .select({ id: s.devices.id, label: s.devices.fullName })
      .from(s.devices)
      .where(and(eq(s.devices.companyId, c), isNull(s.devices.deletedAt)))
      .orderBy(asc(s.devices.fullName))
      .limit(500),
    db
      .select({ id: s.users.id, label: s.users.displayName })
      .from(s.users)
      .where(and(eq(s.users.companyId, c), isNull(s.users.deletedAt)))
      .orderBy(asc(s.users.displayName))
      .limit(500),
    db.select({ id: s.roles.id, label: s.roles.title }).from(s.roles).where(eq(s.roles.companyId, c)).orderBy(asc(s.roles.title)).limit(200),
  ]);
  return { groups, doors, users, roles };
}
export type LockdownPlanOptions = Awaited<ReturnType<typeof lockdownPlanOptions>>;

/** The add and modify actions: the plan saved, then back to /lockdown. */
export function lockdownPlanFormAction(request: Request, context: AppLoadContext, auth: Auth, mode: "add" | "modify") {
  return formAction(request, mode === "add" ? lockdownPlanSchema : lockdownPlanModifySchema, async (value) => {
    if (mode === "add") await addPlan(getDb(context), auth, value, nowMs());
    else await modifyPlan(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/lockdown", ns: "lockdown", message: mode === "add" ? LOCKDOWN_MSG.created : LOCKDOWN_MSG.modified });
  });
}
