import type { Page } from "@playwright/test";
import { adminApi, expect, runNow, test, unique } from "./fixtures";
import { isoDay } from "../../db/seed/clock";

/*
 * Billing (spec part 2 §2, §5): RSL1 bills ACME through the form, the totals on screen and on the
 * saved invoice match a reference computed here in BigInt, and ACME's admin sees the invoice.
 */

type RefLine = { qty: number; msrpCents: number } & ({ discountBp: number } | { pricePerCents: number });

/** Reference: price per = MSRP less the discount rounded half up to a cent; totals in BigInt. */
function reference(lines: RefLine[]) {
  const half = (n: bigint, d: bigint) => (2n * (n % d) >= d ? n / d + 1n : n / d);
  const totals = lines.map((l) => {
    const pp = "pricePerCents" in l ? BigInt(l.pricePerCents) : BigInt(l.msrpCents) - half(BigInt(l.msrpCents) * BigInt(l.discountBp), 10000n);
    return pp * BigInt(l.qty);
  });
  const usd = (c: bigint) => `$${(c / 100n).toLocaleString("en-US")}.${String(c % 100n).padStart(2, "0")}`;
  return { lines: totals.map(usd), total: usd(totals.reduce((a, b) => a + b, 0n)) };
}

const LINES: (RefLine & { name: string; desc: string; msrp: string; discount?: string; pricePer?: string })[] = [
  { name: "Access Board", desc: "AB-100", qty: 3, msrp: "200.00", msrpCents: 20000, discount: "15", discountBp: 1500 },
  { name: "Bluetooth Lock", desc: "BL-1", qty: 7, msrp: "99.99", msrpCents: 9999, pricePer: "66.66", pricePerCents: 6666 },
  { name: "Cable", desc: "Half a cent rounds up", qty: 9, msrp: "0.05", msrpCents: 5, discount: "10", discountBp: 1000 },
];

// The console's calendar dates: MM/DD/YYYY in English (the spec's), DD/MM/YYYY in Spanish.
const shownDay = (iso: string, lang: "en" | "es") =>
  lang === "en" ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** A due date two to five weeks ahead on a day past the 12th, so the two languages' formats never read alike. */
function dueDay(): string {
  let at = runNow() + 14 * 24 * 3600_000;
  while (new Date(at).getUTCDate() <= 12) at += 24 * 3600_000;
  return isoDay(at);
}

const L = {
  en: {
    portal: "Billing Portal",
    create: "Create Customer Invoice",
    submit: "Create Invoice",
    banner: "Plese enter all the required fields to continue...",
    customer: "Customer Company",
    number: "Invoice Number",
    due: "Due Date",
    notes: "Notes",
    addLine: "Add line item",
    name: "Name",
    desc: "Description",
    qty: "Quantity",
    msrp: "MSRP",
    discount: "Discount %",
    pricePer: "Price Per",
    created: "Invoice created successfully",
    past: "The due date cannot be in the past",
    open: "Open",
  },
  es: {
    portal: "Portal de facturación",
    create: "Crear factura de cliente",
    submit: "Crear factura",
    banner: "Introduzca todos los campos obligatorios para continuar...",
    customer: "Empresa cliente",
    number: "Número de factura",
    due: "Fecha de vencimiento",
    notes: "Notas",
    addLine: "Añadir línea",
    name: "Nombre",
    desc: "Descripción",
    qty: "Cantidad",
    msrp: "PVP",
    discount: "Descuento %",
    pricePer: "Precio unitario",
    created: "Factura creada correctamente",
    past: "La fecha de vencimiento no puede ser pasada",
    open: "Pendiente",
  },
} as const;

async function openPortalFromMenu(page: Page, label: string) {
  await page.goto("/");
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: label }).click();
  await expect(page).toHaveURL(/\/billingPortal$/);
  await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
}

for (const lang of ["en", "es"] as const) {
  test(`RSL1 bills ACME with totals that match the reference, and ACME's admin sees the invoice (${lang})`, async ({ page, loginAs }) => {
    const t = L[lang];
    const ref = reference(LINES);
    const number = `E2E-${lang}-${unique()}`;
    const due = dueDay();

    await loginAs("var", lang);
    await openPortalFromMenu(page, t.portal);
    await expect(page.locator("tbody tr", { hasText: "INV-2026-001" })).toContainText("$2,400.00");
    await page.getByRole("link", { name: t.create }).click();
    await expect(page).toHaveURL(/\/createCustomerInvoice$/);

    // Nothing filled: the spec's banner and each field's message; nothing saved.
    await page.getByTestId("line-0").getByLabel(t.qty).fill("");
    await page.getByRole("button", { name: t.submit }).click();
    await expect(page.getByText(t.banner)).toBeVisible();
    await expect(page).toHaveURL(/\/createCustomerInvoice$/);

    await page.getByLabel(t.customer).selectOption({ label: "Acme Corporation (ACME)" });
    await page.getByLabel(t.number).fill(number);
    await page.getByLabel(t.notes).fill("Boards for the new wing");
    for (const [i, l] of LINES.entries()) {
      if (i > 0) await page.getByRole("button", { name: t.addLine }).click();
      const line = page.getByTestId(`line-${i}`);
      await line.getByLabel(t.name).fill(l.name);
      await line.getByLabel(t.desc).fill(l.desc);
      await line.getByLabel(t.qty).fill(String(l.qty));
      await line.getByLabel(t.msrp).fill(l.msrp);
      if (l.discount !== undefined) await line.getByLabel(t.discount).fill(l.discount);
      if (l.pricePer !== undefined) await line.getByLabel(t.pricePer).fill(l.pricePer);
      await expect(page.getByTestId(`line-total-${i}`)).toHaveText(ref.lines[i]);
    }
    // The derived fields: price per from the discount, the discount from the price per.
    await expect(page.getByTestId("line-0").getByLabel(t.pricePer)).toHaveValue("170.00");
    await expect(page.getByTestId("line-1").getByLabel(t.discount)).toHaveValue("33.33");
    await expect(page.getByTestId("line-2").getByLabel(t.pricePer)).toHaveValue("0.04");
    await expect(page.getByTestId("invoice-total")).toHaveText(ref.total);

    // A due date in the past is refused; a future one is taken.
    await page.getByLabel(t.due).fill(isoDay(runNow() - 2 * 24 * 3600_000));
    await page.getByRole("button", { name: t.submit }).click();
    await expect(page.getByText(t.past)).toBeVisible();
    await page.getByLabel(t.due).fill(due);
    await page.getByRole("button", { name: t.submit }).click();

    await expect(page).toHaveURL(/\/billingPortal$/);
    await expect(page.getByText(t.created, { exact: true })).toBeVisible();
    const row = page.locator("tbody tr", { hasText: number });
    await expect(row).toContainText("Acme Corporation");
    await expect(row).toContainText(ref.total);
    await expect(row).toContainText(shownDay(due, lang));
    await row.getByRole("link", { name: number, exact: true }).click();
    await expect(page).toHaveURL(/\/invoiceDetails\?id=\d+$/);
    await expect(page.getByTestId("invoice-total")).toHaveText(ref.total);

    // The customer's admin sees the same invoice, read-only, with no link to bill anyone.
    await loginAs("acme", lang);
    await openPortalFromMenu(page, t.portal);
    const seen = page.locator("tbody tr", { hasText: number });
    await expect(seen).toContainText(ref.total);
    await expect(seen).toContainText(t.open);
    await expect(page.getByRole("link", { name: t.create })).toHaveCount(0);
    await seen.getByRole("link", { name: number, exact: true }).click();
    await expect(page.getByTestId("invoice-total")).toHaveText(ref.total);
    await expect(page.getByText(shownDay(due, lang))).toBeVisible();
    for (const l of LINES) await expect(page.locator("tbody tr", { hasText: l.name })).toContainText(l.desc);
    await expect(page.getByRole("link", { name: t.create })).toHaveCount(0);
  });
}

test("an invoice prints without the shell; another company's invoice is not found", async ({ page, loginAs }) => {
  await loginAs("acme");
  await page.goto("/invoiceDetails?id=2");
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("user-menu")).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByTestId("invoice-total")).toHaveText("$510.00");
  await page.emulateMedia({ media: "screen" });
  // Invoice 3 is ROOT's to RSL1.
  const res = await page.goto("/invoiceDetails?id=3");
  expect(res?.status()).toBe(404);
  await page.goto("/invoiceDetails");
  await expect(page).toHaveURL(/\/billingPortal$/);
});

test("root opens a company's invoices from the company list", async ({ page, loginAs }) => {
  await loginAs("root");
  await page.goto("/company?q=Acme");
  await page.getByRole("link", { name: "Invoices of Acme Corporation" }).click();
  await expect(page).toHaveURL(/\/companyRelatedInvoices\?company_id=3$/);
  await expect(page.getByRole("heading", { name: "Company Invoices" })).toBeVisible();
  await page.locator("tbody tr", { hasText: "INV-2026-002" }).getByRole("link", { name: "INV-2026-002", exact: true }).click();
  await expect(page).toHaveURL(/\/companyRelatedInvoiceDetail\?id=2&company_id=3$/);
  await expect(page.getByTestId("invoice-total")).toHaveText("$510.00");
  await page.getByRole("link", { name: "Company Invoices" }).click();
  await expect(page).toHaveURL(/\/companyRelatedInvoices\?company_id=3$/);
  // Without a stored invoice the detail goes back to the company's invoices; without a company, to /company.
  await page.goto("/companyRelatedInvoiceDetail?company_id=3");
  await expect(page).toHaveURL(/\/companyRelatedInvoices\?company_id=3$/);
  await page.goto("/companyRelatedInvoices");
  await expect(page).toHaveURL(/\/company$/);
});

test("a company's invoices page by 25", async ({ page, loginAs }) => {
  // ROOT bills BETA (its own child, which no other spec bills) 26 times.
  const root = await adminApi(page.request, "root");
  const tag = unique();
  const due = isoDay(runNow() + 30 * 24 * 3600_000);
  for (let i = 0; i < 26; i++)
    await root.call("POST", "/company/addInvoice", {
      companyId: 4,
      customerId: 4,
      invoiceNum: `PG-${tag}-${i}`,
      dueDate: due,
      notes: "Paging",
      lineItems: [{ name: "Board", desc: "AB-100", qty: 1, price: "10.00", price_per: "10.00" }],
    });
  await loginAs("root");
  await page.goto("/companyRelatedInvoices?company_id=4");
  await expect(page.locator("tbody tr")).toHaveCount(25);
  await page.goto("/companyRelatedInvoices?company_id=4&page=2");
  await expect(page.locator("tbody tr").first()).toContainText("PG-");
});

test("RSL1 re-bills a saved invoice's lines: quantity and MSRP stay, the price is RSL1's", async ({ page, loginAs }) => {
  await loginAs("var");
  await page.goto("/invoiceDetails?id=2");
  await page.getByRole("link", { name: "Create Customer Invoice" }).click();
  await expect(page).toHaveURL(/\/createCustomerInvoice\?from=2$/);
  await expect(page.getByLabel("Customer Company")).toHaveValue("3");
  const line = page.getByTestId("line-0");
  await expect(line.getByLabel("Quantity")).toHaveValue("3");
  await expect(line.getByLabel("Quantity")).toHaveAttribute("readonly", "");
  await expect(line.getByLabel("MSRP")).toHaveAttribute("readonly", "");
  await line.getByLabel("Price Per").fill("180.00");
  await expect(line.getByLabel("Discount %")).toHaveValue("10.00");
  await expect(page.getByTestId("invoice-total")).toHaveText("$540.00");
  const number = `RE-${unique()}`;
  await page.getByLabel("Invoice Number").fill(number);
  await page.getByLabel("Due Date").fill(isoDay(runNow() + 30 * 24 * 3600_000));
  await page.getByRole("button", { name: "Create Invoice" }).click();
  await expect(page).toHaveURL(/\/billingPortal$/);
  await expect(page.locator("tbody tr", { hasText: number })).toContainText("$540.00");
});

for (const lang of ["en", "es"] as const) {
  test(`a new invoice offers the next free number and starts new lines at the customer's tier (${lang})`, async ({ page, loginAs }) => {
    const t = L[lang];
    await loginAs("root", lang);
    await page.goto(`/billingPortal?lng=${lang}`);
    const taken = await page.locator("tbody tr td").allTextContents();
    await page.goto(`/createCustomerInvoice?lng=${lang}`);
    const offered = await page.getByLabel(t.number).inputValue();
    expect(offered).toMatch(/^INV-\d{4}-\d{3}$/);
    expect(taken.some((cell) => cell.includes(offered))).toBe(false);

    // Northwind's tier is 15 %: the line starts there; a discount typed by hand is kept when the customer changes.
    await page.getByLabel(t.customer).selectOption({ label: "Northwind Resellers (RSL1)" });
    await expect(page.getByTestId("line-0").getByLabel(t.discount)).toHaveValue("15.00");
    await page.getByRole("button", { name: t.addLine }).click();
    await expect(page.getByTestId("line-1").getByLabel(t.discount)).toHaveValue("15.00");
    await page.getByTestId("line-1").getByLabel(t.discount).fill("20");
    await page.getByLabel(t.customer).selectOption({ index: 0 });
    await expect(page.getByTestId("line-0").getByLabel(t.discount)).toHaveValue("0");
    await expect(page.getByTestId("line-1").getByLabel(t.discount)).toHaveValue("20");
  });
}
