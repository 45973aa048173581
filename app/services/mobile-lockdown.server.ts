/**
 * Lockdown from the phone app (issue 31, decision 0083): a plan names the users, and the roles, who may
 * start it from the phone (`phone_trigger_user_ids` / `phone_trigger_role_ids`, migration 0058). The phone
 * lists the plans its user may start and the lockdown in force; a start names the plan and confirms it; an
 * end is allowed to a user the plan in force names that way, and to the holders of the console's right to
 * end one (the company_settings module with modify). Starts and ends go through the same guarded batch as
 * the console's, logged as "App" entries "… by <name> from the phone".
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { LOCKDOWN_MSG, lockdownPhoneStartSchema, type LockdownMode, type LockdownScope } from "~/schemas/lockdown";
import type { Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { can } from "~/utils/permissions";
import { liveInCompany } from "~/utils/tenant.server";
import { endLockdownAs, lockdownInForce, planOf, startPlan, type LockdownActor, type LockdownPlan } from "./lockdown.server";
import { assertMobile } from "./mobile.server";

const p = schema.lockdownPlans;

export type PhoneLockdownPlan = { id: number; name: string; mode: LockdownMode; scope: LockdownScope; durationMinutes: number | null };
export type PhoneLockdownInForce = {
  planId: number | null;
  planName: string;
  mode: LockdownMode;
  startedBy: string;
  startedAt: number;
  endsAt: number | null;
  /** Whether the caller may end it from the phone. */
  mayEnd: boolean;
};

/** Whether the plan names the user among its phone triggers, by id or by role. */
export const phoneMayStart = (plan: Pick<LockdownPlan, "phoneTriggerUserIds" | "phoneTriggerRoleIds">, user: { id: number; roleId: number | null }) =>
  plan.phoneTriggerUserIds.includes(user.id) || (user.roleId != null && plan.phoneTriggerRoleIds.includes(user.roleId));

/** The SQL form of `phoneMayStart` over the plans table. */
const namesUser = (user: { id: number; roleId: number | null }) =>
  sql`(exists (select 1 from json_each(${p.phoneTriggerUserIds}) where value = ${user.id}) or exists (select 1 from json_each(${p.phoneTriggerRoleIds}) where value = ${user.roleId ?? -1}))`;

const actorOf = (auth: Auth): LockdownActor => ({ userId: auth.user.id, name: auth.user.displayName || auth.user.email, fromPhone: true });

/**
 * Whether the caller may end the lockdown in force: the plan it was started from (as the plan reads now, also
 * when deleted since) names them, or they hold the console's right to end one.
 */
async function mayEnd(db: Db, auth: Auth, planId: number | null): Promise<boolean> {
  if (can(auth.permissions, "company_settings", "modify")) return true;
  if (planId == null) return false;
  const [row] = await db
    .select()
    .from(p)
    .where(and(eq(p.id, planId), eq(p.companyId, auth.company.id)));
  return row != null && phoneMayStart(planOf(row), auth.user);
}

/** What the phone shows: the plans its user may start, by name, and the lockdown in force (or null). */
export async function phoneLockdown(db: Db, auth: Auth, now: number): Promise<{ plans: PhoneLockdownPlan[]; inForce: PhoneLockdownInForce | null }> {
  assertMobile(auth);
  const [rows, state] = await Promise.all([
    db
      .select({ id: p.id, name: p.name, mode: p.mode, scope: p.scope, durationMinutes: p.durationMinutes })
      .from(p)
      .where(liveInCompany(p, auth, namesUser(auth.user)))
      .orderBy(asc(p.name), asc(p.id))
      .limit(200),
    lockdownInForce(db, auth.company.id, now),
  ]);
  const inForce = state && {
    planId: state.planId,
    planName: state.planName,
    mode: state.mode,
    startedBy: state.startedByName,
    startedAt: state.startedAt!,
    endsAt: state.endsAt,
    mayEnd: await mayEnd(db, auth, state.planId),
  };
  return { plans: rows, inForce };
}

/** Starts a plan the caller may start from the phone: 404 for a plan not of the company, 403 for one that does not name them, 409 when one is in force. */
export async function startLockdownFromPhone(db: Db, auth: Auth, input: unknown, now: number) {
  assertMobile(auth);
  const { planId } = parseInput(lockdownPhoneStartSchema, input);
  const [row] = await db
    .select()
    .from(p)
    .where(liveInCompany(p, auth, eq(p.id, planId)));
  const plan = row ? planOf(row) : notFound(LOCKDOWN_MSG.notFound);
  if (!phoneMayStart(plan, auth.user)) throw new ServiceError(403, LOCKDOWN_MSG.phoneNotAllowed, { errorCode: "lockdown-not-allowed" });
  const started = await startPlan(db, auth.company.id, plan, actorOf(auth), now);
  if (!started) throw new ServiceError(409, LOCKDOWN_MSG.alreadyActive, { errorCode: "lockdown-in-force" });
  return started;
}

/** Ends the lockdown in force for a caller allowed to (see `mayEnd`): 403 otherwise, 409 when none is in force. */
export async function endLockdownFromPhone(db: Db, auth: Auth, now: number) {
  assertMobile(auth);
  const state = await lockdownInForce(db, auth.company.id, now);
  if (!state) throw new ServiceError(409, LOCKDOWN_MSG.notActive, { errorCode: "lockdown-none" });
  if (!(await mayEnd(db, auth, state.planId))) throw new ServiceError(403, LOCKDOWN_MSG.phoneEndNotAllowed, { errorCode: "lockdown-end-not-allowed" });
  await endLockdownAs(db, auth.company.id, actorOf(auth), now);
}
