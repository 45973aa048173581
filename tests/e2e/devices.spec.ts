import { demoDates, isoDay } from "../../db/seed/clock";
import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { adminApi, expect, LANGUAGE_AND_WIDTH_RUNS, runNow, seedNow, test, unique } from "./fixtures";

// Demo data: ACME has devices 1-12; 1 is scheduled open (Timer re-lock), 3 re-locks on door
// close, 7 has a low coin-cell battery; 13 belongs to BETA.
const SEED_DOORS = ["Main Entrance", "Loading Dock", "Server Room", "Lab A", "Lab B", "Warehouse", "Office 2F", "Roof Access", "Garage", "Mail Room", "Gym", "Archive"];

test.describe("devices", () => {
  test("grid: columns, sorting, details and activity links", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/devices");
    await expect(page.getByRole("heading", { level: 1, name: "Devices" })).toBeVisible();
    const table = page.getByRole("table", { name: "Devices of the company" });
    for (const name of ["Full name", "Serial number", "Date added", "Last activity"]) {
      await expect(table.getByRole("columnheader", { name })).toBeVisible();
    }
    // Below 1536 px the display name is the second line of the full name (decision 0038).
    await expect(table.getByRole("columnheader", { name: "Display name" })).toBeHidden();
    await expect(table.locator("tbody tr").filter({ hasText: "SN-100001" }).locator("td").nth(2)).toContainText("ME1");
    // Other specs may add devices to ACME: check the seed's
    // twelve by name and their order, not the row count or the first row.
    const rows = table.locator("tbody tr");
    const order = async (labels: string[]) => {
      const texts = await rows.allTextContents();
      return labels.map((l) => texts.findIndex((t) => t.includes(l)));
    };
    await expect(table).toContainText("Archive");
    const seedRows = await order([...SEED_DOORS].sort((a, b) => a.localeCompare(b)));
    expect(seedRows).not.toContain(-1);
    expect(seedRows).toEqual([...seedRows].sort((a, b) => a - b));

    await table.getByRole("link", { name: "Serial number" }).click();
    await expect(page).toHaveURL(/sort=serialNumber/);
    // The rows re-render after the URL changes: poll until the serial order shows.
    await expect.poll(async () => order(["SN-100001", "SN-100002"]).then(([a, b]) => (a >= 0 ? b - a : NaN))).toBe(1);
    const main = rows.filter({ hasText: "SN-100001" });
    await expect(main).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

    const activity = main.getByRole("link", { name: /\d{2}\/\d{2}\/\d{4}/ });
    await expect(activity).toHaveAttribute("href", "/activity?id=1&type=Device");

    await table.getByRole("link", { name: "Open details of Main Entrance" }).click();
    await expect(page).toHaveURL(/\/deviceDetails\?id=1$/);
    await expect(page.getByRole("heading", { level: 1, name: "Main Entrance" })).toBeVisible();
  });

  const ROW_TEXT = {
    en: { lastKnownOpen: "Last known: Open", offlineSince: "Offline since", status: "Status" },
    es: { lastKnownOpen: "Último estado conocido: Abierta", offlineSince: "Sin conexión desde", status: "Estado" },
  } as const;
  for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
    test(`a row opens its details, by click or by its link; an offline board's door is its last report (${lang}, ${width} px)`, async ({ page, request, loginAs }) => {
      const tx = ROW_TEXT[lang];
      await page.setViewportSize({ width, height });
      // Roof Access (8): its board reports the door open, then goes offline, as a gateway posts it.
      const now = runNow();
      const event = (type: string, at: number, data: object) => ({ id: `8/gw/devices.${unique()}`, deviceId: "8", type, at, gatewayId: "gw-e2e", data });
      const res = await request.post("/api/gateway/events", {
        headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` },
        data: {
          v: 1,
          gatewayId: "gw-e2e",
          events: [
            event("board.presence", now - 3000, { online: true }),
            event("sensor.contact", now - 2000, { input: 1, state: "open" }),
            event("board.presence", now - 1000, { online: false }),
          ],
        },
      });
      expect(res.status()).toBe(200);
      await loginAs("acme", lang);
      await page.goto("/devices");
      const table = page.getByRole("main").getByRole("table");
      const roof = table.locator("tbody tr").filter({ hasText: "Roof Access" });
      await expect(roof).toContainText(tx.lastKnownOpen);
      // No focusable row wrapping focusable cells: the keyboard uses the row's own link.
      const main = table.locator("tbody tr").filter({ hasText: "Main Entrance" });
      await expect(main).not.toHaveAttribute("tabindex");
      await main
        .getByRole("link", { name: /Main Entrance/ })
        .first()
        .focus();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/deviceDetails\?id=1$/);
      await page.goBack();
      // A click anywhere else on the row opens it too.
      await roof.locator("td").filter({ hasText: "Roof Access" }).click();
      await expect(page).toHaveURL(/\/deviceDetails\?id=8$/);
      const card = page.getByTestId("device-status-card");
      await expect(card.getByTestId("detail-status-connection")).toContainText(tx.offlineSince);
      await expect(card.getByTestId("detail-status-door")).toContainText(tx.lastKnownOpen);
    });
  }

  test("details of a scheduled-open Timer device", async ({ page, loginAs }) => {
    // The company's hours as the demo data has them, whatever the settings tests changed.
    await (await adminApi(page.request)).resetAcmeSettings();
    await loginAs("acme");
    await page.goto("/deviceDetails?id=1");
    await expect(page.getByTestId("detail-serialNumber")).toContainText("SN-100001");
    await expect(page.getByTestId("detail-relockTime")).toContainText("5 seconds");
    await expect(page.getByTestId("detail-triggerMode")).toHaveCount(0);
    await expect(page.getByTestId("detail-dnortTime")).toHaveCount(0);
    await expect(page.getByTestId("detail-battery")).toContainText("Good");
    await expect(page.getByTestId("detail-scheduledOpen")).toContainText("Yes");
    await expect(page.getByTestId("detail-fpi")).toContainText("Yes");
    await expect(page.getByTestId("detail-day-0")).toContainText("08:00 - 18:00");
    await expect(page.getByTestId("detail-day-6")).toContainText("Closed");
    await expect(page.getByTestId("exceptions")).toContainText(demoDates(seedNow()).christmas);
    await expect(page.getByTestId("low-battery")).toHaveCount(0);
    await expect(page.getByTestId("key-holders").getByRole("link", { name: "Admin, Alice" })).toHaveAttribute("href", "/modifyUser?id=3");
    await expect(page.getByTestId("device-groups").getByRole("link", { name: "Office Hours" })).toHaveAttribute("href", "/modifyDeviceGroup?id=1");
  });

  test("details of a door-close device and the low-battery banner", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/deviceDetails?id=3");
    await expect(page.getByTestId("detail-triggerMode")).toContainText("Sensor 1");
    await expect(page.getByTestId("detail-dnortTime")).toContainText("10 seconds");
    await expect(page.getByTestId("detail-relockTime")).toHaveCount(0);
    await expect(page.getByTestId("detail-scheduledOpen")).toContainText("No");
    await expect(page.getByTestId("detail-fpi")).toHaveCount(0);
    await expect(page.getByTestId("exceptions")).toHaveCount(0);

    await page.goto("/deviceDetails?id=7");
    await expect(page.getByRole("alert").filter({ hasText: "coin cell battery is low" })).toBeVisible();
    await expect(page.getByTestId("detail-battery")).toContainText("Low");
  });

  test("without an id or with another company's device it returns to the list", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/deviceDetails");
    await expect(page).toHaveURL(/\/devices$/);
    await page.goto("/deviceDetails?id=13");
    await expect(page).toHaveURL(/\/devices$/);
  });

  test("a read-only role sees devices", async ({ page, loginAs }) => {
    await loginAs("auditor");
    await page.goto("/deviceDetails?id=1");
    await expect(page.getByRole("heading", { level: 1, name: "Main Entrance" })).toBeVisible();
  });

  test("in Spanish", async ({ page, loginAs }) => {
    await loginAs("acme", "es");
    await page.goto("/devices?lng=es");
    await expect(page.getByRole("heading", { level: 1, name: "Dispositivos" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "Número de serie" })).toBeVisible();
    await page.goto("/deviceDetails?id=7&lng=es");
    await expect(page.getByRole("alert").filter({ hasText: "la batería de botón está baja" })).toBeVisible();
    await expect(page.getByTestId("detail-battery")).toContainText("Baja");
    // Dates read DD/MM/YYYY: the seed installs ACME's doors 200 days before its instant and adds device n 300 - n days before
    // (at 00:00 UTC, the same day in Madrid).
    const spanishDay = (iso: string) => iso.split("-").reverse().join("/");
    await expect(page.getByTestId("detail-installedAt")).toHaveText(new RegExp(spanishDay(isoDay(seedNow(), -200))));
    await expect(page.getByTestId("detail-createdAt")).toHaveText(new RegExp(`${spanishDay(isoDay(seedNow(), -293))} \\d\\d:\\d\\d:\\d\\d`));
  });
});
