import type { APIRequestContext, Page } from "@playwright/test";
import { adminApi, type DemoLogin, expect, keepScreenshot, signIn, test, unique } from "./fixtures";
import { axeFindings } from "./axe";
import { sidewaysScroll } from "./sideways-scroll";

/**
 * Lists fit every screen (decision 0038). At 1024 px, with 50 rows, no list's table scrolls sideways
 * inside its box (scrollWidth ≤ clientWidth) and the page never does, in English and Spanish (every
 * screen at 1440 px in English and 390 px in Spanish: screens.spec.ts). On a phone
 * (390 × 664, Playwright's iPhone 12 viewport) the filters of /devices, /users and /activity fold behind
 * a "Filters" button, so the first row of the list is whole on the first screen, and filtering through
 * that button still works and stays in the URL; axe finds nothing serious with the filters open.
 */
const LISTS: readonly { who: DemoLogin; paths: readonly string[] }[] = [
  { who: "acme", paths: ["/users", "/devices", "/deviceGroups", "/activity", "/alerts", "/support", "/role", "/billingPortal"] },
  { who: "root", paths: ["/company", "/deviceType", "/ota", "/viewCompanyRequests", "/adminSupport"] },
  { who: "var", paths: ["/varPanel", "/viewCompanyRequests", "/billingPortal", "/viewDeviceStock"] },
];
const NARROW_DESKTOP = 1024;
const PHONE = { width: 390, height: 664 };

/** A user whose creation's log summary is "Name (address)", the address one 60-character word. */
async function addUserWithLongAddress(request: APIRequestContext) {
  const phone = `56${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 100)
    .toString()
    .padStart(2, "0")}`;
  await (
    await adminApi(request)
  ).call("POST", "/user/addUser", {
    firstName: "Lia",
    lastName: "Long",
    displayName: "Long, Lia",
    emailId: `lia.long.address.for.the.layout.check.${unique()}@acme.example`,
    countryCode: "1",
    phoneNumer: phone,
    sendInvite: "0",
  });
}

/** The first data row is entirely inside the first screen. */
async function expectFirstRowOnFirstScreen(page: Page, what: string) {
  // A list's rows, or the activity log's cards, which stand for its rows on a phone.
  const box = await page.locator("main table tbody tr:visible, main [data-testid=activity-card]:visible").first().boundingBox();
  expect(box, `${what}: a first row`).not.toBeNull();
  expect(box!.y, `${what}: first row's top`).toBeLessThan(PHONE.height);
  expect(box!.y + box!.height, `${what}: first row's bottom`).toBeLessThanOrEqual(PHONE.height);
}

/** The phone's filter button: closed at first, controlling a panel that is hidden until it opens. */
async function openFilters(page: Page, name: RegExp, field: string) {
  const toggle = page.getByRole("button", { name });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  const panel = page.locator(`[id="${await toggle.getAttribute("aria-controls")}"]`);
  await expect(page.getByLabel(field, { exact: true })).toBeHidden();
  // Keyboard: focus and Enter open it.
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(panel.getByLabel(field, { exact: true })).toBeVisible();
}

/** Every row's cell under `header` (a column found by its header text). */
async function columnTexts(page: Page, header: string): Promise<string[]> {
  const headers = (await page.locator("main table thead th").allTextContents()).map((h) => h.trim());
  const i = headers.indexOf(header);
  expect(i, `a column headed ${header} in ${headers.join(" | ")}`).toBeGreaterThanOrEqual(0);
  return (await page.locator(`main table tbody tr td:nth-child(${i + 1})`).allInnerTexts()).map((s) => s.trim());
}

const TEXT = {
  en: {
    filters: /^Filters(?: \(\d+\))?$/,
    one: "Filters (1)",
    filter: "Filter",
    battery: "Battery",
    good: "Good",
    flag: "Privilege",
    installer: "Installer",
    privileges: "Privileges",
    type: "Type",
    trigger: "Trigger",
    device: "Device",
    search: "Search",
  },
  es: {
    filters: /^Filtros(?: \(\d+\))?$/,
    one: "Filtros (1)",
    filter: "Filtrar",
    battery: "Batería",
    good: "Buena",
    flag: "Privilegio",
    installer: "Instalador",
    privileges: "Privilegios",
    type: "Tipo",
    trigger: "Origen",
    device: "Dispositivo",
    search: "Buscar",
  },
} as const;

for (const lang of ["en", "es"] as const) {
  const tx = TEXT[lang];

  for (const { who, paths } of LISTS) {
    test(`${who}'s lists fit 1024 px without sideways scrolling (${lang})`, async ({ page, request }) => {
      test.setTimeout(180_000);
      // A summary carrying a long address, on the log's first page: it must not widen the table.
      if (who === "acme") await addUserWithLongAddress(request);
      await signIn(page, who, lang);
      await page.setViewportSize({ width: NARROW_DESKTOP, height: 900 });
      const found: string[] = [];
      for (const path of paths) {
        await page.goto(`${path}?pageSize=50`);
        await expect(page.locator("main table").first()).toBeVisible();
        for (const s of await sidewaysScroll(page, { tables: true })) found.push(`${path}: ${s}`);
      }
      expect(found, found.join("\n")).toEqual([]);
    });
  }

  test(`users and device groups at 1024 px keep every value (${lang})`, async ({ page }) => {
    await signIn(page, "acme", lang);
    await page.setViewportSize({ width: NARROW_DESKTOP, height: 900 });
    await page.goto("/users?flag=installer&pageSize=50");
    // The privilege flags share one column below 1280 px: an installer's row says so.
    for (const cell of await columnTexts(page, tx.privileges)) expect(cell).toContain(tx.installer);
    await keepScreenshot(page, `users-list-1024-${lang}`, { fullPage: true });
    await page.goto("/deviceGroups?pageSize=50");
    await expect(page.locator("main table tbody tr").first()).toBeVisible();
    await keepScreenshot(page, `device-groups-list-1024-${lang}`, { fullPage: true });
  });

  test(`on a phone the filters fold behind a button and the list starts on the first screen (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, "acme", lang);
    await page.setViewportSize(PHONE);

    // Devices: a choice applies at once.
    await page.goto("/devices");
    await expectFirstRowOnFirstScreen(page, "/devices");
    expect(await sidewaysScroll(page, { tables: false })).toEqual([]);
    await keepScreenshot(page, `devices-phone-filters-closed-${lang}`);
    await openFilters(page, tx.filters, tx.battery);
    await keepScreenshot(page, `devices-phone-filters-open-${lang}`);
    const serious = await axeFindings(page);
    expect(serious, serious.join("\n")).toEqual([]);
    await page.getByLabel(tx.battery, { exact: true }).selectOption("ok");
    await expect(page).toHaveURL(/[?&]battery=ok/);
    await expect(page.getByRole("button", { name: tx.one })).toBeVisible();
    const battery = await columnTexts(page, tx.battery);
    expect(battery.length).toBeGreaterThan(0);
    for (const cell of battery) expect(cell).toBe(tx.good);

    // Users: the choices apply with the Search button.
    await page.goto("/users");
    await expectFirstRowOnFirstScreen(page, "/users");
    expect(await sidewaysScroll(page, { tables: false })).toEqual([]);
    await openFilters(page, tx.filters, tx.flag);
    await page.getByLabel(tx.flag, { exact: true }).selectOption("installer");
    await page.getByRole("button", { name: tx.search, exact: true }).click();
    await expect(page).toHaveURL(/[?&]flag=installer/);
    await expect(page.getByRole("button", { name: tx.one })).toBeVisible();
    const privileges = await columnTexts(page, tx.privileges);
    expect(privileges.length).toBeGreaterThan(0);
    for (const cell of privileges) expect(cell).toContain(tx.installer);

    // Activity: the choices apply with the Filter button (several pickers and dates make one search).
    await page.goto("/activity");
    await expectFirstRowOnFirstScreen(page, "/activity");
    expect(await sidewaysScroll(page, { tables: false })).toEqual([]);
    await openFilters(page, tx.filters, tx.type);
    await page.getByLabel(tx.type, { exact: true }).selectOption("Device");
    await page.getByRole("button", { name: tx.filter, exact: true }).click();
    await expect(page).toHaveURL(/[?&]filterOperationType=Device/);
    await expect(page.getByRole("button", { name: tx.one })).toBeVisible();
    // On a phone each entry is a card: its trigger is the value under that label.
    const triggers = (await page.getByTestId("activity-card").locator("dt", { hasText: tx.trigger }).locator("xpath=following-sibling::dd[1]").allInnerTexts()).map((x) =>
      x.trim(),
    );
    expect(triggers.length).toBeGreaterThan(0);
    for (const cell of triggers) expect(cell).toBe(tx.device);
    await keepScreenshot(page, `activity-phone-filtered-${lang}`);
  });
}
