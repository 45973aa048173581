import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { axeFindings } from "./axe";
import { adminApi, clockTag, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, mailbox, runNow, test, unique } from "./fixtures";

// The home dashboard and the devices list's live status (decision 0033). The data is made the way
// real data arrives: the gateway posts board presence, battery, door and denial events for devices
// the admin API lists. Every number must open a list showing the same count.

async function gatewayEvents(request: APIRequestContext, events: object[]) {
  const res = await request.post("/api/gateway/events", { headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` }, data: { v: 1, gatewayId: "gw-e2e", events } });
  expect(res.status()).toBe(200);
  expect((await res.json()).rejected ?? []).toEqual([]);
}

/** Two of ACME's devices, found through the admin API; one goes online, the other offline. */
async function makeData(request: APIRequestContext) {
  const api = await adminApi(request);
  const options = await api.call<{ payload: { devices: { id: number; name: string }[] } }>("GET", "/user/getActivityOptions");
  const [up, down] = options.payload.devices;
  const now = runNow();
  const id = (device: number) => `${device}/gw/e2e.${unique()}`;
  await gatewayEvents(request, [
    { id: id(up.id), deviceId: String(up.id), type: "board.presence", at: now - 5000, gatewayId: "gw-e2e", data: { online: true } },
    { id: id(down.id), deviceId: String(down.id), type: "board.presence", at: now - 4000, gatewayId: "gw-e2e", data: { online: false } },
    { id: id(up.id), deviceId: String(up.id), type: "battery", at: now - 3000, data: { percent: 4 } },
    { id: id(up.id), deviceId: String(up.id), type: "sensor.contact", at: now - 2000, data: { input: 1, state: "open" } },
    {
      id: id(up.id),
      deviceId: String(up.id),
      type: "access.denied",
      at: now - 1000,
      data: { credential: { type: "fob", id: `fob-${unique()}` }, code: "no_key", reason: "No key for this door" },
    },
  ]);
  return { up, down };
}

/** The total a list's pager shows ("1–25 of 40" / "1–25 de 40"). */
async function listTotal(page: Page): Promise<number> {
  const pager = page.getByText(/\d+–\d+ (of|de) \d+/).first();
  await expect(pager).toBeVisible();
  return Number((await pager.textContent())!.match(/(?:of|de) (\d+)/)![1]);
}

const STATS = ["users", "online", "offline", "scheduledOpen", "lowBattery", "denied", "firmwarePending"] as const;

const text = {
  en: {
    heading: "At a glance",
    online: "Online",
    battery: "Battery",
    firmware: "Firmware",
    door: "Door",
    last: "Last activity",
    connection: "Connection",
    open: "Open",
    low: "Low",
  },
  es: {
    heading: "De un vistazo",
    online: "Conexión",
    battery: "Batería",
    firmware: "Firmware",
    door: "Puerta",
    last: "Última actividad",
    connection: "Conexión",
    open: "Abierta",
    low: "Baja",
  },
};

for (const { lang, width } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`dashboard numbers match their filtered lists (${lang}, ${width} px)`, { tag: clockTag(lang) }, async ({ page, request, loginAs }) => {
    await page.setViewportSize({ width, height: 900 });
    await loginAs("acme", lang);
    await page.goto("/");
    const value = async (key: string) => Number(await page.getByTestId(`stat-${key}-value`).textContent());
    const deniedBefore = await value("denied");
    const { up, down } = await makeData(request);
    await page.reload();
    await expect(page.getByRole("heading", { level: 2, name: text[lang].heading })).toBeVisible();
    expect(await value("denied")).toBe(deniedBefore + 1);
    expect(await value("online")).toBeGreaterThanOrEqual(1);
    expect(await value("offline")).toBeGreaterThanOrEqual(1);
    expect(await value("lowBattery")).toBeGreaterThanOrEqual(1);
    // The tiles stay below the numbers.
    await expect(page.getByTestId("tile-devices")).toBeVisible();
    if (width === 1440) await keepScreenshot(page, `dashboard-${lang}`, { fullPage: true });

    for (const key of STATS) {
      const n = await value(key);
      const link = page.getByTestId(`stat-${key}`);
      const href = (await link.getAttribute("href"))!;
      await link.click();
      await expect(page).toHaveURL((url) => url.pathname + url.search === href);
      expect(await listTotal(page), `${key} → ${href}`).toBe(n);
      if (key === "online") await expect(page.getByRole("row").filter({ hasText: up.name })).toBeVisible();
      if (key === "offline") await expect(page.getByRole("row").filter({ hasText: down.name })).toBeVisible();
      if (key === "lowBattery") await expect(page.getByRole("row").filter({ hasText: up.name })).toBeVisible();
      await page.goto("/");
    }
  });
}

for (const lang of ["en", "es"] as const) {
  test(`devices list: live status columns and a filter (${lang})`, async ({ page, request, loginAs }) => {
    const { up } = await makeData(request);
    await loginAs("acme", lang);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/devices");
    const table = page.getByRole("table");
    const t = text[lang];
    for (const name of [t.last, t.online, t.battery, t.firmware, t.door]) await expect(table.getByRole("columnheader", { name })).toBeVisible();
    await page.getByLabel(t.connection).selectOption("1");
    await expect(page).toHaveURL(/online=1/);
    const row = page.getByRole("row").filter({ hasText: up.name });
    await expect(row).toBeVisible();
    // Online since, in the company's zone (Europe/Madrid), labelled.
    await expect(row).toContainText(/\d{2}:\d{2}:\d{2} (CET|CEST)/);
    await expect(row).toContainText(t.open);
    await expect(row).toContainText(t.low);
    await keepScreenshot(page, `devices-${lang}`, { fullPage: true });
    // Sorted by door on the server, the filter kept in the URL. The browser's URL can change before React
    // renders the filtered page (a transition), so wait until the sort link carries the filter.
    const byDoor = table.getByRole("link", { name: t.door });
    await expect(byDoor).toHaveAttribute("href", /online=1/);
    await byDoor.click();
    await expect(page).toHaveURL(/online=1.*sort=door|sort=door.*online=1/);
    await page.setViewportSize({ width: 390, height: 900 });
    await expect(page.getByRole("row").filter({ hasText: up.name })).toBeVisible();
  });
}

// Homes per role (decision 0056). axe on each home, label-content-name-mismatch included (the numbers'
// names are what they show).
const A11Y_RULES = { allImpacts: true, rules: ["label-content-name-mismatch"] } as const;
async function noAxeFindings(page: Page) {
  expect(await axeFindings(page)).toEqual([]);
  expect(await axeFindings(page, A11Y_RULES)).toEqual([]);
}

const homes = {
  en: {
    checklist: "Getting started",
    business: "Your business",
    platform: "Platform",
    people: "Add people",
    health: "Customers' doors",
    rootBilling: "The platform itself is never billed.",
  },
  es: {
    checklist: "Primeros pasos",
    business: "Su negocio",
    platform: "Plataforma",
    people: "Añadir personas",
    health: "Puertas de sus clientes",
    rootBilling: "La plataforma nunca recibe facturas.",
  },
};

/** A customer company as a reseller's request leaves it once root accepts it, and its admin's password, set through a reset link. */
async function newCompanyAdmin(request: APIRequestContext) {
  const tag = unique();
  const email = `first.hour.${tag}@example.com`;
  const reseller = await adminApi(request, "var");
  const asked = await reseller.call<{ payload: { id: number } }>("POST", "/company/createCompanyRequest", {
    companyName: `First Hour ${tag}`,
    companyType: "ec",
    renewalTerm: 1,
    POCFirstName: "Grace",
    POCLastName: "Hopper",
    POCEmail: email,
    POCCountryCode: "001",
    POCPhoneNumber: "555-010-2030",
  });
  const root = await adminApi(request, "root");
  const made = await root.call<{ payload: { company_id: string } }>("GET", `/company/acceptCompanyRequest?requestId=${asked.payload.id}`);
  const companyId = made.payload.company_id;
  expect((await request.post("/api/admin/user/webForgotPassword", { data: { companyId, userName: email } })).status()).toBe(200);
  const resets = async () => (await mailbox()).filter((m) => m.to.includes(email) && m.subject === "Reset your password");
  await expect.poll(async () => (await resets()).length, { timeout: 30_000 }).toBe(1);
  const uid = (await resets())[0].text.match(/\/resetPassword\/([A-Za-z0-9_-]+)/)![1];
  const password = `Hour#${tag}9A`;
  expect((await request.post("/api/admin/user/webReSetPassword", { data: { uid, password, confirmPassword: password } })).status()).toBe(200);
  return { companyId, userName: email, password };
}

for (const { lang, width } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`a new company's home shows the first-run checklist, each step linking to its screen (${lang}, ${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const admin = await newCompanyAdmin(request);
    await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/" }, maxRedirects: 0 });
    expect((await page.request.post("/login", { form: { ...admin, intent: "login" }, maxRedirects: 0 })).status()).toBe(302);
    await page.goto("/");
    const list = page.getByTestId("first-run-checklist");
    await expect(list.getByRole("heading", { level: 2, name: homes[lang].checklist })).toBeVisible();
    // Nothing done yet but what company creation may have set (its zone).
    for (const step of ["door", "people", "app", "test"]) await expect(list.getByTestId(`step-${step}`)).toHaveAttribute("data-done", "false");
    const links = { zone: "/companySettings", door: "/devices", people: "/addUser", app: "/users", test: "/activity" };
    for (const [step, href] of Object.entries(links)) await expect(list.getByTestId(`step-${step}`).getByRole("link")).toHaveAttribute("href", href);
    await noAxeFindings(page);
    if (width === 1440) await keepScreenshot(page, `home-checklist-${lang}`, { fullPage: true });
    await list.getByRole("link", { name: homes[lang].people }).click();
    await expect(page).toHaveURL(/\/addUser$/);
  });

  test(`a company whose first hour is done has no checklist (${lang}, ${width} px)`, async ({ page, loginAs }) => {
    await page.setViewportSize({ width, height: 900 });
    await loginAs("acme", lang);
    await page.goto("/");
    await expect(page.getByTestId("stat-users")).toBeVisible();
    await expect(page.getByTestId("first-run-checklist")).toHaveCount(0);
    await noAxeFindings(page);
  });

  test(`a reseller's home: stock, customers' health, requests, invoices; stock is never offline (${lang}, ${width} px)`, async ({ page, loginAs }) => {
    await page.setViewportSize({ width, height: 900 });
    await loginAs("var", lang);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 2, name: homes[lang].business })).toBeVisible();
    await expect(page.getByTestId("child-health").getByRole("heading", { name: homes[lang].health })).toBeVisible();
    await expect(page.getByTestId("child-ACME")).toBeVisible();
    await expect(page.getByTestId("request-states")).toBeVisible();
    // The VAR panel, the stock and billing are areas of their own, not only user-menu entries.
    for (const key of ["varPanel", "deviceStock", "billingPortal"]) await expect(page.getByTestId(`tile-${key}`)).toBeVisible();
    await noAxeFindings(page);
    if (width === 1440) await keepScreenshot(page, `home-reseller-${lang}`, { fullPage: true });
    const value = async (key: string) => Number(await page.getByTestId(`stat-${key}-value`).textContent());
    // The boxed boards are stock, not never-seen, offline or low-battery devices: each number is its list's.
    for (const [key, href] of [
      ["stock", "/viewDeviceStock"],
      ["offline", "/devices?online=0"],
      ["lowBattery", "/devices?battery=low"],
    ] as const) {
      const n = await value(key);
      if (key === "stock") expect(n).toBeGreaterThan(0);
      await page.goto(href);
      expect(await listTotal(page), `${key} → ${href}`).toBe(n);
      await page.goto("/");
    }
    await expect(page.getByTestId("stat-neverSeen")).toHaveCount(0);
  });

  test(`root's home: requests waiting, companies, boards, firmware and recent activity; no request to itself (${lang}, ${width} px)`, async ({ page, loginAs }) => {
    await page.setViewportSize({ width, height: 900 });
    await loginAs("root", lang);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 2, name: homes[lang].platform, exact: true })).toBeVisible();
    for (const key of ["pendingRequests", "resellers", "customers", "registered", "stock", "releases"]) await expect(page.getByTestId(`stat-${key}-value`)).toHaveText(/^\d+$/);
    for (const id of ["pending-requests", "recent-activity", "firmware"]) await expect(page.getByTestId(id)).toBeVisible();
    await noAxeFindings(page);
    if (width === 1440) await keepScreenshot(page, `home-root-${lang}`, { fullPage: true });
    // Root's billing portal says what root sees; its VAR panel offers no company request, which is refused anyway.
    await page.goto("/billingPortal");
    await expect(page.getByText(homes[lang].rootBilling)).toBeVisible();
    await page.goto("/varPanel");
    await expect(page.locator('a[href="/newCompanyRequest"]')).toHaveCount(0);
    expect((await page.goto("/newCompanyRequest"))?.status()).toBe(403);
  });
}
