/**
 * Invoices (spec part 2 §2 Billing screens, §3 Invoice, §4, §5 Create invoice, §7 `company/*Invoice*`).
 *
 * Who reads what (decision 0024): root reads every invoice; any other company reads the invoices
 * billed to it and those issued inside its subtree (by itself or a company below it), so a reseller
 * never sees another subtree's invoices and an ec company sees only its own. Anything else is a 404.
 * A company bills only its own child companies. Money is integer cents, recomputed here from the
 * lines with `~/utils/invoice-money`; client totals are never stored.
 */
import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { INVOICE_MSG, invoiceFormSchema, REQUIRED_MESSAGES, type InvoiceInput } from "~/schemas/invoices";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, companyZone, type Auth } from "~/utils/auth-guards.server";
import { todayOf } from "~/utils/today";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { issuesByField } from "~/utils/field-errors";
import { formatUsd, invoiceFigures } from "~/utils/invoice-money";
import { assertPlatformCaller, findVisibleCompany, subtreeOf } from "./companies.server";

const inv = schema.invoices;
const lines = schema.invoiceLineItems;
const issuer = alias(schema.companies, "issuer");
const customer = alias(schema.companies, "customer");

export type InvoiceStatus = "open" | "paid" | "void" | "overdue";
export type CompanyRef = { id: number; name: string; code: string };
export type InvoiceRow = {
  id: number;
  invoiceNum: string;
  issuer: CompanyRef;
  customer: CompanyRef;
  dueDate: string;
  notes: string;
  amountCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  status: InvoiceStatus;
  createdAt: number;
};
export type InvoiceLineRow = { id: number; name: string; desc: string; qty: number; msrpCents: number; discountBp: number; pricePerCents: number; totalCents: number };
export type InvoiceDetails = InvoiceRow & { lines: InvoiceLineRow[] };

const READ_MODULES = ["billing_portal", "company"] as const;

/** Invoices the caller may read. */
function visibleInvoices(auth: Auth): SQL | undefined {
  if (auth.company.type === "root") return undefined;
  const me = auth.company.id;
  return or(eq(inv.customerCompanyId, me), eq(inv.companyId, me), sql`${inv.companyId} in ${subtreeOf(me)}`);
}

/** Open and past its due date on `today` shows as overdue. */
const statusOf = (status: string, dueDate: string, today: string): InvoiceStatus => (status === "open" && dueDate < today ? "overdue" : (status as InvoiceStatus));

export const INVOICE_SORTS = {
  number: inv.invoiceNum,
  customer: customer.name,
  amount: inv.totalCents,
  dueDate: inv.dueDate,
  status: inv.status,
  created: inv.createdAt,
} as const;

type ListOpts = { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } };

/** Overdue is judged against `today`, the reader's company's local day. */
async function list(db: Db, where: SQL | undefined, today: string, opts: ListOpts): Promise<{ rows: InvoiceRow[]; total: number }> {
  const key = opts.sort && opts.sort.key in INVOICE_SORTS ? (opts.sort.key as keyof typeof INVOICE_SORTS) : "created";
  const dir = opts.sort && opts.sort.key in INVOICE_SORTS && !opts.sort.desc ? asc : desc;
  const base = db
    .select({
      id: inv.id,
      invoiceNum: inv.invoiceNum,
      issuerId: issuer.id,
      issuerName: issuer.name,
      issuerCode: issuer.code,
      customerId: customer.id,
      customerName: customer.name,
      customerCode: customer.code,
      dueDate: inv.dueDate,
      notes: inv.notes,
      amountCents: inv.amountCents,
      discountCents: inv.discountCents,
      shippingCents: inv.shippingCents,
      taxCents: inv.taxCents,
      totalCents: inv.totalCents,
      status: inv.status,
      createdAt: inv.createdAt,
    })
    .from(inv)
    .innerJoin(issuer, eq(issuer.id, inv.companyId))
    .innerJoin(customer, eq(customer.id, inv.customerCompanyId))
    .where(where)
    .orderBy(dir(INVOICE_SORTS[key]), dir(inv.id));
  // Not one batch: the joined companies' same-named columns would collide in a batch's result.
  const [rows, totals] = await Promise.all([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, inv, where)]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      invoiceNum: r.invoiceNum,
      issuer: { id: r.issuerId, name: r.issuerName, code: r.issuerCode },
      customer: { id: r.customerId, name: r.customerName, code: r.customerCode },
      dueDate: r.dueDate,
      notes: r.notes,
      amountCents: r.amountCents,
      discountCents: r.discountCents,
      shippingCents: r.shippingCents,
      taxCents: r.taxCents,
      totalCents: r.totalCents,
      status: statusOf(r.status, r.dueDate, today),
      createdAt: r.createdAt,
    })),
    total: Number(totals[0]?.n ?? 0),
  };
}

/**
 * The billing portal's list: every invoice the caller reads, or with `companyId` (the caller's own
 * company or one in its view) only those issued by or billed to that company.
 */
export async function listInvoices(db: Db, auth: Auth, now: number, opts: ListOpts & { companyId?: number } = {}) {
  assertCan(auth, "billing_portal");
  let only: SQL | undefined;
  if (opts.companyId !== undefined && opts.companyId !== auth.company.id) {
    if (auth.company.type === "ec") notFound(INVOICE_MSG.notFound);
    await findVisibleCompany(db, auth, opts.companyId);
  }
  if (opts.companyId !== undefined) only = or(eq(inv.companyId, opts.companyId), eq(inv.customerCompanyId, opts.companyId));
  return list(db, and(visibleInvoices(auth), only), todayOf(now, companyZone(auth)), opts);
}

/** /companyRelatedInvoices: the invoices billed to one company of the platform's company list. */
export async function listCompanyInvoices(db: Db, auth: Auth, companyId: number, now: number, opts: ListOpts = {}) {
  assertPlatformCaller(auth, "company");
  const company = await findVisibleCompany(db, auth, companyId);
  const r = await list(db, and(visibleInvoices(auth), eq(inv.customerCompanyId, company.id)), todayOf(now, companyZone(auth)), opts);
  return { company: { id: company.id, name: company.name, code: company.code, type: company.type }, ...r };
}

/** One invoice with its lines; 404 outside the caller's view. */
export async function getInvoiceDetails(db: Db, auth: Auth, id: number, now: number): Promise<InvoiceDetails> {
  assertCan(auth, READ_MODULES);
  if (!Number.isInteger(id) || id <= 0) notFound(INVOICE_MSG.notFound);
  const { rows } = await list(db, and(visibleInvoices(auth), eq(inv.id, id)), todayOf(now, companyZone(auth)), {});
  const head = rows[0] ?? notFound(INVOICE_MSG.notFound);
  const items = await db.select().from(lines).where(eq(lines.invoiceId, head.id)).orderBy(asc(lines.id));
  return {
    ...head,
    lines: items.map((l) => ({
      id: l.id,
      name: l.name,
      desc: l.description,
      qty: l.qty,
      msrpCents: l.priceCents,
      discountBp: l.discountBp,
      pricePerCents: l.pricePerCents,
      totalCents: l.totalCents,
    })),
  };
}

/** Companies the caller may bill: its own live child companies. */
/** The biller's customers, with the discount of their tier (a new invoice line starts at it). */
export async function customerOptions(db: Db, auth: Auth): Promise<(CompanyRef & { discountPercent: number })[]> {
  const c = schema.companies;
  return db
    .select({ id: c.id, name: c.name, code: c.code, discountPercent: c.discountPercentage })
    .from(c)
    .where(and(eq(c.parentId, auth.company.id), isNull(c.deletedAt)))
    .orderBy(asc(c.name), asc(c.id));
}

/**
 * The number a new invoice is offered: the biller's next free `INV-<year>-NNN` (the seed's and the
 * usual form), one past the highest of the year. The biller may still type another; numbers stay
 * unique per biller (`addInvoice` refuses a taken one).
 */
export async function nextInvoiceNumber(db: Db, auth: Auth, now: number): Promise<string> {
  const prefix = `INV-${todayOf(now, companyZone(auth)).slice(0, 4)}-`;
  const rows = await db
    .select({ num: inv.invoiceNum })
    .from(inv)
    .where(and(eq(inv.companyId, auth.company.id), sql`${inv.invoiceNum} like ${`${prefix}%`}`));
  const highest = rows.reduce((max, r) => {
    const n = /^\d{1,9}$/.test(r.num.slice(prefix.length)) ? Number(r.num.slice(prefix.length)) : 0;
    return Math.max(max, n);
  }, 0);
  return `${prefix}${String(highest + 1).padStart(3, "0")}`;
}

/** Validates a create-invoice input (the due date not before the biller's local today); a missing required field answers with the spec's banner. */
export function parseInvoice(input: unknown, auth: Auth, now: number): InvoiceInput {
  const r = invoiceFormSchema(todayOf(now, companyZone(auth))).safeParse(input);
  if (r.success) return r.data;
  const fieldErrors = issuesByField(r.error.issues, (path) => path.join("."));
  const first = r.error.issues[0]?.message ?? INVOICE_MSG.banner;
  throw new ServiceError(400, r.error.issues.some((i) => REQUIRED_MESSAGES.has(i.message)) ? INVOICE_MSG.banner : first, { fieldErrors });
}

/** Saved lines re-billed to the same customer keep their quantity and MSRP. */
async function checkSavedLines(db: Db, auth: Auth, v: InvoiceInput) {
  const ids = v.lineItems.flatMap((l) => (l.id === undefined ? [] : [l.id]));
  if (!ids.length) return;
  if (new Set(ids).size !== ids.length) throw new ServiceError(400, INVOICE_MSG.savedLine);
  const saved = await db
    .select({ id: lines.id, qty: lines.qty, msrpCents: lines.priceCents })
    .from(lines)
    .innerJoin(inv, eq(inv.id, lines.invoiceId))
    .where(and(inArray(lines.id, ids), eq(inv.customerCompanyId, v.customerId), visibleInvoices(auth)));
  const byId = new Map(saved.map((s) => [s.id, s]));
  v.lineItems.forEach((l, i) => {
    if (l.id === undefined) return;
    const s = byId.get(l.id) ?? notFound(INVOICE_MSG.lineNotFound);
    if (s.qty !== l.qty || s.msrpCents !== l.msrpCents)
      throw new ServiceError(400, INVOICE_MSG.savedLine, { fieldErrors: { [`lineItems.${i}.${s.qty !== l.qty ? "qty" : "price"}`]: [INVOICE_MSG.savedLine] } });
  });
}

/** POST company/addInvoice: the caller's company bills one of its child companies ('Invoice Created'). */
/** Billing needs the billing module's add right and a company with children to bill (not an ec). */
export function assertBiller(auth: Auth) {
  assertCan(auth, "billing_portal", "add");
  if (auth.company.type === "ec") forbidden();
}

export async function addInvoice(db: Db, auth: Auth, v: InvoiceInput, now: number): Promise<{ message: string; id: number }> {
  assertBiller(auth);
  const c = schema.companies;
  const target = await db.query.companies.findFirst({ where: and(eq(c.id, v.customerId), eq(c.parentId, auth.company.id), isNull(c.deletedAt)) });
  if (!target) throw new ServiceError(404, INVOICE_MSG.customerNotFound, { fieldErrors: { customerId: [INVOICE_MSG.customerNotFound] } });
  const taken = await db
    .select({ id: inv.id })
    .from(inv)
    .where(and(eq(inv.companyId, auth.company.id), eq(inv.invoiceNum, v.invoiceNum)))
    .limit(1);
  if (taken.length) throw new ServiceError(422, INVOICE_MSG.numTaken, { fieldErrors: { invoiceNum: [INVOICE_MSG.numTaken] } });
  await checkSavedLines(db, auth, v);

  const figures = invoiceFigures(v.lineItems);
  const newId = sql<number>`(select id from invoices where company_id = ${auth.company.id} and invoice_num = ${v.invoiceNum})`;
  const [inserted] = await db
    .batch([
      db
        .insert(inv)
        .values({
          companyId: auth.company.id,
          customerCompanyId: target.id,
          invoiceNum: v.invoiceNum,
          dueDate: v.dueDate,
          notes: v.notes,
          ...figures,
          createdAt: now,
        })
        .returning({ id: inv.id }),
      db.insert(lines).values(
        v.lineItems.map((l) => ({
          invoiceId: newId,
          companyId: auth.company.id,
          name: l.name,
          description: l.desc,
          qty: l.qty,
          priceCents: l.msrpCents,
          discountBp: l.discountBp,
          pricePerCents: l.pricePerCents,
          totalCents: l.totalCents,
          sourceLineId: l.id ?? null,
        })),
      ),
      activityInsert(db, {
        companyId: auth.company.id,
        name: "Invoice Created",
        createdByUserId: auth.user.id,
        summary: `${v.invoiceNum} for ${target.name} (${target.code}): ${formatUsd(figures.totalCents)}`,
        details: { invoiceNum: v.invoiceNum, customerCompanyId: target.id, totalCents: figures.totalCents },
        at: now,
      }),
    ])
    .catch((e: unknown) => {
      // Two submissions of one number at once: the unique index settles it.
      if (String(e).includes("UNIQUE")) throw new ServiceError(422, INVOICE_MSG.numTaken, { fieldErrors: { invoiceNum: [INVOICE_MSG.numTaken] } });
      throw e;
    });
  return { message: INVOICE_MSG.created, id: inserted[0].id };
}
