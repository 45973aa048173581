/**
 * Erasing one person's activity on request (GDPR art. 17; decision 0048): every entry of the company's log
 * that names them, as the one who acted or the one acted on, the notes on those entries and the notes
 * they wrote. The erasure itself is recorded with who asked, whose activity and how many entries, and
 * nothing of what was erased. Their account is another matter (deleteUser).
 */
import { and, eq, inArray, or } from "drizzle-orm";
import { ACTIVITY_MSG } from "~/schemas/activity";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";
import { chunks, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { inCompany } from "~/utils/tenant.server";
import { USER_MSG } from "./users.server";

export async function eraseUserActivity(db: Db, env: CompanyLogEnv, auth: Auth, userId: number, now: number): Promise<{ message: string; erased: number }> {
  assertCan(auth, "users", "delete");
  const u = schema.users;
  // Removed accounts too: erasure is often asked for after leaving.
  const [user] = await db
    .select({ id: u.id, isSuperAdmin: u.isSuperAdmin })
    .from(u)
    .where(inCompany(u, auth, eq(u.id, userId)))
    .limit(1);
  if (!user) notFound(USER_MSG.notFound);
  if (user.isSuperAdmin && !auth.user.isSuperAdmin) throw new ServiceError(403, USER_MSG.superAdminOnly);
  if (user.id === auth.user.id) throw new ServiceError(422, ACTIVITY_MSG.selfErase);
  // The store first: it copies what the outbox holds of theirs, then erases; run again, it finds nothing more.
  const ids = await companyLogStub(env, auth.company.id).erasePerson(auth.company.id, userId);
  const l = schema.activityLogs;
  const n = schema.activityNotes;
  await db.batch([
    db.delete(l).where(and(eq(l.companyId, auth.company.id), or(eq(l.createdByUserId, userId), eq(l.targetUserId, userId)))),
    db.delete(n).where(and(eq(n.companyId, auth.company.id), eq(n.userId, userId))),
    ...chunks(ids).map((part) => db.delete(n).where(and(eq(n.companyId, auth.company.id), inArray(n.activityId, part)))),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "User Activity Erased",
      createdByUserId: auth.user.id,
      summary: `Activity of user #${userId} erased: ${ids.length} entries`,
      details: { userId, entries: ids.length },
      at: now,
    }),
  ]);
  return { message: ACTIVITY_MSG.erased, erased: ids.length };
}
