import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { lineFigures, MAX_LINES, MAX_MSRP_CENTS, MAX_QTY, parseMoney, parsePercent, type LineFigures } from "~/utils/invoice-money";

/**
 * Create invoice (spec part 2 §3 Invoice, §5 Create invoice): one schema for the form (live checks in
 * the browser) and for the service and the admin API. Amounts arrive as dollars with at most two
 * decimals (text or JSON numbers) and leave as integer cents computed by `~/utils/invoice-money`;
 * any total the client sends is ignored (decision 0024).
 */
export const INVOICE_MSG = {
  created: "Invoice created successfully",
  /** The spec's banner, spelled as the spec spells it. */
  banner: "Plese enter all the required fields to continue...",
  customer: "Customer Company required",
  sameCompany: "companyId and customerId must name the same customer company",
  invoiceNum: "Invoice Number required",
  dueDate: "Due Date required",
  dueDateInvalid: "Due Date must be a date (MM/DD/YYYY)",
  dueDatePast: "The due date cannot be in the past",
  notes: "Notes required",
  lines: "At least one line item is required",
  tooManyLines: `An invoice has at most ${MAX_LINES} line items`,
  name: "Name required",
  desc: "Description required",
  qty: "Quantity required",
  qtyInvalid: `Quantity must be a whole number from 1 to ${MAX_QTY}`,
  msrp: "MSRP required",
  msrpInvalid: "MSRP must be an amount in dollars with at most two decimals, up to $1,000,000.00",
  pricePer: "Price Per required",
  pricePerInvalid: "Price Per must be an amount in dollars with at most two decimals",
  pricePerAboveMsrp: "Price Per cannot be more than the MSRP",
  discountInvalid: "Discount must be a percent from 0 to 100 with at most two decimals",
  numTaken: "This invoice number is already in use",
  savedLine: "Saved lines cannot change quantity or MSRP",
  lineNotFound: "Saved line item could not be found",
  notFound: "Invoice could not be found",
  customerNotFound: "The customer company is not one of your child companies",
} as const;

/** Messages of a missing required field: together they raise the spec's banner. */
export const REQUIRED_MESSAGES: ReadonlySet<string> = new Set([
  INVOICE_MSG.customer,
  INVOICE_MSG.invoiceNum,
  INVOICE_MSG.dueDate,
  INVOICE_MSG.notes,
  INVOICE_MSG.lines,
  INVOICE_MSG.name,
  INVOICE_MSG.desc,
  INVOICE_MSG.qty,
  INVOICE_MSG.msrp,
  INVOICE_MSG.pricePer,
]);

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

const requiredText = (message: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.string({ required_error: message, invalid_type_error: message }).min(1, message).max(max, `At most ${max} characters`),
  );

/** `YYYY-MM-DD` or `MM/DD/YYYY` → `YYYY-MM-DD` when it is a real calendar date, else null. */
export function isoDate(input: string): string | null {
  const t = input.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t) ?? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(t);
  if (!m) return null;
  const [y, mo, d] = t.includes("/") ? [m[3], m[1], m[2]] : [m[1], m[2], m[3]];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d) ? `${y}-${mo}-${d}` : null;
}

const companyNumber = z.number({ required_error: INVOICE_MSG.customer, invalid_type_error: INVOICE_MSG.customer }).int(INVOICE_MSG.customer).positive(INVOICE_MSG.customer);
const toNumber = (v: unknown) => (blank(v) ? undefined : typeof v === "string" ? Number(v.trim()) : v);

const lineSchema = z
  .object({
    /** Present when the line re-bills a saved line. */
    id: z.preprocess((v) => (blank(v) ? undefined : typeof v === "string" ? Number(v) : v), z.number({ invalid_type_error: INVOICE_MSG.lineNotFound }).int().positive().optional()),
    // Every field is checked in the one transform below, so a line reports all its problems at once.
    name: z.unknown(),
    desc: z.unknown(),
    qty: z.unknown(),
    price: z.unknown(),
    discount: z.unknown(),
    price_per: z.unknown(),
    /** Sent by some clients; never trusted, always recomputed. */
    total: z.unknown().optional(),
  })
  .transform((l, ctx): (LineFigures & { id?: number; name: string; desc: string }) | typeof z.NEVER => {
    let failed = false;
    const issue = (path: string, message: string) => {
      failed = true;
      ctx.addIssue({ code: "custom", path: [path], message });
    };
    const text = (field: "name" | "desc", message: string, max: number) => {
      const v = typeof l[field] === "string" ? (l[field] as string).trim() : "";
      if (!v) issue(field, message);
      else if (v.length > max) issue(field, `At most ${max} characters`);
      return v;
    };
    const name = text("name", INVOICE_MSG.name, 100);
    const desc = text("desc", INVOICE_MSG.desc, 500);
    let qty = 0;
    if (blank(l.qty)) issue("qty", INVOICE_MSG.qty);
    else {
      qty = typeof l.qty === "number" ? l.qty : /^\s*\d{1,9}\s*$/.test(String(l.qty)) ? Number(l.qty) : NaN;
      if (qty === 0) issue("qty", INVOICE_MSG.qty);
      else if (!Number.isInteger(qty) || qty < 1 || qty > MAX_QTY) issue("qty", INVOICE_MSG.qtyInvalid);
    }
    const msrp = blank(l.price) ? null : parseMoney(l.price);
    if (blank(l.price) || msrp === 0) issue("price", INVOICE_MSG.msrp);
    else if (msrp === null || msrp > MAX_MSRP_CENTS) issue("price", INVOICE_MSG.msrpInvalid);
    const discountBp = blank(l.discount) ? null : parsePercent(l.discount);
    if (!blank(l.discount) && discountBp === null) issue("discount", INVOICE_MSG.discountInvalid);
    const pricePer = blank(l.price_per) ? null : parseMoney(l.price_per);
    if (!blank(l.price_per) && pricePer === null) issue("price_per", INVOICE_MSG.pricePerInvalid);
    if (failed || msrp === null) return z.NEVER;
    // Without a price per, the discount gives it; either way a zero price per is missing.
    if (pricePer === null && discountBp === null) return (issue("price_per", INVOICE_MSG.pricePer), z.NEVER);
    const figures = lineFigures({ qty, msrpCents: msrp, pricePerCents: pricePer, discountBp });
    if (figures.pricePerCents === 0) return (issue("price_per", INVOICE_MSG.pricePer), z.NEVER);
    if (figures.pricePerCents > msrp) return (issue("price_per", INVOICE_MSG.pricePerAboveMsrp), z.NEVER);
    return { ...figures, ...(l.id !== undefined && { id: l.id }), name, desc };
  });

/**
 * The create-invoice form. `today` (`YYYY-MM-DD`, from the caller's injected clock) bounds the due date.
 * `companyId` and `customerId` both name the customer (spec §3); either one is enough.
 */
export function invoiceFormSchema(today: string) {
  const form = z
    .object({
      companyId: z.preprocess(toNumber, companyNumber.optional()),
      customerId: z.preprocess(toNumber, companyNumber),
      invoiceNum: requiredText(INVOICE_MSG.invoiceNum, 50),
      dueDate: z.preprocess(
        (v) => (blank(v) ? undefined : v),
        z
          .string({ required_error: INVOICE_MSG.dueDate, invalid_type_error: INVOICE_MSG.dueDateInvalid })
          .transform((v, ctx) => isoDate(v) ?? (ctx.addIssue({ code: "custom", message: INVOICE_MSG.dueDateInvalid }), z.NEVER))
          .refine((v) => v >= today, INVOICE_MSG.dueDatePast),
      ),
      notes: requiredText(INVOICE_MSG.notes, 1000),
      lineItems: z
        .array(lineSchema, { required_error: INVOICE_MSG.lines, invalid_type_error: INVOICE_MSG.lines })
        .min(1, INVOICE_MSG.lines)
        .max(MAX_LINES, INVOICE_MSG.tooManyLines),
    })
    .refine((v) => v.companyId === undefined || v.companyId === v.customerId, { path: ["customerId"], message: INVOICE_MSG.sameCompany })
    .transform(({ companyId: _, ...rest }) => rest);
  // A payload with only companyId names the customer with it.
  return readsPostedStrings(
    z.preprocess(
      (v) => (v && typeof v === "object" && blank((v as { customerId?: unknown }).customerId) ? { ...v, customerId: (v as { companyId?: unknown }).companyId } : v),
      form,
    ),
  );
}
export type InvoiceInput = z.output<ReturnType<typeof invoiceFormSchema>>;
export type InvoiceLineInput = InvoiceInput["lineItems"][number];

export const invoiceIdQuery = z.object({ invoice_id: z.coerce.number({ invalid_type_error: "invoice_id must be a number" }).int().positive("invoice_id is required") });
