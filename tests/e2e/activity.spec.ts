import { readFile } from "node:fs/promises";
import type { Locator } from "@playwright/test";
import { demoDates, isoDay } from "../../db/seed/clock";
import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { axeFindings } from "./axe";
import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, runNow, seedNow, test, unique } from "./fixtures";

/** Words of these elements' text that the layout split across lines (a word broken inside, e.g. "Disposi tivo"). */
const brokenWords = (cells: Locator) =>
  cells.evaluateAll((els) => {
    const broken: string[] = [];
    for (const el of els) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index!);
          range.setEnd(node, m.index! + m[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  });

// Demo data: ACME (zone Europe/Madrid) has a month of door traffic up to the seed instant; device 1 is
// Main Entrance (display name ME1). Rows are newest first, 100 per page.
const HEADER = "Date,Activity,Trigger,Triggered By,User,Device,Device Group,Summary,GPS Location";

test.describe("activity", () => {
  test("one date filters, a searched door narrows, open details, add a note and download the report", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/activity");
    await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
    const table = page.getByRole("table", { name: "Activity log of the company" });
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(100);
    for (const name of ["Date", "Activity", "Trigger", "Triggered By", "User", "Device", "Device Group", "Summary"]) {
      await expect(table.getByRole("columnheader", { name, exact: true })).toBeVisible();
    }

    // Filter is always there to press; a from date alone is enough.
    await expect(page.getByRole("button", { name: "Filter", exact: true })).toBeEnabled();
    await expect(page.getByRole("button", { name: "Remove filter" })).toBeDisabled();
    // The demo's last two days of traffic (db/seed/clock.ts).
    const from = isoDay(seedNow(), -2);
    await page.getByLabel("From date").fill(from);
    // The door is found by typing, from the server's search.
    const door = page.getByRole("combobox", { name: "Door" });
    await door.fill("main");
    await page.getByRole("option", { name: /^Main Entrance/ }).click();
    await expect(door).toHaveValue("Main Entrance");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`\\?door=1&filterFromDate=${from}$`));
    await expect(rows.first()).toBeVisible();
    // Once the filtered page is drawn: every row from the from date on, every row at Main Entrance.
    const shown = async () => ({ dates: await rows.locator("td:first-child").allInnerTexts(), doors: await rows.locator("td:nth-child(6)").allInnerTexts() });
    await expect.poll(async () => (await shown()).doors.every((d) => d.trim() === "Main Entrance")).toBe(true);
    const { dates } = await shown();
    expect(dates.length).toBeGreaterThan(0);
    for (const d of dates) expect(d.replace(/^(\d{2})\/(\d{2})\/(\d{4}) .*/s, "$3-$1-$2") >= from, d).toBe(true);
    await expect(page.getByRole("link", { name: "Remove filter" })).toBeVisible();

    // The Activity cell opens its details.
    const activityLink = rows.first().locator("td:nth-child(2) a");
    const activity = (await activityLink.innerText()).trim();
    await activityLink.click();
    await expect(page).toHaveURL(/\/activityDetails\?id=\d+$/);
    await expect(page.getByRole("heading", { level: 1, name: activity })).toBeVisible();
    await expect(page.getByTestId("detail-device")).toContainText("Main Entrance");
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

  test("only names are links, to the records the reader may open; the dashboard's link picks an event type", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/activity?id=1&type=Device");
    await expect(page.getByTestId("target-filter")).toContainText("device: Main Entrance");
    const first = page.getByRole("table", { name: "Activity log of the company" }).locator("tbody tr").first();
    await expect(first.locator("td:nth-child(6) a")).toHaveAttribute("href", "/deviceDetails?id=1");
    await expect(first.locator("td:first-child a, td:nth-child(3) a")).toHaveCount(0);

    await page.goto("/activity?additionalFilter=Access+Denied");
    await expect(page.getByRole("button", { name: "Remove Access Denied" })).toBeVisible();
    const marks = page.locator("tbody [data-mark]");
    await expect(marks.first()).toBeVisible();
    expect(new Set(await marks.evaluateAll((els) => els.map((e) => e.getAttribute("data-mark"))))).toEqual(new Set(["denied"]));
    // Applying the form again keeps it, now as the picker's own parameter.
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await expect(page).toHaveURL(/\?event=Access\+Denied$/);
  });

  test("a read-only role reads notes but has no add-note box, and no links to pages it may not open", async ({ page, loginAs }) => {
    await loginAs("auditor");
    await page.goto("/activity");
    await expect(page.locator('tbody a[href^="/deviceDetails?id="]').first()).toBeVisible();
    await expect(page.locator('a[href^="/modifyUser"]')).toHaveCount(0);
    await expect(page.locator("tbody td:nth-child(4)").filter({ hasText: /\w/ }).first()).toBeVisible();
    await page.getByRole("table").locator("tbody tr").first().locator("td:nth-child(2) a").click();
    await expect(page.getByRole("heading", { level: 2, name: "Notes" })).toBeVisible();
    await expect(page.getByLabel("Add a note")).toHaveCount(0);
    await page.goto("/activityDetails?id=999999");
    await expect(page).toHaveURL(/\/activity$/);
    await page.goto("/activityDetails");
    await expect(page).toHaveURL(/\/activity$/);
  });

  test("says where the hot window begins; a date range and the report reach the archive", async ({ page, loginAs }) => {
    // The demo's Device Group Created entry, 100 days before the seed instant, is past ACME's 90-day window:
    // once the sign-in's audit row reaches ACME's store, its alarm archives that day and drops it from the store.
    const created = demoDates(seedNow()).groupCreatedAt;
    const [y, m, d] = isoDay(created).split("-");
    const shown = `${m}/${d}/${y}`;
    await loginAs("acme");
    const note = page.getByTestId("hot-window");
    await expect(async () => {
      await page.goto("/activity");
      await expect(note).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(note).toHaveText(/^Entries before \d{2}\/\d{2}\/\d{4} are in the archive: choose a date range to search them\./);
    const rows = page.getByRole("table", { name: "Activity log of the company" }).locator("tbody tr");
    await expect(rows.filter({ hasText: "Device Group Created" }).filter({ hasText: shown })).toHaveCount(0);

    await page.getByLabel("From date").fill(isoDay(created, -11));
    await page.getByLabel("To date").fill(isoDay(created, 19));
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await expect(rows.filter({ hasText: "Device Group Created" })).toHaveCount(1);
    await expect(rows.first().locator("td").first()).toHaveText(new RegExp(`^${shown}`));
    const filtered = page.url();

    await page.goto("/activity");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download report" }).click();
    const csv = await readFile((await (await downloading).path())!, "utf8");
    expect(csv).toMatch(new RegExp(`\r\n${shown} [^\r]*,Device Group Created,Admin,`));

    await page.goto("/activity?lng=es");
    await expect(note).toHaveText(/^Las entradas anteriores al \d{2}\/\d{2}\/\d{4} están en el archivo/);
    // A Spanish reader reads the same day as DD/MM/YYYY.
    await page.goto(`${filtered}&lng=es`);
    await expect(page.locator("tbody tr").first().locator("td").first()).toHaveText(new RegExp(`^${d}/${m}/${y}`));
  });

  for (const run of LANGUAGE_AND_WIDTH_RUNS) {
    test(`readable at ${run.width} px (${run.lang}): cards on a phone, no word broken, an event type picked by typing, axe`, async ({ page, request, loginAs }) => {
      // A forced door to find (the demo's traffic has none in the hot window).
      const options = await (await adminApi(request)).call<{ payload: { devices: { id: number }[] } }>("GET", "/user/getActivityOptions");
      const deviceId = String(options.payload.devices[0].id);
      const forced = { id: `${deviceId}/gw/forced.e2e-${unique()}`, deviceId, type: "door.forced", at: runNow(), data: {} };
      const res = await request.post("/api/gateway/events", { headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` }, data: { v: 1, events: [forced] } });
      expect(res.status()).toBe(200);
      const text = {
        en: { toggle: "Filters", event: "Event type", typed: "forc", option: "Door Forced Open" },
        es: { toggle: "Filtros", event: "Tipo de evento", typed: "forz", option: "Puerta forzada" },
      }[run.lang];
      await page.setViewportSize({ width: run.width, height: run.height });
      await loginAs("acme", run.lang);
      await page.goto(`/activity?lng=${run.lang}`);
      const cards = page.getByTestId("activity-card");
      const table = page.getByRole("table");
      if (run.width < 768) {
        await expect(cards).toHaveCount(100);
        await expect(table).toBeHidden();
        expect(await brokenWords(cards)).toEqual([]);
        await page.getByRole("button", { name: text.toggle }).click();
      } else {
        await expect(table.locator("tbody tr")).toHaveCount(100);
        await expect(cards.first()).toBeHidden();
      }
      expect(await axeFindings(page)).toEqual([]);
      const picker = page.getByRole("combobox", { name: text.event });
      await picker.fill(text.typed);
      await page.getByRole("option", { name: text.option, exact: true }).click();
      await page.getByRole("button", { name: run.lang === "en" ? "Filter" : "Filtrar", exact: true }).click();
      await expect(page).toHaveURL(/event=Door\+Forced\+Open/);
      const marks = page.locator(run.width < 768 ? "[data-testid=activity-card] [data-mark]" : "tbody [data-mark]");
      await expect(marks.first()).toHaveAttribute("data-mark", "forced");
      await keepScreenshot(page, `activity-${run.lang}-${run.width}`, { fullPage: true });
    });
  }

  test("headers and names never break inside a word, in Spanish and English at 1024 and 1440 px", async ({ page, loginAs }) => {
    for (const lang of ["es", "en"] as const) {
      await loginAs("acme", lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/activity?lng=${lang}`);
        const table = page.getByRole("table");
        await expect(table.locator("tbody tr")).toHaveCount(100);
        expect(await brokenWords(table.locator("th")), `${lang} ${width} headers`).toEqual([]);
        expect(await brokenWords(table.locator("tbody td:not(:last-child)")), `${lang} ${width} cells`).toEqual([]);
      }
    }
  });

  test("in Spanish", async ({ page, loginAs }) => {
    await loginAs("acme", "es");
    await page.goto("/activity?lng=es");
    await expect(page.getByRole("heading", { level: 1, name: "Actividad" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "Iniciada por" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Filtrar", exact: true })).toBeEnabled();
    await expect(page.getByRole("button", { name: "Quitar filtro" })).toBeDisabled();
    await expect(page.getByRole("link", { name: "Descargar informe" })).toBeVisible();
    await expect(page.getByLabel("Desde la fecha")).toBeVisible();
    // Times are 24-hour text in Spanish; "1830" is filtered as 18:30.
    const from = page.getByLabel("Desde la hora");
    await expect(from).toHaveAttribute("type", "text");
    await from.fill("1830");
    await from.blur();
    await expect(from).toHaveValue("18:30");
    await page.getByRole("button", { name: "Filtrar", exact: true }).click();
    await expect(page).toHaveURL(/filterFromTime=18%3A30/);
    await expect(page.getByLabel("Desde la hora")).toHaveValue("18:30");
  });
});
