/**
 * Support access a customer grants (issue 33, decision 0093). A company admin grants an ancestor — its
 * reseller, or the platform — access for a few hours with a reason, and may revoke it at any time. While
 * it is in force, the grantee's staff who hold the fleet view (or only those the grant names) open the
 * company's console as a support session, and the granting admin is mailed: their own name, the granting admin's permissions (never more), a banner on every page, and
 * every change audited in the customer's log (naming the support) and copied to the grantee's
 * ("Support Action"; utils/activity-insert.server.ts). Without a grant the grantee sees fleet health only.
 */
import { and, desc, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { SUPPORT_MSG, type SupportGrantInput } from "~/schemas/support-access";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, grantNamesStaff, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { newSession } from "~/utils/session.server";
import { assertPlatformCaller } from "./companies.server";
import { FLEET_MODULES } from "./fleet.server";
import { supportSessionMail } from "./support-session-mail";

const { supportGrants: g, supportGrantStaff: gs, companies: c, users: u, sessions: s, companySettings: cs, timeZones: tz } = schema;
/** Granting and revoking belong to whoever runs the company's settings. */
const MODULE = "company_settings";
const HOUR = 3600_000;

const liveAt = (now: number) => and(isNull(g.revokedAt), lte(g.startsAt, now), gt(g.expiresAt, now));
const personName = (x: { displayName: string; email: string }) => x.displayName || x.email;

function assertCustomerAdmin(auth: Auth, action: "view" | "add" | "delete") {
  // A support session cannot grant, extend or revoke support: only the company's own people can.
  if (auth.support) forbidden();
  assertCan(auth, MODULE, action);
}

/** The companies above the caller's that may be granted access: its resellers up the tree and the platform root. */
export async function supportGrantees(db: Db, auth: Auth): Promise<{ id: number; name: string; code: string; type: string }[]> {
  const rows = await db.all<{ id: number; name: string; code: string; type: string }>(sql`
    with recursive up(id, depth) as (select ${auth.company.parentId}, 1 union all select companies.parent_id, up.depth + 1 from companies join up on companies.id = up.id where up.depth < 16)
    select companies.id, companies.name, companies.code, companies.type from up join companies on companies.id = up.id
    where companies.deleted_at is null and companies.type in ('var', 'root') order by up.depth`);
  return rows;
}

export type SupportGrantRow = {
  id: number;
  grantee: string;
  reason: string;
  grantedBy: string;
  /** E-mail addresses of the staff members the grant names; empty: any staff member holding the fleet view. */
  staff: string[];
  startsAt: number;
  expiresAt: number;
  revokedAt: number | null;
  status: "active" | "expired" | "revoked";
};

/** The company's grants, newest first (the most recent 100: grants are few and last hours). */
export async function listSupportGrants(db: Db, auth: Auth, now: number): Promise<SupportGrantRow[]> {
  assertCustomerAdmin(auth, "view");
  const grantee = alias(c, "grantee");
  const rows = await db
    .select({
      id: g.id,
      grantee: grantee.name,
      reason: g.reason,
      grantedBy: sql<string>`coalesce(nullif(${u.displayName}, ''), ${u.email}, '')`,
      staff: sql<string | null>`(select json_group_array(staff.email) from ${gs} join ${u} staff on staff.id = ${gs.userId} where ${gs.grantId} = ${g.id})`,
      startsAt: g.startsAt,
      expiresAt: g.expiresAt,
      revokedAt: g.revokedAt,
    })
    .from(g)
    .innerJoin(grantee, eq(grantee.id, g.granteeCompanyId))
    .leftJoin(u, eq(u.id, g.grantedByUserId))
    .where(eq(g.companyId, auth.company.id))
    .orderBy(desc(g.createdAt), desc(g.id))
    .limit(100);
  return rows.map((r) => ({
    ...r,
    staff: (JSON.parse(r.staff ?? "[]") as string[]).sort(),
    status: r.revokedAt != null ? "revoked" : r.expiresAt <= now ? "expired" : "active",
  }));
}

export async function grantSupportAccess(db: Db, auth: Auth, input: SupportGrantInput, now: number): Promise<{ id: number; expiresAt: number }> {
  assertCustomerAdmin(auth, "add");
  const grantees = await supportGrantees(db, auth);
  if (grantees.length === 0) throw new ServiceError(422, SUPPORT_MSG.noParent);
  const grantee = grantees.find((x) => x.id === input.granteeCompanyId);
  if (!grantee) throw new ServiceError(400, SUPPORT_MSG.grantee, { fieldErrors: { granteeCompanyId: [SUPPORT_MSG.grantee] } });
  const staff = await namedStaff(db, grantee.id, input.staffEmails);
  const expiresAt = now + input.hours * HOUR;
  // The grant's id for its staff rows: the company's newest grant, the one this batch (one transaction) just wrote.
  const thisGrant = sql`(select max(${g.id}) from ${g} where ${g.companyId} = ${auth.company.id})`;
  const [row] = await db.batch([
    db
      .insert(g)
      .values({ companyId: auth.company.id, granteeCompanyId: grantee.id, grantedByUserId: auth.user.id, reason: input.reason, startsAt: now, expiresAt, createdAt: now })
      .returning({ id: g.id }),
    ...staff.map((x) => db.insert(gs).values({ grantId: thisGrant, userId: x.id })),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Support Access Granted",
      createdByUserId: auth.user.id,
      summary: `${grantee.name} for ${input.hours} h${staff.length ? ` (${staff.map((x) => x.email).join(", ")})` : ""}: ${input.reason}`,
      details: { grantee: grantee.id, hours: input.hours, expiresAt, ...(staff.length ? { staff: staff.map((x) => x.id) } : {}) },
      at: now,
    }),
  ]);
  return { id: row[0].id, expiresAt };
}

/** The grantee's active users with these addresses; any address that is not one is refused by name. */
async function namedStaff(db: Db, granteeId: number, emails: string[]): Promise<{ id: number; email: string }[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .select({ id: u.id, email: sql<string>`lower(${u.email})` })
    .from(u)
    .where(and(eq(u.companyId, granteeId), inArray(sql`lower(${u.email})`, emails), eq(u.isInactive, false), isNull(u.deletedAt)));
  const unknown = emails.filter((e) => !rows.some((r) => r.email === e));
  if (unknown.length > 0)
    throw new ServiceError(400, SUPPORT_MSG.staffUnknown, { fieldErrors: { staffEmails: [SUPPORT_MSG.staffUnknown] }, payload: { unknown_staff_emails: unknown } });
  return rows;
}

/** Ends a grant now: its support sessions end with it (their rows go; the next request finds none). */
export async function revokeSupportAccess(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertCustomerAdmin(auth, "delete");
  if (!Number.isInteger(id) || id <= 0) notFound(SUPPORT_MSG.notFound);
  const mine = and(eq(g.companyId, auth.company.id), eq(g.id, id));
  const [grant] = await db.select({ expiresAt: g.expiresAt, revokedAt: g.revokedAt, grantee: c.name }).from(g).innerJoin(c, eq(c.id, g.granteeCompanyId)).where(mine).limit(1);
  if (!grant) notFound(SUPPORT_MSG.notFound);
  if (grant.revokedAt != null || grant.expiresAt <= now) throw new ServiceError(409, SUPPORT_MSG.notLive);
  await db.batch([
    db
      .update(g)
      .set({ revokedAt: now, revokedByUserId: auth.user.id })
      .where(and(mine, isNull(g.revokedAt))),
    db.delete(s).where(eq(s.supportGrantId, id)),
    activityInsert(db, { companyId: auth.company.id, name: "Support Access Revoked", createdByUserId: auth.user.id, summary: grant.grantee, details: { grant: id }, at: now }),
  ]);
  return { message: SUPPORT_MSG.revoked };
}

export type ReceivedGrant = { id: number; companyId: number; company: string; code: string; reason: string; grantedBy: string; expiresAt: number };

/** Grants in force that customers gave the caller's company (its staff may open those consoles). */
export async function receivedSupportGrants(db: Db, auth: Auth, now: number, companyIds?: number[]): Promise<ReceivedGrant[]> {
  assertPlatformCaller(auth, FLEET_MODULES);
  if (auth.support) return [];
  return db
    .select({
      id: g.id,
      companyId: g.companyId,
      company: c.name,
      code: c.code,
      reason: g.reason,
      grantedBy: sql<string>`coalesce(nullif(${u.displayName}, ''), ${u.email}, '')`,
      expiresAt: g.expiresAt,
    })
    .from(g)
    .innerJoin(c, and(eq(c.id, g.companyId), isNull(c.deletedAt)))
    .leftJoin(u, eq(u.id, g.grantedByUserId))
    .where(and(eq(g.granteeCompanyId, auth.company.id), liveAt(now), grantNamesStaff(g.id, auth.user.id), companyIds ? inArray(g.companyId, companyIds) : undefined))
    .orderBy(g.expiresAt, g.id);
}

/**
 * Opens a support session under a grant in force to the caller's company that names no staff or names the
 * caller: a console session of the caller's own that ends with the grant. Audited in both companies' logs;
 * the admin who granted it is mailed (through the outbox, in the company's language and zone).
 */
export async function openSupportSession(db: Db, auth: Auth, grantId: number, request: Request, now: number): Promise<{ token: string; expiresAt: number }> {
  assertPlatformCaller(auth, FLEET_MODULES);
  if (auth.support || auth.apiKey) forbidden();
  if (!Number.isInteger(grantId) || grantId <= 0) notFound(SUPPORT_MSG.notFound);
  const [grant] = await db
    .select({
      id: g.id,
      companyId: g.companyId,
      company: c.name,
      reason: g.reason,
      expiresAt: g.expiresAt,
      grantor: { email: u.email, isInactive: u.isInactive, deletedAt: u.deletedAt },
      language: cs.language,
      zone: tz.name,
    })
    .from(g)
    .innerJoin(c, and(eq(c.id, g.companyId), isNull(c.deletedAt), eq(c.isDeactive, false)))
    .leftJoin(u, eq(u.id, g.grantedByUserId))
    .leftJoin(cs, eq(cs.companyId, g.companyId))
    .leftJoin(tz, eq(tz.id, cs.defaultTimeZoneId))
    .where(and(eq(g.id, grantId), eq(g.granteeCompanyId, auth.company.id), liveAt(now), grantNamesStaff(g.id, auth.user.id)))
    .limit(1);
  if (!grant) throw new ServiceError(404, SUPPORT_MSG.notLive);
  const session = await newSession({ userId: auth.user.id, companyId: grant.companyId, kind: "web", request, now, lifetimeMs: grant.expiresAt - now });
  const staff = personName(auth.user);
  const grantor = grant.grantor && !grant.grantor.isInactive && grant.grantor.deletedAt == null ? grant.grantor.email : null;
  const mail = supportSessionMail(grant.language ?? "en", {
    staff,
    grantee: auth.company.name,
    reason: grant.reason,
    until: grant.expiresAt,
    zone: grant.zone ?? "UTC",
    url: `${new URL(request.url).origin}/supportAccess`,
  });
  await db.batch([
    db.insert(s).values({ ...session.values, supportGrantId: grant.id }),
    activityInsert(db, {
      companyId: grant.companyId,
      name: "Support Session Opened",
      createdByUserId: auth.user.id,
      summary: `${staff} (${auth.company.name})`,
      details: { grant: grant.id, grantee: auth.company.id },
      at: now,
    }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Support Session Opened",
      createdByUserId: auth.user.id,
      summary: `${staff} in ${grant.company}`,
      details: { grant: grant.id, company: grant.companyId },
      at: now,
    }),
    ...(grantor ? [db.insert(schema.mailOutbox).values({ companyId: grant.companyId, toAddress: grantor, subject: mail.subject, body: mail.body, createdAt: now })] : []),
  ]);
  return { token: session.token, expiresAt: grant.expiresAt };
}

/** Ends the caller's support session (the staff member's own session stays). */
export async function leaveSupportSession(db: Db, auth: Auth): Promise<void> {
  if (!auth.support) return;
  await db.delete(s).where(eq(s.id, auth.session.id));
}
