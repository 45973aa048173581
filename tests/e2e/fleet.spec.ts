import { expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, test } from "./fixtures";

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
