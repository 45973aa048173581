import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, runNow, test, unique } from "./fixtures";

// Fleet health (decision 0091): the reseller opens its customers' boards' health from the header, a
// count opens exactly the boards it counts, and the filter says what is shown. Health only.
const texts = {
  en: { title: "Fleet health", lowBattery: /^Acme.*: \d+ boards with a low battery$/, boards: /^Boards of Acme/, showing: "Showing", low: "Low", back: "Fleet health" },
  es: { title: "Estado de la flota", lowBattery: /^Acme.*: \d+ placas con batería baja$/, boards: /^Placas de Acme/, showing: "Mostrar", low: "Baja", back: "Estado de la flota" },
};

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  const x = texts[lang];
  test(`fleet health (${lang}, ${width} px): a reseller opens a customer's low batteries from the count`, async ({ page, loginAs }) => {
    await page.setViewportSize({ width, height });
    await loginAs("var", lang);
    await page.goto("/fleet");
    await expect(page.getByRole("heading", { level: 1, name: x.title })).toBeVisible();
    await keepScreenshot(page, `fleet-${lang}-${width}`, { fullPage: true });
    const count = page.getByRole("link", { name: x.lowBattery });
    const counted = Number(await count.textContent());
    expect(counted).toBeGreaterThan(0);
    await count.click();
    await expect(page).toHaveURL(/\/fleetBoards\?company=\d+&trouble=lowBattery/);
    await expect(page.getByRole("heading", { level: 1, name: x.boards })).toBeVisible();
    await expect(page.getByLabel(x.showing)).toHaveValue("lowBattery");
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(counted);
    for (const row of await rows.all()) await expect(row).toContainText(x.low);
    await keepScreenshot(page, `fleet-boards-${lang}-${width}`, { fullPage: true });
    await page.getByRole("link", { name: x.back }).first().click();
    await expect(page).toHaveURL(/\/fleet$/);
  });
}

// Board clocks (decision 0092): a gateway reports a board 45 s ahead on zone data older than its core's;
// the company's device page says so, and the reseller's fleet counts it and lists it.
const CLOCK_DOOR = 10; // Mail Room, an ACME door
const clockTexts = {
  en: { clock: "Clock", ahead: "45 s ahead", zones: "Zone data 2019c, older than 2025b", trouble: "clock" },
  es: { clock: "Reloj", ahead: "45 s adelantado", zones: "Zonas horarias 2019c, anteriores a 2025b", trouble: "clock" },
};
for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  const x = clockTexts[lang];
  test(`board clocks (${lang}, ${width} px): a drifted board on old zone data is flagged on its page and in the fleet`, async ({ page, loginAs, request }) => {
    const res = await request.post("/api/gateway/events", {
      headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` },
      data: {
        v: 1,
        events: [
          {
            id: `${CLOCK_DOOR}/gw/clk.e2e.${unique()}`,
            deviceId: String(CLOCK_DOOR),
            type: "board.clock",
            at: runNow(),
            data: { driftMs: 45_200, tzdata: "2019c", coreTzdata: "2025b" },
          },
        ],
      },
    });
    expect(await res.json()).toMatchObject({ accepted: 1, rejected: [] });
    await page.setViewportSize({ width, height });
    await loginAs("acme", lang);
    await page.goto(`/deviceDetails?id=${CLOCK_DOOR}`);
    const clock = page.getByTestId("device-status-card").getByTestId("board-clock");
    await expect(clock).toContainText(x.ahead);
    await expect(clock).toContainText(x.zones);
    await keepScreenshot(page, `device-clock-${lang}-${width}`);

    await loginAs("var", lang);
    await page.goto(`/fleetBoards?company=3&trouble=${x.trouble}`);
    const row = page
      .locator("tbody tr")
      .filter({ has: page.getByTestId("board-clock") })
      .first();
    await expect(row).toContainText(x.ahead);
    await keepScreenshot(page, `fleet-clock-${lang}-${width}`, { fullPage: true });
  });
}
