import type { Page } from "@playwright/test";
import { adminApi, expect, LANGUAGE_AND_WIDTH_RUNS, runNow, signIn, test, unique } from "./fixtures";
import { axeFindings } from "./axe";
import { isoDay } from "../../db/seed/clock";

/*
 * The reseller's panel, stock and transfer screens (spec part 2 §2 Reseller screens, §4 Transfer,
 * §5 Transfer, §9 page sizes; decision 0022). Boards and a reseller child company are arranged
 * through the admin API, so the seed's own rows stay as other specs expect them.
 */
const TEXT = {
  en: {
    panel: "VAR Panel",
    stockLink: "View Device Stock",
    requestLink: "New Company Request",
    selected: (n: number) => `${n} selected`,
    select: (serial: string) => `Select ${serial}`,
    arrow: (n: number, name: string) => `Transfer ${n} selected device${n === 1 ? "" : "s"} to ${name}`,
    sendAsStock: "Send as stock",
    shippingDate: "Shipping Date",
    term: "Subscription Term",
    transfer: "Transfer",
    cancel: "Cancel",
    shippingRequired: "Required Shipping Date",
    termRequired: "Required Subscription Term",
    past: "The shipping date cannot be in the past",
    transferred: "Stock transferred successfully",
    stock: "Stock",
    stockTitle: "Device Stock",
    terms: ["Choose…", "1-Year", "2-Year", "3-Year"],
    transferBoards: "Transfer boards",
    transferBoardsTo: (name: string) => `Transfer boards to ${name}`,
    customer: "Customer",
    next: "Next",
    transferTitle: "Device Transfer",
  },
  es: {
    panel: "Panel VAR",
    stockLink: "Ver inventario de dispositivos",
    requestLink: "Nueva solicitud de empresa",
    selected: (n: number) => `${n} seleccionados`,
    select: (serial: string) => `Seleccionar ${serial}`,
    arrow: (n: number, name: string) => (n === 1 ? `Transferir 1 dispositivo seleccionado a ${name}` : `Transferir ${n} dispositivos seleccionados a ${name}`),
    sendAsStock: "Enviar como inventario",
    shippingDate: "Fecha de envío",
    term: "Plazo de suscripción",
    transfer: "Transferir",
    cancel: "Cancelar",
    shippingRequired: "La fecha de envío es obligatoria",
    termRequired: "El plazo de suscripción es obligatorio",
    past: "La fecha de envío no puede estar en el pasado",
    transferred: "Inventario transferido correctamente",
    stock: "Inventario",
    stockTitle: "Inventario de dispositivos",
    terms: ["Elija…", "1 año(s)", "2 año(s)", "3 año(s)"],
    transferBoards: "Transferir placas",
    transferBoardsTo: (name: string) => `Transferir placas a ${name}`,
    customer: "Cliente",
    next: "Siguiente",
    transferTitle: "Transferencia de dispositivos",
  },
} as const;

/** Today where RSL1 runs (New York in the seed): the day a transfer's shipping date starts at. */
const rsl1Today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(runNow());
const CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUWXYZ0123456789";
const randomCode = () => Array.from({ length: 4 }, () => CODE_CHARS[Math.floor(Math.random() * CODE_CHARS.length)]).join("");

/** Root registers `n` new boards into RSL1's stock; returns their front serials (what the grids show). */
async function registerIntoRsl1(page: Page, n: number): Promise<string[]> {
  const root = await adminApi(page.request, "root");
  const tag = unique().toUpperCase();
  const devices = Array.from({ length: n }, (_, i) => ({ serialFront: `RS-${tag}-F${i}`, serialBack: `RS-${tag}-B${i}`, deviceType: "AB-100" }));
  const r = await root.call<{ payload: { registered: number } }>("POST", "/device/registerDevices", { companyId: "RSL1", devices });
  expect(r.payload.registered).toBe(n);
  return devices.map((d) => d.serialFront);
}

/** Root creates a var company under RSL1, a child that may take stock; returns its id and name. */
async function newResellerChild(page: Page): Promise<{ id: number; name: string }> {
  const root = await adminApi(page.request, "root");
  const name = `Sub Reseller ${unique()}`;
  const code = randomCode();
  await root.call("POST", "/company/addCompany", {
    companyName: name,
    companyType: "var",
    parentCompanyId: "RSL1",
    discountPercentage: 15,
    nextBillingDate: isoDay(runNow() + 365 * 86_400_000),
    POCFirstName: "Sam",
    POCLastName: "Sub",
    POCEmail: `sub.${unique()}@sub.example`,
    POCCountryCode: "001",
    POCPhoneNumber: "5550001111",
    companyId: code,
    isDeactive: "0",
    timeZone: "America/New_York",
  });
  const rsl1 = await adminApi(page.request, "var");
  const kids = await rsl1.call<{ payload: { id: number; company_id: string }[] }>("GET", "/company/getChildCompanyList");
  const id = kids.payload.find((k) => k.company_id === code)?.id;
  expect(id, "the new child company's id").toBeTruthy();
  return { id: id!, name };
}

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`RSL1's panel and stock lead to a transfer whose dialog starts over each time (${lang}, ${width} px)`, async ({ page }) => {
    test.setTimeout(90_000);
    const tx = TEXT[lang];
    await page.setViewportSize({ width, height });
    const [serial] = await registerIntoRsl1(page, 1);
    const sub = await newResellerChild(page);
    await signIn(page, "var", lang);

    // The panel: its child companies, each with its own "Transfer boards", links to the stock and to a new company request.
    await page.goto("/varPanel");
    await expect(page.getByRole("heading", { level: 1, name: tx.panel })).toBeVisible();
    await expect(page.getByRole("link", { name: tx.requestLink })).toHaveAttribute("href", "/newCompanyRequest");
    await expect(page.getByRole("link", { name: tx.transferBoardsTo("Acme Corporation") })).toHaveAttribute("href", "/deviceTransfer?company_id=3");
    await expect(page.getByRole("link", { name: tx.transferBoardsTo(sub.name) })).toHaveAttribute("href", `/deviceTransfer?company_id=${sub.id}`);
    await page.getByRole("link", { name: tx.stockLink }).click();
    await expect(page).toHaveURL(/\/viewDeviceStock$/);
    await expect(page.getByRole("heading", { level: 1, name: tx.stockTitle })).toBeVisible();
    await expect(page.getByText(/\(RSL1\)$/).first()).toBeVisible();

    // The stock page's "Transfer boards": choose the customer, then its transfer page.
    await page.getByRole("button", { name: tx.transferBoards, exact: true }).click();
    const choose = page.getByRole("dialog");
    await choose.getByLabel(tx.customer).selectOption({ label: "Acme Corporation (ACME)" });
    await choose.getByRole("button", { name: tx.next }).click();
    await expect(page).toHaveURL(/\/deviceTransfer\?company_id=3$/);
    await expect(page.getByRole("heading", { level: 1, name: tx.transferTitle })).toBeVisible();

    // An ec target (ACME): no "send as stock"; the shipping date starts at RSL1's today, the term is
    // required and the date not in the past.
    const arrow = (n: number, name: string) => page.getByRole("button", { name: tx.arrow(n, name) });
    await expect(arrow(0, "Acme Corporation")).toBeDisabled();
    await page.getByRole("checkbox", { name: tx.select(serial), exact: true }).click();
    await expect(page.getByText(tx.selected(1))).toBeVisible();
    await arrow(1, "Acme Corporation").click();
    let dialog = page.getByRole("dialog");
    await expect(dialog.getByLabel(tx.sendAsStock)).toHaveCount(0);
    await expect(dialog.getByLabel(tx.term).locator("option")).toHaveText([...tx.terms]);
    await expect(dialog.getByLabel(tx.shippingDate)).toHaveValue(rsl1Today());
    await dialog.getByLabel(tx.shippingDate).fill("");
    await dialog.getByRole("button", { name: tx.transfer, exact: true }).click();
    await expect(dialog.getByText(tx.shippingRequired)).toBeVisible();
    await expect(dialog.getByText(tx.termRequired)).toBeVisible();
    // Two days back is past in New York whatever the hour in UTC.
    await dialog.getByLabel(tx.shippingDate).fill(isoDay(runNow() - 2 * 86_400_000));
    await dialog.getByLabel(tx.term).selectOption("2");
    await dialog.getByRole("button", { name: tx.transfer, exact: true }).click();
    await expect(dialog.getByText(tx.past)).toBeVisible();
    // The open dialog, errors showing, has no serious or critical accessibility violation.
    const serious = await axeFindings(page, { include: "[role=dialog]" });
    expect(serious, serious.join("\n")).toEqual([]);
    // Closing and opening again: the dialog starts over (today, no term), without the earlier errors.
    await dialog.getByRole("button", { name: tx.cancel }).click();
    await expect(dialog).toBeHidden();
    await arrow(1, "Acme Corporation").click();
    dialog = page.getByRole("dialog");
    await expect(dialog.getByLabel(tx.shippingDate)).toHaveValue(rsl1Today());
    await expect(dialog.getByLabel(tx.term)).toHaveValue("");
    await expect(dialog.getByText(tx.past)).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // A reseller target may take the board as stock: the box shows, and ticking it drops date and term.
    await page.goto(`/deviceTransfer?company_id=${sub.id}`);
    await page.getByRole("checkbox", { name: tx.select(serial), exact: true }).click();
    await arrow(1, sub.name).click();
    dialog = page.getByRole("dialog");
    await dialog.getByLabel(tx.sendAsStock).click();
    await expect(dialog.getByLabel(tx.shippingDate)).toHaveCount(0);
    await expect(dialog.getByLabel(tx.term)).toHaveCount(0);
    await dialog.getByRole("button", { name: tx.transfer, exact: true }).click();

    // Success: the message, an empty selection, and both lists reloaded.
    await expect(page.getByText(tx.transferred, { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(tx.selected(0))).toBeVisible();
    await expect(arrow(0, sub.name)).toBeDisabled();
    await expect(page.getByRole("checkbox", { name: tx.select(serial), exact: true })).toHaveCount(0);
    const target = page.getByRole("table", { name: new RegExp(sub.name) });
    await expect(target.getByRole("row", { name: new RegExp(serial) })).toContainText(tx.stock);
  });
}

test("stock pages by 25, the transfer grids by 50 on each side", async ({ page }) => {
  test.setTimeout(90_000);
  const serials = await registerIntoRsl1(page, 60);
  const sub = await newResellerChild(page);
  await signIn(page, "var");

  await page.goto("/viewDeviceStock");
  await expect(page.locator("tbody tr")).toHaveCount(25);
  await page.goto("/viewDeviceStock?page=2");
  await expect(page.locator("tbody tr")).toHaveCount(25);

  await page.goto(`/deviceTransfer?company_id=${sub.id}`);
  const stock = page.getByRole("table", { name: "Your stock" });
  await expect(stock.locator("tbody tr")).toHaveCount(50);
  await page.getByRole("checkbox", { name: "Select every device on this page" }).click();
  await expect(page.getByText("50 selected")).toBeVisible();
  await expect(page.getByRole("button", { name: `Transfer 50 selected devices to ${sub.name}` })).toBeEnabled();

  // The child takes the 60 new boards as stock (through the API): its grid pages by 50 too.
  const rsl1 = await adminApi(page.request, "var");
  const all = await rsl1.call<{ payload: { companyStock: { id: number; serial_front: string }[] } }>("GET", "/company/getCompanyStock");
  const mine = all.payload.companyStock.filter((d) => serials.includes(d.serial_front));
  expect(mine).toHaveLength(60);
  await rsl1.call("POST", "/company/transferDevices", { toCompany: sub.id, transferDevices: mine.map((d) => d.id), status: "stock" });
  await page.goto(`/deviceTransfer?company_id=${sub.id}`);
  await expect(page.getByRole("table", { name: `Devices of ${sub.name}` }).locator("tbody tr")).toHaveCount(50);
  await page.goto(`/deviceTransfer?company_id=${sub.id}&targetPage=2`);
  await expect(page.getByRole("table", { name: `Devices of ${sub.name}` }).locator("tbody tr")).toHaveCount(10);
});
