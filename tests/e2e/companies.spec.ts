import { isoDay } from "../../db/seed/clock";
import { expect, LANGUAGE_AND_WIDTH_RUNS, seedNow, signIn, test } from "./fixtures";

const unique = () => Math.random().toString(36).slice(2, 8);

test.describe("companies (English)", () => {
  test("root creates a company with a generated code, then finds and modifies it", async ({ page, loginAs }) => {
    await loginAs("root");
    await page.goto("/");
    await page.getByTestId("tile-company").click();
    await expect(page).toHaveURL(/\/company$/);
    await expect(page.getByRole("heading", { name: "Companies" })).toBeVisible();
    const acme = page.locator("tbody tr", { hasText: "Acme Corporation" });
    await expect(acme).toContainText("ACME");
    await expect(acme).toContainText("+1 555-000-0003");
    // Other specs add boards to ACME: the list shows as many as the count it was opened from.
    const devices = acme.getByRole("link", { name: "Devices of Acme Corporation" });
    const count = Number((await devices.innerText()).trim());
    expect(count).toBeGreaterThanOrEqual(12);
    await devices.click();
    await expect(page).toHaveURL(/\/companyRelatedDevices\?company_id=3$/);
    await expect(page.getByRole("heading", { name: "Company Devices" })).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(Math.min(count, 25));
    await page.getByRole("link", { name: "Back to companies" }).click();

    await page.getByRole("link", { name: "Add Company" }).click();
    await expect(page.getByRole("heading", { name: "Create a Company" })).toBeVisible();
    const code = page.getByLabel("Company ID");
    await expect(code).toHaveAttribute("readonly", "");
    const first = await code.inputValue();
    expect(first).toMatch(/^[A-UW-Z0-9]{4}$/);
    await page.getByTestId("generate-code").click();
    await expect(code).not.toHaveValue(first);

    // Empty save: the spec's messages, checked in the browser.
    await page.getByRole("button", { name: "Create Company" }).click();
    await expect(page.getByText("Required company type")).toBeVisible();
    await expect(page.getByText("Required company name")).toBeVisible();
    await expect(page.getByText("Required telephone")).toBeVisible();

    // The type decides the parents offered and the default discount.
    await page.getByLabel("Company Type").selectOption("oem");
    await expect(page.getByLabel("Discount Percentage")).toHaveValue("15");
    await expect(page.getByLabel("Parent Company").locator("option")).toHaveText(["Choose…", "Platform Root (ROOT) - ROOT"]);
    await page.getByLabel("Company Type").selectOption("ec");
    await expect(page.getByLabel("Discount Percentage")).toHaveValue("0");
    await page.getByLabel("Parent Company").selectOption("RSL1");

    const id = unique();
    const name = `Delta ${id}`;
    await page.getByLabel("Company Name").fill(name);
    await page.getByLabel("First Name").fill("Dora");
    await page.getByLabel("Last Name").fill("Delta");
    await page.getByLabel("Email").fill(`dora.${id}@delta.example`);
    await page.getByLabel("Telephone").fill("5554443322");
    await expect(page.getByLabel("Telephone")).toHaveValue("555-444-3322");
    const generated = await code.inputValue();
    await page.getByRole("button", { name: "Create Company" }).click();

    await expect(page).toHaveURL(/\/company$/);
    await expect(page.getByText("Company created successfully", { exact: true })).toBeVisible();
    await page.getByPlaceholder("Name, company ID or email").fill(generated);
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.locator("tbody tr", { hasText: name });
    await expect(row).toContainText(generated);
    await expect(row).toContainText("+1 555-444-3322");

    await row.getByRole("link", { name: `Open ${name}` }).click();
    await expect(page.getByRole("heading", { name: "Modify a Company" })).toBeVisible();
    await expect(page.getByLabel("Company Type")).toBeDisabled();
    await expect(page.getByLabel("Parent Company")).toHaveValue("Northwind Resellers (RSL1) - VAR");
    await expect(page.getByLabel("Company ID")).toHaveValue(generated);
    await page.getByLabel("Company Name").fill(`${name} Renamed`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/company$/);
    await expect(page.getByText("Company modified successfully", { exact: true })).toBeVisible();

    // The platform's audit trail names who created it (decision 0071).
    await page.goto("/");
    await page.getByTestId("tile-audit").click();
    await expect(page).toHaveURL(/\/activity$/);
    await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
    const created = page.locator("tbody tr", { hasText: `${name} (${generated})` }).filter({ hasText: "Created Company" });
    await expect(created).toContainText("Admin, Root");
  });

  test("a company admin without the company module sees the shell and a clear message", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/company");
    await expect(page.getByTestId("error-403")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
    await expect(page.getByTestId("user-menu")).toBeVisible();
    await expect(page.getByTestId("nav-users")).toBeVisible();
  });
});

test("the contact phone's country suggests the new company's zone, country and language; the zone is required", async ({ page, loginAs }) => {
  await loginAs("root");
  await page.goto("/addCompany");
  const zone = page.getByLabel("Time zone");
  await expect(zone).toHaveValue("America/New_York");
  const phoneCountry = page.locator("#company-POCCountryCode");
  await phoneCountry.focus();
  await page.keyboard.type("Spain");
  await page.keyboard.press("Enter");
  await expect(zone).toHaveValue("Europe/Madrid");
  await expect(page.getByLabel("Users' default country")).toHaveValue("Spain (+34)");
  await expect(page.locator("#company-language")).toHaveValue("es");
  await zone.selectOption("");
  await page.getByRole("button", { name: "Create Company" }).click();
  await expect(page.getByText("Time zone is required")).toBeVisible();
});

test.describe("companies (Spanish)", () => {
  test("root creates a company with a generated code in Spanish", async ({ page, loginAs }) => {
    await loginAs("root", "es");
    await page.goto("/addCompany");
    await expect(page.getByRole("heading", { name: "Crear una empresa" })).toBeVisible();
    await page.getByRole("button", { name: "Crear empresa" }).click();
    await expect(page.getByText("Tipo de empresa obligatorio")).toBeVisible();

    await page.getByLabel("Tipo de empresa").selectOption("var");
    await expect(page.getByLabel("Porcentaje de descuento")).toHaveValue("15");
    await page.getByLabel("Empresa matriz").selectOption("ROOT");
    const id = unique();
    await page.getByLabel("Nombre de la empresa").fill(`Épsilon ${id}`);
    await page.getByRole("textbox", { name: "Nombre", exact: true }).fill("Elena");
    await page.getByLabel("Apellido").fill("Épsilon");
    await page.getByLabel("Correo").fill(`elena.${id}@epsilon.example`);
    await page.getByLabel("Teléfono").fill("555-111-2233");
    await page.getByRole("button", { name: "Generar" }).click();
    const code = await page.getByLabel("ID de empresa").inputValue();
    expect(code).toMatch(/^[A-UW-Z0-9]{4}$/);
    await page.getByRole("button", { name: "Crear empresa" }).click();
    await expect(page).toHaveURL(/\/company$/);
    await expect(page.getByText("Empresa creada correctamente", { exact: true })).toBeVisible();
    await page.getByPlaceholder("Nombre, ID de empresa o correo").fill(code);
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page.locator("tbody tr", { hasText: `Épsilon ${id}` })).toContainText(code);

    await page.goto("/");
    await page.getByTestId("tile-audit").click();
    await expect(page.getByRole("heading", { name: "Auditoría" })).toBeVisible();
    const created = page.locator("tbody tr", { hasText: `Épsilon ${id} (${code})` }).filter({ hasText: "Empresa creada" });
    await expect(created).toContainText("Admin, Root");
  });

  test("a company's invoices read their due date DD/MM/YYYY", async ({ page, loginAs }) => {
    // The seed's INV-2026-101, root's invoice to RSL1 (company 2), falls due 41 days after the seed instant.
    const due = isoDay(seedNow(), 41).split("-").reverse().join("/");
    await loginAs("root", "es");
    await page.goto("/companyRelatedInvoices?company_id=2");
    await expect(page.getByRole("heading", { level: 1, name: "Facturas de la empresa" })).toBeVisible();
    await expect(page.locator("tbody tr", { hasText: "INV-2026-101" })).toContainText(due);
    await page.getByRole("link", { name: "INV-2026-101", exact: true }).click();
    await expect(page.getByText(due, { exact: true })).toBeVisible();
  });

  test("a page the user may not open keeps the shell, in Spanish", async ({ page, loginAs }) => {
    await loginAs("acme", "es");
    await page.goto("/addCompany");
    await expect(page.getByTestId("error-403")).toBeVisible();
    await expect(page.getByText("No tiene permiso para abrir esta página.")).toBeVisible();
    await expect(page.getByTestId("user-menu")).toBeVisible();
  });
});

/* Gateway cells (decision 0065): the platform administrator's list, add with the MQTT URL checked, a
 * confirmation before changing the endpoint of a cell companies are in, and removing an empty cell. */
const CELL_TEXT = {
  en: {
    title: "Gateway cells",
    add: "Add Cell",
    name: "Name",
    url: "MQTT URL",
    save: "Save",
    badUrl: "The MQTT URL must be mqtt://host:port or mqtts://host:port",
    confirm: "Change the MQTT URL of cell main?",
    cancel: "Cancel",
    remove: "Remove cell",
    removeConfirm: "Remove",
  },
  es: {
    title: "Celdas de pasarelas",
    add: "Añadir celda",
    name: "Nombre",
    url: "URL MQTT",
    save: "Guardar",
    badUrl: "La URL MQTT debe ser mqtt://host:puerto o mqtts://host:puerto",
    confirm: "¿Cambiar la URL MQTT de la celda main?",
    cancel: "Cancelar",
    remove: "Eliminar la celda",
    removeConfirm: "Eliminar",
  },
} as const;

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`cells: add one with its MQTT URL checked, confirm before a used cell's endpoint changes, remove an empty one (${lang}, ${width} px)`, async ({ page }) => {
    const tx = CELL_TEXT[lang];
    const name = `c-${unique().toLowerCase()}`;
    await page.setViewportSize({ width, height });
    await signIn(page, "root", lang);
    await page.goto("/cells");
    await expect(page.getByRole("heading", { name: tx.title })).toBeVisible();
    await page.getByRole("link", { name: tx.add }).first().click();
    await page.getByLabel(tx.name).fill(name);
    await page.getByLabel(tx.url).fill("http://cells.example.net");
    await page.getByRole("button", { name: tx.add }).click();
    await expect(page.getByText(tx.badUrl)).toBeVisible();
    await page.getByLabel(tx.url).fill(`mqtts://${name}.example.net:8884`);
    await page.getByRole("button", { name: tx.add }).click();
    await expect(page).toHaveURL(/\/cells/);
    await expect(page.getByText(`mqtts://${name}.example.net:8884`)).toBeVisible();

    // main serves every company: a new endpoint is confirmed first; cancelled, nothing changes.
    await page.goto("/modifyCell?name=main");
    await page.getByLabel(tx.url).fill("mqtt://127.0.0.1:1999");
    await page.getByRole("button", { name: tx.save }).click();
    await expect(page.getByRole("alertdialog")).toContainText(tx.confirm);
    await page.getByRole("alertdialog").getByRole("button", { name: tx.cancel }).first().click();
    await page.goto("/cells");
    await expect(page.getByText("mqtt://127.0.0.1:1883")).toBeVisible();

    await page.getByRole("button", { name: `${tx.remove} ${name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: tx.removeConfirm }).click();
    await expect(page.getByText(`mqtts://${name}.example.net:8884`)).toHaveCount(0);
  });
}
