import { z } from "zod";
import { companyRefQuery, optionalCompanyRefQuery } from "~/schemas/companies";
import { invoiceIdQuery } from "~/schemas/invoices";
import * as invoices from "~/services/invoices.server";
import type { InvoiceDetails, InvoiceRow } from "~/services/invoices.server";
import { assertPlatformCaller, companyIdOf } from "~/services/companies.server";
import { centsText, percentText } from "~/utils/invoice-money";
import { endpoint } from "../define.server";

const tag = "Invoices";

/**
 * Money leaves as exact dollar text with two decimals ("1234.50"), the way the form shows it, and as
 * integer cents beside it (`*_cents`); never as a float (decision 0024).
 */
const listItem = z.object({
  id: z.number(),
  invoice_num: z.string(),
  bill_to_company_detail: z.object({ id: z.number(), company_name: z.string(), company_id: z.string() }),
  customer_company_detail: z.object({ id: z.number(), company_name: z.string(), company_id: z.string() }),
  total: z.string(),
  total_cents: z.number(),
  amount: z.string(),
  amount_cents: z.number(),
  discount: z.string(),
  discount_cents: z.number(),
  shipping: z.string(),
  shipping_cents: z.number(),
  tax: z.string(),
  tax_cents: z.number(),
  due_date: z.string(),
  notes: z.string(),
  status: z.string(),
  createdAt: z.number(),
});
const lineItem = z.object({
  id: z.number(),
  name: z.string(),
  desc: z.string(),
  qty: z.number(),
  price: z.string(),
  price_cents: z.number(),
  discount: z.string(),
  discount_bp: z.number(),
  price_per: z.string(),
  price_per_cents: z.number(),
  total: z.string(),
  total_cents: z.number(),
});

function toWire(r: InvoiceRow): z.infer<typeof listItem> {
  return {
    id: r.id,
    invoice_num: r.invoiceNum,
    bill_to_company_detail: { id: r.issuer.id, company_name: r.issuer.name, company_id: r.issuer.code },
    customer_company_detail: { id: r.customer.id, company_name: r.customer.name, company_id: r.customer.code },
    total: centsText(r.totalCents),
    total_cents: r.totalCents,
    amount: centsText(r.amountCents),
    amount_cents: r.amountCents,
    discount: centsText(r.discountCents),
    discount_cents: r.discountCents,
    shipping: centsText(r.shippingCents),
    shipping_cents: r.shippingCents,
    tax: centsText(r.taxCents),
    tax_cents: r.taxCents,
    due_date: r.dueDate,
    notes: r.notes,
    status: r.status,
    createdAt: r.createdAt,
  };
}

const detailsToWire = (d: InvoiceDetails) => ({
  ...toWire(d),
  invoice_line_items: d.lines.map((l) => ({
    id: l.id,
    name: l.name,
    desc: l.desc,
    qty: l.qty,
    price: centsText(l.msrpCents),
    price_cents: l.msrpCents,
    discount: percentText(l.discountBp),
    discount_bp: l.discountBp,
    price_per: centsText(l.pricePerCents),
    price_per_cents: l.pricePerCents,
    total: centsText(l.totalCents),
    total_cents: l.totalCents,
  })),
});

export const invoiceEndpoints = [
  endpoint({
    method: "GET",
    path: "/company/getInvoiceList",
    tag,
    summary:
      "Invoices the caller reads (billing_portal): root every one, others those billed to them or issued in their subtree. With company_id (id or code, own or in view) only that company's, issued or billed. Newest first; status open, paid, void or overdue.",
    auth: "token",
    permission: { modules: "billing_portal" },
    query: optionalCompanyRefQuery,
    response: z.object({ payload: z.array(listItem) }),
    async handler({ db, auth, query, now }) {
      const r = await invoices.listInvoices(db, auth, now, { companyId: query.company_id === undefined ? undefined : await companyIdOf(db, query.company_id) });
      return { payload: r.rows.map(toWire) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/getCompanyRelatedInvoices",
    tag,
    summary: "The invoices billed to company_id (its id or its code) in the caller's view (company module); 404 for a company outside it.",
    auth: "token",
    permission: { modules: "company", guard: (_, auth) => assertPlatformCaller(auth, "company") },
    query: companyRefQuery,
    response: z.object({ payload: z.array(listItem) }),
    async handler({ db, auth, query, now }) {
      const r = await invoices.listCompanyInvoices(db, auth, await companyIdOf(db, query.company_id), now);
      return { payload: r.rows.map(toWire) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/getInvoiceDetails",
    tag,
    summary: "One invoice with invoice_line_items; 404 'Invoice could not be found' outside the caller's view.",
    auth: "token",
    permission: { modules: ["billing_portal", "company"] },
    query: invoiceIdQuery,
    response: z.object({ payload: listItem.extend({ invoice_line_items: z.array(lineItem) }) }),
    async handler({ db, auth, query, now }) {
      return { payload: detailsToWire(await invoices.getInvoiceDetails(db, auth, query.invoice_id, now)) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/company/addInvoice",
    tag,
    summary:
      "Bills one of the caller's child companies ('Invoice created successfully', audit 'Invoice Created'). companyId and customerId both name the customer. lineItems: name, desc, qty, price (MSRP, dollars), discount (percent) and/or price_per (dollars, wins when both are sent); totals are computed, never taken. 400 'Plese enter all the required fields to continue...' with errors per field when one is missing; 404 for a customer that is not a child; 422 for a used invoice number.",
    auth: "token",
    permission: { modules: "billing_portal", action: "add", guard: (_, auth) => invoices.assertBiller(auth) },
    body: z.object({}).passthrough(),
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now }) {
      const r = await invoices.addInvoice(db, auth, invoices.parseInvoice(body, auth, now), now);
      return { message: r.message, payload: { id: r.id } };
    },
  }),
];
