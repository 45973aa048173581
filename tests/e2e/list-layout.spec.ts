import { adminApi, expect, signIn, test } from "./fixtures";

/**
 * The lists fit their page: at 1440 px no table scrolls sideways (its box's scrollWidth is at most its
 * clientWidth) in English or Spanish, the longer one; at 1024 and 390 px the page itself never does
 * (a phone may scroll a table inside its own box). Times on /devices carry the company's zone label.
 */
const LISTS = ["/devices", "/users", "/deviceGroups", "/activity"] as const;
const WIDTHS = [1440, 1024, 390] as const;

for (const lang of ["en", "es"] as const) {
  test(`lists fit 1440, 1024 and 390 px (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, "acme", lang);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of LISTS) {
        await page.goto(`${path}?pageSize=50`);
        const box = page.locator("table").first().locator("xpath=..");
        await expect(box).toBeVisible();
        const [scroll, client] = await box.evaluate((el) => [el.scrollWidth, el.clientWidth]);
        if (width === 1440) expect(scroll, `${path} table at ${width}px (${lang})`).toBeLessThanOrEqual(client);
        const page_ = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
        expect(page_[0], `${path} page at ${width}px (${lang})`).toBeLessThanOrEqual(page_[1]);
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/devices?pageSize=50");
    await page.screenshot({ path: `test-results/screens/devices-list-1440-${lang}.png`, fullPage: true });
  });

  test(`devices' Date added and Last activity are labelled with the company's zone (${lang})`, async ({ page }) => {
    await (await adminApi(page.request)).resetAcmeSettings(); // Europe/Madrid
    await signIn(page, "acme", lang);
    await page.goto("/devices?q=SN-100001");
    const table = page.locator("table");
    const headers = (await table.locator("thead th").allInnerTexts()).map((h) => h.trim());
    const row = table.locator("tbody tr").filter({ hasText: "SN-100001" });
    const cell = (header: string) => row.locator("td").nth(headers.indexOf(header));
    const labelled = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} CES?T$/;
    expect(headers).toContain(lang === "en" ? "Date added" : "Fecha de alta");
    await expect(cell(lang === "en" ? "Date added" : "Fecha de alta").locator("time")).toHaveText(labelled);
    await expect(cell(lang === "en" ? "Last activity" : "Última actividad").locator("time")).toHaveText(labelled);
  });
}
