/**
 * A company's MFA policy (decision 0123): nobody, every console user, or the users of chosen roles must have
 * a strong second factor, an authenticator app (decision 0120) or a passkey. E-mailed and texted codes do not
 * count. A covered user without one gets, after the password (and any code step), a console session that opens
 * the enrolment pages only; the admin API's login refuses them.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { MfaPolicy, MfaPolicyInput } from "~/schemas/mfa-policy";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden, ServiceError } from "~/utils/errors.server";
import { hasAuthenticator } from "./authenticator.server";
import { hasPasskey } from "./passkeys.server";

export { MFA_POLICIES, mfaPolicySchema, type MfaPolicy, type MfaPolicyInput } from "~/schemas/mfa-policy";

export const MFA_MSG = {
  saved: "Sign-in security policy saved",
  noRoles: "Choose at least one role",
  unknownRole: "A chosen role is not one of the company's",
  enrolFirst: "Your company requires an authenticator app or a passkey: set one up before using the console",
  apiRefused: "Your company requires an authenticator app or a passkey for this account: set one up in the console, then sign in again",
} as const;

export type MfaPolicyView = { policy: MfaPolicy; roleIds: number[] };

const cs = schema.companySettings;

async function policyOf(db: Db, companyId: number): Promise<MfaPolicyView> {
  const row = await db.query.companySettings.findFirst({ where: eq(cs.companyId, companyId), columns: { mfaPolicy: true, mfaPolicyRoleIds: true } });
  return { policy: row?.mfaPolicy ?? "none", roleIds: row ? (JSON.parse(row.mfaPolicyRoleIds) as number[]) : [] };
}

/** Read by a super admin or anyone with the company settings view right. */
export async function getMfaPolicy(db: Db, auth: Auth): Promise<MfaPolicyView> {
  if (!auth.user.isSuperAdmin) assertCan(auth, "company_settings");
  return policyOf(db, auth.company.id);
}

/** Changed by a super admin with the company settings modify right only; audited with the old and new policy. */
export async function setMfaPolicy(db: Db, auth: Auth, input: MfaPolicyInput, now: number): Promise<{ message: string; payload: MfaPolicyView }> {
  assertCan(auth, "company_settings", "modify");
  if (!auth.user.isSuperAdmin) forbidden();
  const roleIds = input.policy === "roles" ? [...new Set(input.roleIds)].sort((a, b) => a - b) : [];
  if (input.policy === "roles") {
    if (roleIds.length === 0) throw new ServiceError(400, MFA_MSG.noRoles, { fieldErrors: { roleIds: [MFA_MSG.noRoles] } });
    const r = schema.roles;
    const known = await db
      .select({ id: r.id })
      .from(r)
      .where(and(eq(r.companyId, auth.company.id), inArray(r.id, roleIds)));
    if (known.length !== roleIds.length) throw new ServiceError(400, MFA_MSG.unknownRole, { fieldErrors: { roleIds: [MFA_MSG.unknownRole] } });
  }
  const before = await policyOf(db, auth.company.id);
  const payload = { policy: input.policy, roleIds };
  const values = { mfaPolicy: input.policy, mfaPolicyRoleIds: JSON.stringify(roleIds), updatedAt: now };
  await db.batch([
    db
      .insert(cs)
      .values({ companyId: auth.company.id, ...values })
      .onConflictDoUpdate({ target: cs.companyId, set: values }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "MFA Policy Changed",
      createdByUserId: auth.user.id,
      summary: `${auth.user.displayName} set the sign-in security policy to ${input.policy}${roleIds.length ? ` (${roleIds.length} role(s))` : ""}`,
      details: { before, after: payload },
      at: now,
    }),
  ]);
  return { message: MFA_MSG.saved, payload };
}

/** Whether the company's policy covers this user. */
export async function policyCovers(db: Db, user: { companyId: number; roleId: number | null }): Promise<boolean> {
  const { policy, roleIds } = await policyOf(db, user.companyId);
  return policy === "all" || (policy === "roles" && user.roleId != null && roleIds.includes(user.roleId));
}

/** The user has a strong factor: a confirmed authenticator app or a passkey. */
export async function hasStrongFactor(db: Db, userId: number): Promise<boolean> {
  return (await hasAuthenticator(db, userId)) || (await hasPasskey(db, userId));
}

/** The policy covers the user and they have no strong factor yet: enrolment first. */
export async function mustEnrolFirst(db: Db, user: { id: number; companyId: number; roleId: number | null }): Promise<boolean> {
  return (await policyCovers(db, user)) && !(await hasStrongFactor(db, user.id));
}

/** The admin API calls an enrolment-only session may make. */
export const ENROLMENT_API_PATHS = [
  "/user/authenticator/start",
  "/user/authenticator/confirm",
  "/user/passkeys",
  "/user/passkeys/registrationOptions",
  "/user/passkeys/register",
  "/user/logout",
] as const;
