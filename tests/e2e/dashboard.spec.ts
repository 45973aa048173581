import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { adminApi, clockTag, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, runNow, test, unique } from "./fixtures";

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
    // Sorted by door on the server, the filter kept in the URL.
    await table.getByRole("link", { name: t.door }).click();
    await expect(page).toHaveURL(/online=1.*sort=door|sort=door.*online=1/);
    await page.setViewportSize({ width: 390, height: 900 });
    await expect(page.getByRole("row").filter({ hasText: up.name })).toBeVisible();
  });
}
