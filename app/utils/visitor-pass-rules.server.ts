/**
 * A company's visitor rules as read (decision 0096), by the visitor-pass services and pages alike. The
 * console's header reads the same hosting rule with the caller (`hostsByRole`, auth-guards.server.ts).
 */
import { eq } from "drizzle-orm";
import type { Auth } from "./auth-guards.server";
import { schema, type Db } from "./db.server";
import { can } from "./permissions";

export const DEFAULT_RULES = { maxDays: 7, hostRoleIds: [] as number[], deviceGroupId: null as number | null };

export async function passRules(db: Db, companyId: number) {
  const r = schema.visitorPassRules;
  const [row] = await db.select().from(r).where(eq(r.companyId, companyId));
  return row ? { maxDays: row.maxDays, hostRoleIds: row.hostRoleIds, deviceGroupId: row.deviceGroupId } : { ...DEFAULT_RULES };
}

/** May this caller host guests: they may add users, or their role is one the rules name. */
export const mayHost = (auth: Auth, rules: { hostRoleIds: number[] }) => can(auth.permissions, "users", "add") || rules.hostRoleIds.includes(auth.user.roleId ?? -1);
