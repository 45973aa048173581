/**
 * Company requests (spec part 2 §2 /viewCompanyRequests, /newCompanyRequest, §3, §4, §7).
 * A reseller asks for a customer company; the root company accepts it (the company is created
 * under the reseller, with its point of contact as super admin, who gets the invite) or rejects it
 * (the requester is told by mail). A reseller sees its own requests; an ec company none.
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { companyRequestSchema } from "~/schemas/company-requests";
import { defaultDiscount, issuesOf } from "~/schemas/companies";
import { assertPlatformCaller, COMPANY_MSG, freeCompanyCode, provisionCompany, setupFromCountry } from "~/services/companies.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { splitPhone } from "~/utils/phone";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { canRequestCompany } from "~/utils/permissions";

const cr = schema.companyRequests;
const c = schema.companies;
type BatchItem = Parameters<Db["batch"]>[0][number];

export const REQUEST_MSG = {
  created: "Company request created successfully",
  accepted: "Company created successfully",
  rejected: "Company request rejected",
  notFound: "The company request could not be found",
  decided: "This company request has already been decided",
  rootAddsDirectly: "The root company adds companies itself; company requests are for resellers",
  badPoc: "The provided user is invalid",
} as const;

/** A request as the console reads it; the API's names are mapped in `app/api/endpoints/company-requests.server.ts` (decision 0017). */
export type CompanyRequestRow = {
  id: number;
  companyName: string;
  companyType: string;
  billingTermYears: number;
  status: "pending" | "accepted" | "rejected";
  createdAt: number;
  poc: { firstName: string; lastName: string; email: string; countryCode: string; phoneNumber: string };
  /** The reseller that asked, with its point of contact. */
  reseller: { name: string; code: string; email: string; phoneNumber: string; countryCode: string };
  /** The code of the company an accepted request created. */
  createdCompanyCode: string | null;
};

const isRoot = (auth: Auth) => auth.company.type === "root";

/**
 * The point of contact a request names: the API's pocID, a live user of the caller's company (the caller
 * when absent), whose name, e-mail and phone fill the POC fields the body leaves out; the form sends them all.
 */
async function withPocDefaults(db: Db, auth: Auth, input: unknown): Promise<{ input: Record<string, unknown>; pocUserId: number }> {
  const body = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const named = body.pocID;
  const pocUserId = named === undefined || named === null || named === "" ? auth.user.id : Number(named);
  const u = schema.users;
  const poc = Number.isSafeInteger(pocUserId)
    ? await db.query.users.findFirst({ where: and(eq(u.id, pocUserId), eq(u.companyId, auth.company.id), isNull(u.deletedAt)) })
    : undefined;
  if (!poc) throw new ServiceError(400, REQUEST_MSG.badPoc, { fieldErrors: { pocID: [REQUEST_MSG.badPoc] } });
  const given = (v: unknown) => v !== undefined && v !== null && String(v).trim() !== "";
  const defaults: Record<string, string> = {
    POCFirstName: poc.firstName,
    POCLastName: poc.lastName,
    POCEmail: poc.email,
    POCCountryCode: poc.countryCode,
    POCPhoneNumber: poc.phoneNumber,
  };
  const filled = Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, given(body[k]) ? body[k] : v]));
  return { input: { ...body, ...filled }, pocUserId: poc.id };
}

/** Who may ask for a company: root decides requests, so one from root would be a request to itself (decision 0056). */
export function assertMayRequestCompany(auth: Auth): void {
  assertCan(auth, "var_panel", "add");
  if (isRoot(auth)) forbidden(REQUEST_MSG.rootAddsDirectly);
  if (!canRequestCompany(auth.permissions, auth.company.type)) forbidden();
}

/** POST company/createCompanyRequest: a reseller's request for a customer company, its contact a user of its own. */
export async function createCompanyRequest(db: Db, auth: Auth, input: unknown, now: number): Promise<{ id: number; message: string }> {
  assertMayRequestCompany(auth);
  const named = await withPocDefaults(db, auth, input);
  const r = companyRequestSchema.safeParse(named.input);
  if (!r.success) {
    const { message, fieldErrors } = issuesOf(r.error);
    throw new ServiceError(400, message, { fieldErrors });
  }
  const v = r.data;
  const [row] = await db.batch([
    db
      .insert(cr)
      .values({
        companyId: auth.company.id,
        pocUserId: named.pocUserId,
        companyName: v.companyName,
        companyType: "ec",
        billingTerm: v.renewalTerm,
        pocFirstName: v.POCFirstName,
        pocLastName: v.POCLastName,
        pocEmail: v.POCEmail,
        pocCountryCode: v.POCCountryCode,
        pocPhoneNumber: v.POCPhoneNumber,
        createdAt: now,
      })
      .returning({ id: cr.id }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Company Request Created",
      createdByUserId: auth.user.id,
      summary: `${v.companyName} (${v.renewalTerm}-Year)`,
      at: now,
    }),
  ]);
  return { id: row[0].id, message: REQUEST_MSG.created };
}

/** GET company/getCompanyRequest: root sees every request, a reseller its own; pending first, newest first. */
export async function listCompanyRequests(db: Db, auth: Auth, opts: { page?: { offset: number; limit: number } } = {}): Promise<{ rows: CompanyRequestRow[]; total: number }> {
  assertPlatformCaller(auth, ["company", "users", "var_panel"]);
  const where = isRoot(auth) ? undefined : eq(cr.companyId, auth.company.id);
  const base = db
    .select({
      id: cr.id,
      name: cr.companyName,
      type: cr.companyType,
      term: cr.billingTerm,
      status: cr.status,
      createdAt: cr.createdAt,
      first: cr.pocFirstName,
      last: cr.pocLastName,
      email: cr.pocEmail,
      phone: cr.pocPhoneNumber,
      parentName: sql<string>`(select name from companies where companies.id = company_requests.company_id)`,
      parentCode: sql<string>`(select code from companies where companies.id = company_requests.company_id)`,
      parentEmail: sql<string>`(select poc_email from companies where companies.id = company_requests.company_id)`,
      parentPhone: sql<string>`(select poc_phone_number from companies where companies.id = company_requests.company_id)`,
      createdCode: sql<string | null>`(select code from companies where companies.id = company_requests.created_company_id)`,
    })
    .from(cr)
    .where(where)
    .orderBy(sql`case ${cr.status} when 'pending' then 0 else 1 end`, desc(cr.createdAt), desc(cr.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, cr, where)]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      companyName: r.name,
      companyType: r.type,
      billingTermYears: r.term,
      status: r.status,
      createdAt: r.createdAt,
      poc: { firstName: r.first, lastName: r.last, email: r.email, countryCode: splitPhone(r.phone).countryCode, phoneNumber: r.phone },
      reseller: { name: r.parentName, code: r.parentCode, email: r.parentEmail, phoneNumber: r.parentPhone, countryCode: splitPhone(r.parentPhone).countryCode },
      createdCompanyCode: r.createdCode,
    })),
    total: Number(totals[0]?.n ?? 0),
  };
}

async function pendingRequest(db: Db, id: number) {
  const row = await db.query.companyRequests.findFirst({ where: eq(cr.id, id) });
  if (!row) notFound(REQUEST_MSG.notFound);
  if (row!.status !== "pending") throw new ServiceError(422, REQUEST_MSG.decided);
  return row!;
}

/** Deciding is the root company's (company module). */
export function assertDecider(auth: Auth, action: "add" | "modify") {
  assertPlatformCaller(auth, "company", action);
  if (!isRoot(auth)) forbidden();
}

const addYears = (now: number, years: number) => {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().slice(0, 10);
};

async function requesterMail(db: Db, requestRow: typeof cr.$inferSelect, subject: string, body: string, now: number): Promise<BatchItem[]> {
  const requester = await db.query.users.findFirst({ where: eq(schema.users.id, requestRow.pocUserId), columns: { email: true, deletedAt: true } });
  if (!requester || requester.deletedAt != null) return [];
  return [db.insert(schema.mailOutbox).values({ companyId: requestRow.companyId, toAddress: requester.email, subject, body, createdAt: now })];
}

/** GET company/acceptCompanyRequest: creates the company under the requesting reseller (see `provisionCompany`). */
export async function acceptCompanyRequest(db: Db, auth: Auth, id: number, ctx: { origin: string; now: number }): Promise<{ message: string; companyId: string }> {
  assertDecider(auth, "add");
  const req = await pendingRequest(db, id);
  const parent = await db.query.companies.findFirst({ where: and(eq(c.id, req.companyId), sql`${c.deletedAt} is null`) });
  if (!parent || parent.isDeactive) throw new ServiceError(422, COMPANY_MSG.notFound);
  const pair = await db
    .select({ id: c.id })
    .from(c)
    .where(and(sql`${c.deletedAt} is null`, sql`lower(${c.name}) = ${req.companyName.toLowerCase()}`, sql`lower(${c.pocEmail}) = ${req.pocEmail.toLowerCase()}`))
    .limit(1);
  if (pair.length) throw new ServiceError(422, COMPANY_MSG.pairTaken);
  const code = await freeCompanyCode(db, auth);
  const statements = await provisionCompany(
    db,
    {
      companyId: code,
      companyName: req.companyName,
      companyType: "ec",
      parentCompanyId: parent.code,
      parentId: parent.id,
      discountPercentage: defaultDiscount("ec"),
      nextBillingDate: addYears(ctx.now, req.billingTerm),
      POCFirstName: req.pocFirstName,
      POCLastName: req.pocLastName,
      POCEmail: req.pocEmail,
      POCCountryCode: req.pocCountryCode,
      POCPhoneNumber: req.pocPhoneNumber,
      isDeactive: false,
      // A request names no zone: the contact phone's country gives it (decision 0055); the admin can change it.
      setup: setupFromCountry(req.pocCountryCode),
    },
    ctx,
  );
  const mail = await requesterMail(
    db,
    req,
    `Company request accepted: ${req.companyName}`,
    `Your request for ${req.companyName} was accepted. Its company ID is ${code}; its administrator ${req.pocEmail} has been invited.`,
    ctx.now,
  );
  await db.batch([
    ...(statements as [BatchItem, ...BatchItem[]]),
    db
      .update(cr)
      .set({ status: "accepted", createdCompanyId: sql`(select id from companies where code = ${code})`, decidedAt: ctx.now, decidedByUserId: auth.user.id })
      .where(and(eq(cr.id, req.id), eq(cr.status, "pending"))),
    ...mail,
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Company Request Accepted",
      createdByUserId: auth.user.id,
      summary: `${req.companyName} for ${parent.name} (${parent.code})`,
      at: ctx.now,
    }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Created Company",
      createdByUserId: auth.user.id,
      summary: `${req.companyName} (${code})`,
      details: { company_id: code, company_type: "ec", request_id: req.id },
      at: ctx.now,
    }),
  ]);
  return { message: REQUEST_MSG.accepted, companyId: code };
}

/** GET company/rejectCompanyRequest: marks it rejected and tells the requester. */
export async function rejectCompanyRequest(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertDecider(auth, "modify");
  const req = await pendingRequest(db, id);
  const mail = await requesterMail(
    db,
    req,
    `Company request rejected: ${req.companyName}`,
    `Your request for ${req.companyName} was not accepted. Contact the platform team for details.`,
    now,
  );
  await db.batch([
    db
      .update(cr)
      .set({ status: "rejected", decidedAt: now, decidedByUserId: auth.user.id })
      .where(and(eq(cr.id, req.id), eq(cr.status, "pending"))),
    ...mail,
    activityInsert(db, { companyId: auth.company.id, name: "Company Request Rejected", createdByUserId: auth.user.id, summary: req.companyName, at: now }),
  ]);
  return { message: REQUEST_MSG.rejected };
}
