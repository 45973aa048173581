import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";

// Demo data: ACME (zone Europe/Madrid) has a month of door traffic up to 11/20/2026; device 1 is
// Main Entrance (display name ME1). Rows are newest first, 100 per page.
const HEADER = "Date,Activity,Trigger,Triggered By,User,Device,Device Group,Summary,GPS Location";

test.describe("activity", () => {
  test("filter by dates, filter by a device, open details, add a note and download the report", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/activity");
    await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
    const table = page.getByRole("table", { name: "Activity log of the company" });
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(100);
    for (const name of ["Date", "Activity", "Trigger", "Triggered By", "User", "Device", "Device Group", "Summary"]) {
      await expect(table.getByRole("columnheader", { name, exact: true })).toBeVisible();
    }

    // Filter needs both dates; Remove filter needs some filter.
    const filter = page.getByRole("button", { name: "Filter", exact: true });
    await expect(filter).toBeDisabled();
    await expect(page.getByRole("button", { name: "Remove filter" })).toBeDisabled();
    await page.getByLabel("From date").fill("2026-11-10");
    await expect(filter).toBeDisabled();
    await page.getByLabel("To date").fill("2026-11-12");
    await expect(filter).toBeEnabled();
    await filter.click();
    await expect(page).toHaveURL(/filterFromDate=2026-11-10&filterToDate=2026-11-12/);
    await expect(rows.first().locator("td").first()).toHaveText(/^11\/12\/2026/);
    const dates = await rows.locator("td:first-child").allInnerTexts();
    expect(dates.length).toBeGreaterThan(0);
    for (const d of dates) expect(d).toMatch(/^11\/1[0-2]\/2026 \d{2}:\d{2}:\d{2} CET$/);
    await expect(page.getByRole("link", { name: "Remove filter" })).toBeVisible();

    // A Device cell narrows to that device, keeping the dates.
    const deviceLink = rows.first().getByRole("link", { name: /^Filter by Device / });
    const device = (await deviceLink.innerText()).trim();
    await deviceLink.click();
    await expect(page).toHaveURL(/type=Device/);
    await expect(page).toHaveURL(/filterFromDate=2026-11-10/);
    await expect(page.getByTestId("target-filter")).toContainText(`device: ${device}`);
    await expect(rows.first().locator("td:nth-child(6)")).toHaveText(device);
    for (const d of await rows.locator("td:nth-child(6)").allInnerTexts()) expect(d.trim()).toBe(device);

    // The Activity cell opens its details.
    const activityLink = rows.first().locator("td:nth-child(2) a");
    const activity = (await activityLink.innerText()).trim();
    await activityLink.click();
    await expect(page).toHaveURL(/\/activityDetails\?id=\d+$/);
    await expect(page.getByRole("heading", { level: 1, name: activity })).toBeVisible();
    await expect(page.getByTestId("detail-device")).toContainText(device);
    await expect(page.getByText("No notes yet")).toBeVisible();

    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByText("Note is required")).toBeVisible();
    await page.getByLabel("Add a note").fill("Checked the camera footage");
    await page.getByRole("button", { name: "Add note" }).click();
    const notes = page.getByTestId("notes");
    await expect(notes).toContainText("Checked the camera footage");
    await expect(notes).toContainText("Admin, Alice");
    await expect(page.getByLabel("Add a note")).toHaveValue("");

    await page.getByRole("link", { name: "Back to activity" }).click();
    await expect(page).toHaveURL(/\/activity$/);
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download report" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("activity_report.csv");
    const csv = (await readFile((await download.path())!, "utf8")).replace(/^\uFEFF/, "");
    expect(csv.split("\r\n")[0]).toBe(HEADER);
    expect(csv.split("\r\n").length).toBeGreaterThan(300);
  });

  test("a Date cell filters to its day and /devices links land on that device's activity", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/activity?id=1&type=Device");
    await expect(page.getByTestId("target-filter")).toContainText("device: Main Entrance");
    const rows = page.getByRole("table", { name: "Activity log of the company" }).locator("tbody tr");
    await expect(rows.first()).toBeVisible();
    await expect(rows.first().locator("td:nth-child(6)")).toHaveText("Main Entrance");
    for (const d of await rows.locator("td:nth-child(6)").allInnerTexts()) expect(d.trim()).toBe("Main Entrance");

    const dateLink = rows.first().locator("td:first-child a");
    const day = (await dateLink.innerText()).slice(0, 10);
    await dateLink.click();
    const [m, d, y] = day.split("/");
    await expect(page).toHaveURL(new RegExp(`filterFromDate=${y}-${m}-${d}&filterToDate=${y}-${m}-${d}`));
    await expect(page.getByLabel("From date")).toHaveValue(`${y}-${m}-${d}`);
    for (const text of await rows.locator("td:first-child").allInnerTexts()) expect(text.startsWith(day)).toBe(true);

    await page.getByRole("link", { name: "Remove filter" }).click();
    await expect(page).toHaveURL(/\/activity$/);
    await expect(page.getByTestId("target-filter")).toHaveCount(0);
  });

  test("a read-only role reads notes but has no add-note box; an unknown id returns to the list", async ({ page, loginAs }) => {
    await loginAs("auditor");
    await page.goto("/activity");
    await page.getByRole("table").locator("tbody tr").first().locator("td:nth-child(2) a").click();
    await expect(page.getByRole("heading", { level: 2, name: "Notes" })).toBeVisible();
    await expect(page.getByLabel("Add a note")).toHaveCount(0);
    await page.goto("/activityDetails?id=999999");
    await expect(page).toHaveURL(/\/activity$/);
    await page.goto("/activityDetails");
    await expect(page).toHaveURL(/\/activity$/);
  });

  test("says where the hot window begins; a date range and the report reach the archive", async ({ page, loginAs }) => {
    // The demo's Device Group Created entry of 08/12/2026 is past ACME's 90-day window: once the sign-in's
    // audit row reaches ACME's store, its alarm archives that day and drops it from the store.
    await loginAs("acme");
    const note = page.getByTestId("hot-window");
    await expect(async () => {
      await page.goto("/activity");
      await expect(note).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(note).toHaveText(/^Entries before \d{2}\/\d{2}\/2026 are in the archive: choose a date range to search them\./);
    const rows = page.getByRole("table", { name: "Activity log of the company" }).locator("tbody tr");
    await expect(rows.filter({ hasText: "Device Group Created" }).filter({ hasText: "08/12/2026" })).toHaveCount(0);

    await page.getByLabel("From date").fill("2026-08-01");
    await page.getByLabel("To date").fill("2026-08-31");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await expect(rows.filter({ hasText: "Device Group Created" })).toHaveCount(1);
    await expect(rows.first().locator("td").first()).toHaveText(/^08\/12\/2026/);

    await page.goto("/activity");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download report" }).click();
    const csv = await readFile((await (await downloading).path())!, "utf8");
    expect(csv).toMatch(/\r\n08\/12\/2026 [^\r]*,Device Group Created,Admin,/);

    await page.goto("/activity?lng=es");
    await expect(note).toHaveText(/^Las entradas anteriores al \d{2}\/\d{2}\/2026 están en el archivo/);
  });

  test("in Spanish", async ({ page, loginAs }) => {
    await loginAs("acme", "es");
    await page.goto("/activity?lng=es");
    await expect(page.getByRole("heading", { level: 1, name: "Actividad" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "Iniciada por" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Filtrar", exact: true })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Quitar filtro" })).toBeDisabled();
    await expect(page.getByRole("link", { name: "Descargar informe" })).toBeVisible();
    await expect(page.getByLabel("Desde la fecha")).toBeVisible();
  });
});
