import type { Page } from "@playwright/test";
import { adminApi, expect, keepScreenshot, test, unique } from "./fixtures";

/** Stores the language the way the header's switch does (the signed cookie the server reads). */
async function chooseLanguage(page: Page, lng: "en" | "es") {
  const res = await page.request.post("/resources/language", { form: { lng, redirectTo: "/" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
}

const TEXT = {
  en: { create: "Create", name: "Calendar name", source: "Start with the public holidays of", year: "Year", save: "Submit", required: "Choose a holiday calendar" },
  es: {
    create: "Crear",
    name: "Nombre del calendario",
    source: "Empezar con los festivos oficiales de",
    year: "Año",
    save: "Enviar",
    required: "Elija un calendario de festivos",
  },
} as const;

for (const lng of ["en", "es"] as const) {
  test(`import Spain's holidays and see a key's preview skip them (${lng})`, async ({ loginAs, page }) => {
    const user = (await (await adminApi(page.request)).createUser("Hol", `Holidays${unique()}`)).id;
    await loginAs("acme");
    await chooseLanguage(page, lng);
    // The preview starts at the key's first opening, after the page's "now": fixed, so the real clock does not matter.
    await page.clock.setFixedTime(new Date("2026-12-01T09:00:00Z"));

    const name = `España ${lng} ${unique()}`;
    await page.goto("/addHolidayCalendar");
    await page.getByLabel(TEXT[lng].name).fill(name);
    await page.getByLabel(TEXT[lng].source).selectOption("ES");
    await page.getByLabel(TEXT[lng].year).selectOption("2027");
    await page.getByRole("button", { name: TEXT[lng].create }).click();
    await expect(page).toHaveURL(/\/modifyHolidayCalendar\?id=\d+/);
    const dates = page.getByTestId("calendar-dates");
    await expect(dates).toContainText("Día de los Reyes Magos");
    await expect(dates.locator("time[datetime='2027-01-06']")).toHaveCount(1);

    // A custom key from New Year's Day (a holiday), every day, all day, not on holidays.
    await page.goto(`/modifyUser?id=${user}`);
    await page.locator("#ekey-key").selectOption({ index: 1 });
    await page.locator("input[name='ekey-access'][value='custom_access']").check();
    await page.locator("#ekey-startDate").fill("2027-01-01");
    await page.locator("#ekey-on-holidays").selectOption("closed");
    await page.locator("#ekey-holiday-calendar").selectOption({ label: name });

    const preview = page.getByTestId("ekey-preview");
    // 1 January is a holiday: the key first opens on the 2nd.
    await expect(preview.getByRole("heading")).toContainText("2027-01-02");
    const keyZone = preview.locator("ul").first();
    // 6 January (Reyes) is skipped: access stops at its midnight and starts again on the 7th.
    await expect(keyZone).toContainText("→ 2027-01-06 00:00");
    await expect(keyZone).toContainText("2027-01-07 00:00 →");
    await expect(keyZone.locator("li", { hasText: /2027-01-06 \d\d:\d\d →/ })).toHaveCount(0);
    await expect(page.getByTestId("ekey-preview-holidays")).toContainText("2027-01-06 Día de los Reyes Magos");

    // The same key ignoring holidays opens on the 1st.
    await page.locator("#ekey-on-holidays").selectOption("ignore");
    await expect(preview.getByRole("heading")).not.toContainText("2027-01-02");

    // The company's scheduled-open hours keep the doors locked on the calendar's dates: a calendar is required.
    await page.setViewportSize(lng === "es" ? { width: 390, height: 844 } : { width: 1440, height: 900 });
    await page.goto("/scheduleOpen");
    await page.locator("#schedule-on-holidays").selectOption("closed");
    await page.getByRole("button", { name: TEXT[lng].save, exact: true }).click();
    await expect(page.getByText(TEXT[lng].required)).toBeVisible();
    await page.locator("#schedule-holiday-calendar").selectOption({ label: name });
    await keepScreenshot(page.locator("#holidays-title").locator(".."), `schedule-open-holidays-${lng}`);
    const save = () =>
      Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/scheduleOpen")),
        page.getByRole("button", { name: TEXT[lng].save, exact: true }).click(),
      ]);
    await save();
    await page.reload();
    await expect(page.locator("#schedule-on-holidays")).toHaveValue("closed");
    await expect(page.locator("#schedule-holiday-calendar option:checked")).toHaveText(name);
    // Back to the demo's choice for the specs that follow on this console.
    await page.locator("#schedule-on-holidays").selectOption("ignore");
    await save();
    await page.reload();
    await expect(page.locator("#schedule-on-holidays")).toHaveValue("ignore");
  });
}
