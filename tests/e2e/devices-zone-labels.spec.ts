import { adminApi, expect, signIn, test } from "./fixtures";

/**
 * Times on /devices carry the company's zone label. (That lists fit every width is held by
 * layout-fit.spec.ts at 1024 px and screens.spec.ts at 1440 and 390 px.)
 */
for (const lang of ["en", "es"] as const) {
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
