// @clock: a due date is checked against today; scripts/test.sh runs this file again half an hour before the DST switch.
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { isoDay } from "../../db/seed/clock";
import { api, auditsNamed, db, login, schema, seedNow, workerNow } from "./helpers";

/*
 * Billing calls (spec part 2 §7): who reads which invoice, the create-invoice rules, exact money and
 * the audit entry. Demo data: RSL1 billed ACME invoices 1, 2 and 4, ROOT billed RSL1 invoice 3.
 */
const BASE = "/api/admin/company";
const C = { ROOT: 1, RSL1: 2, ACME: 3, BETA: 4 };
let root: string;
let reseller: string;
let acme: string;
let other: Awaited<ReturnType<typeof otherSubtree>>;

const day = 24 * 3600_000;

/** A second reseller subtree (RS2X → EC2X) with an invoice, and a ROOT → BETA invoice: none of them RSL1's or ACME's to read. */
async function otherSubtree() {
  const co = schema.companies;
  const base = { pocFirstName: "P", pocLastName: "Q", pocCountryCode: "001", pocPhoneNumber: "5550000000", discountPercentage: 15 };
  const [rs2] = await db()
    .insert(co)
    .values({ ...base, code: "RS2X", name: "Reseller Two", type: "var", parentId: C.ROOT, pocEmail: "rs2@two.example" })
    .returning({ id: co.id });
  const [ec2] = await db()
    .insert(co)
    .values({ ...base, code: "EC2X", name: "Customer Two", type: "ec", parentId: rs2.id, pocEmail: "ec2@two.example" })
    .returning({ id: co.id });
  const inv = schema.invoices;
  const [other] = await db()
    .insert(inv)
    .values({ companyId: rs2.id, customerCompanyId: ec2.id, invoiceNum: "RS2-1", dueDate: "2030-01-01", totalCents: 100 })
    .returning({ id: inv.id });
  const [beta] = await db()
    .insert(inv)
    .values({ companyId: C.ROOT, customerCompanyId: C.BETA, invoiceNum: "ROOT-BETA-1", dueDate: "2030-01-01", totalCents: 200 })
    .returning({ id: inv.id });
  return { rs2: rs2.id, ec2: ec2.id, otherInvoice: other.id, betaInvoice: beta.id };
}

const audit = async () => (await auditsNamed("Invoice Created")).map((r) => `${r.companyId} ${r.name}: ${r.summary}`);

const invoiceCount = async () => (await db().select({ n: count() }).from(schema.invoices))[0].n;
const lineCount = async () => (await db().select({ n: count() }).from(schema.invoiceLineItems))[0].n;

function valid(over: Record<string, unknown> = {}) {
  return {
    companyId: C.ACME,
    customerId: C.ACME,
    invoiceNum: "RSL1-100",
    dueDate: isoDay(workerNow() + 10 * day),
    notes: "Boards for the new wing",
    lineItems: [
      { name: "Access Board", desc: "AB-100", qty: 3, price: "200.00", discount: "15", price_per: "170.00", total: "1.00" },
      { name: "Bluetooth Lock", desc: "BL-1", qty: "7", price: 99.99, discount: "", price_per: "66.66" },
      { name: "Install", desc: "On site", qty: 1, price: "0.05", discount: "10" },
    ],
    ...over,
  };
}

beforeAll(async () => {
  [root, reseller, acme] = await Promise.all([login("root"), login("var"), login("acme")]);
  other = await otherSubtree();
});

describe("reading invoices", () => {
  it("an ec company reads only the invoices billed to it, with exact money", async () => {
    const { otherInvoice, betaInvoice } = other;
    const list = await api(acme, "GET", `${BASE}/getInvoiceList?company_id=${C.ACME}`);
    expect(list.status).toBe(200);
    expect(list.body.payload.map((i: { invoice_num: string }) => i.invoice_num)).toEqual(["INV-2026-003", "INV-2026-002", "INV-2026-001"]);
    expect(list.body.payload[1]).toMatchObject({
      bill_to_company_detail: { company_name: "Northwind Resellers", company_id: "RSL1" },
      customer_company_detail: { id: C.ACME, company_id: "ACME" },
      amount: "600.00",
      amount_cents: 60000,
      discount: "90.00",
      total: "510.00",
      total_cents: 51000,
      // The seed's "Extra boards" invoice is due 56 days after the seed instant.
      due_date: isoDay(seedNow(), 56),
    });
    expect((await api(acme, "GET", `${BASE}/getInvoiceList`)).body.payload).toHaveLength(3);

    for (const id of [3, otherInvoice, betaInvoice]) {
      const r = await api(acme, "GET", `${BASE}/getInvoiceDetails?invoice_id=${id}`);
      expect(r.status, `invoice ${id}`).toBe(404);
      expect(r.body.message).toBe("Invoice could not be found");
    }
    // Another company's list, and the platform's per-company call, are closed to it.
    expect((await api(acme, "GET", `${BASE}/getInvoiceList?company_id=${C.RSL1}`)).status).toBe(404);
    expect((await api(acme, "GET", `${BASE}/getCompanyRelatedInvoices?company_id=${C.ACME}`)).status).toBe(403);

    const details = await api(acme, "GET", `${BASE}/getInvoiceDetails?invoice_id=2`);
    expect(details.status).toBe(200);
    expect(details.body.payload.invoice_line_items).toEqual([
      {
        id: 2,
        name: "Access Board",
        desc: "AB-100",
        qty: 3,
        price: "200.00",
        price_cents: 20000,
        discount: "15.00",
        discount_bp: 1500,
        price_per: "170.00",
        price_per_cents: 17000,
        total: "510.00",
        total_cents: 51000,
      },
    ]);
  });

  it("a reseller reads its subtree's invoices and those billed to it, never another subtree's", async () => {
    const { rs2, otherInvoice, betaInvoice } = other;
    const list = await api(reseller, "GET", `${BASE}/getInvoiceList`);
    expect(list.status).toBe(200);
    expect(list.body.payload.map((i: { id: number }) => i.id).sort()).toEqual([1, 2, 3, 4]);
    expect(list.body.payload.find((i: { id: number }) => i.id === 3)).toMatchObject({ status: "paid", bill_to_company_detail: { company_id: "ROOT" } });
    for (const id of [otherInvoice, betaInvoice]) expect((await api(reseller, "GET", `${BASE}/getInvoiceDetails?invoice_id=${id}`)).status).toBe(404);
    expect((await api(reseller, "GET", `${BASE}/getInvoiceList?company_id=${rs2}`)).status).toBe(404);
    expect((await api(reseller, "GET", `${BASE}/getInvoiceList?company_id=${C.BETA}`)).status).toBe(404);
    const forAcme = await api(reseller, "GET", `${BASE}/getInvoiceList?company_id=${C.ACME}`);
    expect(forAcme.body.payload.map((i: { id: number }) => i.id).sort()).toEqual([1, 2, 4]);
    // Without the company module the platform's per-company call is refused.
    expect((await api(reseller, "GET", `${BASE}/getCompanyRelatedInvoices?company_id=${C.ACME}`)).status).toBe(403);
  });

  it("root reads every invoice; getCompanyRelatedInvoices lists those billed to one company", async () => {
    const { ec2, otherInvoice } = other;
    const related = await api(root, "GET", `${BASE}/getCompanyRelatedInvoices?company_id=${C.ACME}`);
    expect(related.status).toBe(200);
    expect(related.body.payload.map((i: { id: number }) => i.id)).toEqual([4, 2, 1]);
    expect((await api(root, "GET", `${BASE}/getCompanyRelatedInvoices?company_id=${ec2}`)).body.payload.map((i: { id: number }) => i.id)).toEqual([otherInvoice]);
    expect((await api(root, "GET", `${BASE}/getCompanyRelatedInvoices?company_id=9999`)).status).toBe(404);
    expect((await api(root, "GET", `${BASE}/getCompanyRelatedInvoices?company_id=abc`)).status).toBe(400);
    expect((await api(root, "GET", `${BASE}/getInvoiceDetails?invoice_id=${otherInvoice}`)).status).toBe(200);
    for (const q of ["", "?invoice_id=abc", "?invoice_id=0"]) expect((await api(root, "GET", `${BASE}/getInvoiceDetails${q}`)).status, q).toBe(400);
    expect((await api(root, "GET", `${BASE}/getInvoiceList?company_id=abc`)).status).toBe(400);
    expect((await api(root, "GET", `${BASE}/getInvoiceList`)).body.payload.length).toBe(6);
  });

  it("needs the billing_portal module: ACME's auditor role lacks it", async () => {
    const auditor = await login("auditor");
    expect((await api(auditor, "GET", `${BASE}/getInvoiceList`)).status).toBe(403);
    expect((await api(auditor, "GET", `${BASE}/getInvoiceDetails?invoice_id=1`)).status).toBe(403);
    expect((await api(auditor, "POST", `${BASE}/addInvoice`, valid())).status).toBe(403);
    expect((await api(null, "GET", `${BASE}/getInvoiceList`)).status).toBe(401);
  });

  it("an open invoice past its due date shows as overdue", async () => {
    await db()
      .update(schema.invoices)
      .set({ dueDate: isoDay(workerNow() - day) })
      .where(eq(schema.invoices.id, 1));
    const r = await api(acme, "GET", `${BASE}/getInvoiceDetails?invoice_id=1`);
    expect(r.body.payload.status).toBe("overdue");
  });
});

describe("addInvoice", () => {
  it("bills a child company with totals computed on the server, audit in the same batch, and the customer sees it", async () => {
    const r = await api(reseller, "POST", `${BASE}/addInvoice`, valid());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Invoice created successfully");
    const id = r.body.payload.id;
    const row = (await db().query.invoices.findFirst({ where: eq(schema.invoices.id, id) }))!;
    // 3 × $170.00 + 7 × $66.66 + 1 × $0.04 (5 cents less 10 %, half a cent rounded up) = $976.66
    expect(row).toMatchObject({ companyId: C.RSL1, customerCompanyId: C.ACME, amountCents: 60000 + 69993 + 5, totalCents: 51000 + 46662 + 4, status: "open" });
    expect(row.discountCents).toBe(row.amountCents - row.totalCents);
    const lines = await db().select().from(schema.invoiceLineItems).where(eq(schema.invoiceLineItems.invoiceId, id)).orderBy(schema.invoiceLineItems.id);
    expect(lines.map((l) => [l.qty, l.priceCents, l.discountBp, l.pricePerCents, l.totalCents, l.companyId])).toEqual([
      [3, 20000, 1500, 17000, 51000, C.RSL1],
      [7, 9999, 3333, 6666, 46662, C.RSL1],
      [1, 5, 2000, 4, 4, C.RSL1],
    ]);
    expect(await audit()).toContain(`${C.RSL1} Invoice Created: RSL1-100 for Acme Corporation (ACME): $976.66`);

    const seen = await api(acme, "GET", `${BASE}/getInvoiceDetails?invoice_id=${id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.payload).toMatchObject({ invoice_num: "RSL1-100", total: "976.66", total_cents: 97666, notes: "Boards for the new wing" });
    expect((await api(acme, "GET", `${BASE}/getInvoiceList`)).body.payload[0].id).toBe(id);
  });

  it("refuses missing fields with the spec's banner and names each field, writing nothing", async () => {
    const [invoices, lines, logged] = [await invoiceCount(), await lineCount(), (await audit()).length];
    const r = await api(reseller, "POST", `${BASE}/addInvoice`, { companyId: "", invoiceNum: " ", lineItems: [{ name: "", desc: "x", qty: 0, price: "0", price_per: "" }] });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Plese enter all the required fields to continue...");
    expect(r.body.errors).toMatchObject({
      customerId: ["Customer Company required"],
      invoiceNum: ["Invoice Number required"],
      dueDate: ["Due Date required"],
      notes: ["Notes required"],
      "lineItems.0.name": ["Name required"],
      "lineItems.0.qty": ["Quantity required"],
      "lineItems.0.price": ["MSRP required"],
    });
    const none = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ lineItems: [] }));
    expect(none.status).toBe(400);
    expect(none.body.errors.lineItems).toEqual(["At least one line item is required"]);
    const zeroPrice = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ lineItems: [{ name: "A", desc: "B", qty: 1, price: "10", price_per: "0" }] }));
    expect(zeroPrice.body.errors["lineItems.0.price_per"]).toEqual(["Price Per required"]);
    expect([await invoiceCount(), await lineCount(), (await audit()).length]).toEqual([invoices, lines, logged]);
  });

  it("checks dates and amounts with their own messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      // Two days back: past in every zone, whatever the biller's.
      [{ dueDate: isoDay(workerNow() - 2 * day) }, "The due date cannot be in the past"],
      [{ dueDate: "2027-02-30" }, "Due Date must be a date (MM/DD/YYYY)"],
      [{ lineItems: [{ name: "A", desc: "B", qty: 1, price: "12.345", price_per: "1" }] }, "MSRP must be an amount in dollars with at most two decimals, up to $1,000,000.00"],
      [{ lineItems: [{ name: "A", desc: "B", qty: 1, price: 0.1 + 0.2, price_per: "0.10" }] }, "MSRP must be an amount in dollars with at most two decimals, up to $1,000,000.00"],
      [{ lineItems: [{ name: "A", desc: "B", qty: 1, price: "10", price_per: "10.01" }] }, "Price Per cannot be more than the MSRP"],
      [{ lineItems: [{ name: "A", desc: "B", qty: 1.5, price: "10", price_per: "9" }] }, "Quantity must be a whole number from 1 to 10000"],
      [{ lineItems: [{ name: "A", desc: "B", qty: 1, price: "10", discount: "101" }] }, "Discount must be a percent from 0 to 100 with at most two decimals"],
      [{ companyId: C.BETA }, "companyId and customerId must name the same customer company"],
    ];
    for (const [over, message] of cases) {
      const r = await api(reseller, "POST", `${BASE}/addInvoice`, valid(over));
      expect(r.status, message).toBe(400);
      expect(r.body.message).toBe(message);
    }
    // Today is not in the past, and MM/DD/YYYY is read too.
    const [y, m, d] = isoDay(workerNow()).split("-");
    const today = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ invoiceNum: "TODAY-1", dueDate: `${m}/${d}/${y}` }));
    expect(today.status, JSON.stringify(today.body)).toBe(200);
  });

  it("judges the due date by the biller's local day, not UTC's", async () => {
    // A zone whose day differs from UTC's now: UTC+14 from 10:00 UTC on (a day ahead), UTC-11 before 11:00 (a day behind).
    const now = workerNow();
    const ahead = new Date(now).getUTCHours() >= 10;
    const offset = (ahead ? 14 : -11) * 3600_000;
    const localToday = isoDay(now + offset);
    const localYesterday = isoDay(now + offset - day);
    expect(localToday).not.toBe(isoDay(now));
    const [zone] = await db()
      .select({ id: schema.timeZones.id })
      .from(schema.timeZones)
      .where(eq(schema.timeZones.name, ahead ? "Pacific/Kiritimati" : "Pacific/Pago_Pago"));
    const settings = schema.companySettings;
    const [{ was }] = await db().select({ was: settings.defaultTimeZoneId }).from(settings).where(eq(settings.companyId, C.RSL1));
    await db().update(settings).set({ defaultTimeZoneId: zone.id }).where(eq(settings.companyId, C.RSL1));
    try {
      const past = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ invoiceNum: "LOCAL-0", dueDate: localYesterday }));
      expect(past.body.message).toBe("The due date cannot be in the past");
      const today = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ invoiceNum: "LOCAL-1", dueDate: localToday }));
      expect(today.status, JSON.stringify(today.body)).toBe(200);
    } finally {
      await db().update(settings).set({ defaultTimeZoneId: was }).where(eq(settings.companyId, C.RSL1));
    }
  });

  it("bills only one's own child companies; an ec company bills nobody; numbers are unique per issuer", async () => {
    const { ec2 } = other;
    const before = await invoiceCount();
    for (const customer of [C.BETA, ec2, C.RSL1, C.ROOT]) {
      const r = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ companyId: customer, customerId: customer }));
      expect(r.status, `customer ${customer}`).toBe(404);
      expect(r.body.message).toBe("The customer company is not one of your child companies");
    }
    // Root bills its own children, not a grandchild.
    expect((await api(root, "POST", `${BASE}/addInvoice`, valid())).status).toBe(404);
    expect((await api(root, "POST", `${BASE}/addInvoice`, valid({ companyId: C.BETA, customerId: C.BETA }))).status).toBe(200);
    expect((await api(acme, "POST", `${BASE}/addInvoice`, valid())).status).toBe(403);
    expect(await invoiceCount()).toBe(before + 1);

    expect((await api(reseller, "POST", `${BASE}/addInvoice`, valid({ invoiceNum: "INV-2026-001" }))).status).toBe(422);
    // Another issuer may use the same number.
    expect((await api(root, "POST", `${BASE}/addInvoice`, valid({ invoiceNum: "INV-2026-001", companyId: C.BETA, customerId: C.BETA }))).status).toBe(200);
  });

  it("re-bills saved lines only with their quantity and MSRP, and only to their customer", async () => {
    const saved = { id: 2, name: "Access Board", desc: "AB-100", qty: 3, price: "200.00", price_per: "180.00" };
    const ok = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ invoiceNum: "RE-1", lineItems: [saved] }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const line = (await db().query.invoiceLineItems.findFirst({ where: eq(schema.invoiceLineItems.invoiceId, ok.body.payload.id) }))!;
    expect(line).toMatchObject({ sourceLineId: 2, qty: 3, priceCents: 20000, pricePerCents: 18000, discountBp: 1000, totalCents: 54000 });

    for (const change of [{ qty: 4 }, { price: "210.00", price_per: "180.00" }]) {
      const r = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ invoiceNum: "RE-2", lineItems: [{ ...saved, ...change }] }));
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("Saved lines cannot change quantity or MSRP");
    }
    // Line 3 belongs to ROOT's invoice billed to RSL1, not to ACME.
    const foreign = await api(reseller, "POST", `${BASE}/addInvoice`, valid({ invoiceNum: "RE-3", lineItems: [{ ...saved, id: 3, qty: 50 }] }));
    expect(foreign.status).toBe(404);
    expect(await db().query.invoices.findFirst({ where: eq(schema.invoices.invoiceNum, "RE-2") })).toBeUndefined();
  });
});
