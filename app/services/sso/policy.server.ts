/**
 * "Single sign-on required" (decision 0121): once a company requires it, a password opens no console or admin
 * API session for its users, except the one break-glass super admin the company named; each of those sign-ins
 * is written to the activity log and mailed to the company's other super admins. The phone app's sign-in is
 * not covered (it is not a console sign-in).
 */
import { and, eq, isNull, ne } from "drizzle-orm";
import { activityInsert } from "~/utils/activity-insert.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { SSO_MSG } from "./messages";

type Who = { user: { id: number; companyId: number; isSuperAdmin: boolean; displayName: string; email: string }; company: { id: number; code: string; name: string } };

/** Is the company's single sign-on switched on and required? */
async function requiredFor(db: Db, companyId: number) {
  const s = await db.query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, companyId) });
  return s?.enabled && s.ssoRequired ? s : null;
}

/**
 * Refuses a password sign-in (403 `sso-required`) for a company that requires single sign-on, unless the user
 * is its break-glass super admin. Returns whether the sign-in is a break-glass one.
 */
export async function assertPasswordAllowed(db: Db, account: Who): Promise<boolean> {
  const s = await requiredFor(db, account.company.id);
  if (!s) return false;
  if (s.breakGlassUserId === account.user.id && account.user.isSuperAdmin) return true;
  throw new ServiceError(403, SSO_MSG.required, { errorCode: "sso-required" });
}

/** A break-glass sign-in that opened a session: an activity entry and a mail to every other super admin. */
export async function recordBreakGlassSignIn(db: Db, account: Who, now: number): Promise<void> {
  const { user, company } = account;
  const u = schema.users;
  const others = await db
    .select({ email: u.email })
    .from(u)
    .where(and(eq(u.companyId, company.id), eq(u.isSuperAdmin, true), eq(u.isInactive, false), isNull(u.deletedAt), ne(u.id, user.id)));
  const at = new Date(now).toISOString().replace("T", " ").slice(0, 16);
  await db.batch([
    activityInsert(db, {
      companyId: company.id,
      name: "Break-Glass Sign-In",
      createdByUserId: user.id,
      targetUserId: user.id,
      summary: `${user.displayName} signed in with a password as the break-glass admin`,
      at: now,
    }),
    ...others
      .filter((o) => o.email)
      .map((o) =>
        db.insert(schema.mailOutbox).values({
          companyId: company.id,
          toAddress: o.email,
          subject: `Break-glass sign-in to ${company.name} (${company.code})`,
          body:
            `${user.displayName} (${user.email}) signed in to the ${company.code} console with a password at ${at} UTC, ` +
            "as the company's break-glass admin while single sign-on is required. " +
            "If this was not expected, review the activity log and the single sign-on settings.",
          createdAt: now,
        }),
      ),
  ]);
}
