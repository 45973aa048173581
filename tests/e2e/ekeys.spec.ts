import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { createCore, type EKeyWindow } from "~core";
import { adminApi, clockTag, expect, keepScreenshot, runNow, test, unique } from "./fixtures";

/** The core in Node, to work out what the preview must answer at the page's clock. */
const core = createCore(readFileSync(new URL("../../core-wasm/pkg/core.wasm", import.meta.url)));

/** `YYYY-MM-DD` of an instant in Europe/Madrid (ACME's zone, where the server's "today" is taken). */
const madridDay = (at: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(at);

/**
 * The preview's "Would it open at…" answer for `window` at the moment in its input (the viewer's
 * local time, read the way the page reads it), as the core decides it.
 */
async function expectedWhy(page: Page, window: EKeyWindow, label: string): Promise<string> {
  const value = await page.locator("#ekey-why-at").inputValue();
  const at = await page.evaluate((v) => new Date(v).getTime(), value);
  const d = core.decide([{ id: "key", label, window }], at, { lang: "en" });
  return `${d.allowed ? "Opens" : "Does not open"}: ${d.reason}`;
}

/** `YYYY-MM-DDTHH:MM` of the next `weekday` (0 Sunday) at `time` in the page's zone, at least a day after the page's now. */
const nextLocal = (page: Page, weekday: number, time: string) =>
  page.evaluate(
    ([day, hhmm]) => {
      const d = new Date(Date.now() + 86_400_000);
      while (d.getDay() !== day) d.setDate(d.getDate() + 1);
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${hhmm}`;
    },
    [weekday, time] as const,
  );

/** Stores the language the way the header's switch does (the signed cookie the server reads). */
async function chooseLanguage(page: Page, lng: "en" | "es") {
  const res = await page.request.post("/resources/language", { form: { lng, redirectTo: "/" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
}

// Each test assigns keys to an ACME user of its own, created through the admin API.
let USER: number;

test.describe("e-key assignment panel", () => {
  test.beforeEach(async ({ loginAs, page }) => {
    USER = (await (await adminApi(page.request)).createUser("Kim", `Keys${unique()}`)).id;
    await loginAs("acme");
  });

  test("custom key: spec defaults, core validation, preview, assign, modify and remove", { tag: clockTag() }, async ({ page }) => {
    const dayBefore = madridDay(runNow());
    await page.goto(`/modifyUser?id=${USER}`);
    const panel = page.getByRole("region", { name: "E-keys" });
    await expect(panel.getByRole("button", { name: "Assign" })).toBeVisible();

    // Nothing selected: the key is required.
    await panel.getByRole("button", { name: "Assign" }).click();
    await expect(panel.getByText("Please select an e-key or group")).toBeVisible();

    await panel.locator("#ekey-key").selectOption({ index: 1 });
    const label = (await panel.locator("#ekey-key option:checked").textContent())!.trim();
    await panel.getByRole("radio", { name: "Custom" }).check();
    // docs/ARCHITECTURE.md §7.2 defaults: start today (the company's day, Europe/Madrid), all days, never ends, all day.
    const startDate = await panel.locator("#ekey-startDate").inputValue();
    expect([dayBefore, madridDay(runNow())]).toContain(startDate);
    await expect(panel.getByRole("checkbox", { name: "Never expires" })).toBeChecked();
    await expect(panel.getByRole("checkbox", { name: "All day" })).toBeChecked();
    await expect(panel.locator("#ekey-startTime")).toBeDisabled();
    await expect(page.getByTestId("ekey-preview")).toBeVisible();

    // Times required once all day is off; the core's error maps to the spec's message.
    await panel.getByRole("checkbox", { name: "All day" }).click();
    await panel.getByRole("button", { name: "Assign" }).click();
    await expect(panel.getByText("Start and End time are required")).toBeVisible();
    await panel.locator("#ekey-startTime").fill("08:00");
    await panel.locator("#ekey-endTime").fill("17:30");
    await expect(panel.locator("#ekey-startTime")).toHaveAttribute("step", "300");
    for (const day of ["Sat", "Sun"]) await panel.getByRole("checkbox", { name: day, exact: true }).click();

    const preview = page.getByTestId("ekey-preview");
    await expect(preview).toContainText("Key's zone (Europe/Madrid)");
    await expect(preview).toContainText("Your zone");
    // The next 7 days from the viewer's now: the first occurrence may be under way (it then starts
    // now), but every one ends at 17:30, whole weekdays run 08:00-17:30, and no weekend day appears.
    const keyZone = preview.locator("ul").first().locator("li");
    await expect(keyZone.first()).toContainText(/→ \d{4}-\d{2}-\d{2} 17:30$/);
    await expect(keyZone.filter({ hasText: /^(Mon|Tue|Wed|Thu|Fri) \S+ 08:00 → \S+ 17:30$/ }).first()).toBeVisible();
    await expect(keyZone.filter({ hasText: /^(Sat|Sun) / })).toHaveCount(0);
    // "Would it open at…" answers as the core does: at the page's now, on a weekday afternoon and on a Saturday.
    const window: EKeyWindow = {
      kind: "ekey",
      access: "custom",
      tz: "Europe/Madrid",
      startDate,
      endDate: null,
      days: [true, true, true, true, true, false, false],
      allDay: false,
      startTime: "08:00",
      endTime: "17:30",
    };
    const why = page.getByTestId("ekey-why");
    await preview.getByRole("button", { name: "Check" }).click();
    await expect(why).toContainText(await expectedWhy(page, window, label));
    // 10:00 in New York is 15:00 or 16:00 in Madrid: inside 08:00-17:30 on a Wednesday; never on a Saturday.
    for (const [weekday, word] of [
      [3, "Opens: "],
      [6, "Does not open: "],
    ] as const) {
      await page.locator("#ekey-why-at").fill(await nextLocal(page, weekday, "10:00"));
      await preview.getByRole("button", { name: "Check" }).click();
      const expected = await expectedWhy(page, window, label);
      expect(expected.startsWith(word), expected).toBe(true);
      await expect(why).toContainText(expected);
    }

    // The check is asked in the viewer's own zone, and says which.
    await expect(preview.getByText(/Would it open at… \(time in .+\)/)).toBeVisible();

    await panel.getByRole("button", { name: "Assign" }).click();
    // A success is a success toast (the kept form's reply carries no status: it was read as a refusal, in red).
    await expect(page.locator("li[data-type]").filter({ hasText: "E-key assigned successfully" })).toHaveAttribute("data-type", "success");

    // Selecting the new entry enters modify mode; selecting it again leaves it.
    // The list is labelled with the form's field names.
    const entry = panel.getByRole("button", { name: /Access: Custom.*Start time: 08:00\s*End time: 17:30/ }).last();
    await entry.click();
    await expect(panel.getByRole("button", { name: "Modify" })).toBeVisible();
    await entry.click();
    await expect(panel.getByRole("button", { name: "Assign" })).toBeVisible();

    await entry.click();
    // A distinct end date per run identifies this entry in the list.
    const end = `20${30 + Math.floor(Math.random() * 60)}-12-31`;
    await panel.getByRole("checkbox", { name: "Never expires" }).click();
    await panel.locator("#ekey-endDate").fill(end);
    await panel.getByRole("button", { name: "Modify" }).click();
    await expect(page.locator("li[data-type]").filter({ hasText: "E-key modified successfully" })).toHaveAttribute("data-type", "success");

    const row = panel.locator("li", { hasText: end });
    await row.getByRole("button", { name: /^Remove / }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
    await expect(page.getByText("E-key removed successfully").first()).toBeVisible();
    await expect(panel.locator("li", { hasText: end })).toHaveCount(0);
  });

  test("full access clears the schedule; a group forces custom with the group's schedule", async ({ page }) => {
    const group = `Office ${unique()}`;
    await (await adminApi(page.request)).createGroup(group); // Monday to Friday 08:00-18:00
    await page.goto(`/modifyUser?id=${USER}`);
    const panel = page.getByRole("region", { name: "E-keys" });
    await panel.locator("#ekey-key").selectOption({ index: 1 });
    await panel.getByRole("radio", { name: "One-time" }).check();
    await expect(panel.locator("#ekey-startDate")).toBeVisible();
    await panel.getByRole("radio", { name: "Full" }).check();
    await expect(panel.locator("#ekey-startDate")).toHaveCount(0);
    await expect(page.getByTestId("ekey-preview")).toContainText("Full access: always open");

    await panel.getByRole("radio", { name: "Device group" }).check();
    await panel.locator("#ekey-key").selectOption({ label: group });
    await expect(panel.getByRole("radio", { name: "Custom" })).toBeChecked();
    await expect(panel.getByRole("radio", { name: "Full" })).toBeDisabled();
    await expect(panel.locator("#ekey-startTime")).toHaveValue("08:00");
    await expect(panel.locator("#ekey-endTime")).toHaveValue("18:00");
    await expect(panel.getByRole("checkbox", { name: "Never expires" })).toBeChecked();
    await panel.getByRole("button", { name: "Assign" }).click();
    await expect(page.getByText("E-key assigned successfully").first()).toBeVisible();
    await expect(panel.locator("li", { hasText: group }).first()).toBeVisible();
  });

  test("warns when a window crosses a daylight-saving change, in the key's zone", async ({ page }) => {
    // The preview runs on the viewer's clock: three days before Europe/Madrid springs forward (2027-03-28).
    await page.clock.setFixedTime(new Date("2027-03-25T10:00:00Z"));
    await page.goto(`/modifyUser?id=${USER}`);
    const panel = page.getByRole("region", { name: "E-keys" });
    await panel.locator("#ekey-key").selectOption({ index: 1 });
    await panel.getByRole("radio", { name: "Custom" }).check();
    const preview = page.getByTestId("ekey-preview");
    await expect(preview.getByText(/daylight-saving change in Europe\/Madrid/)).toBeVisible();

    // A daytime window never contains the 02:00 switch: no warning.
    await panel.getByRole("checkbox", { name: "All day" }).click();
    await panel.locator("#ekey-startTime").fill("09:00");
    await panel.locator("#ekey-endTime").fill("17:00");
    await expect(preview).toContainText("09:00 →");
    await expect(preview.getByText(/daylight-saving change/)).toHaveCount(0);
  });
});

test("e-key panel in Spanish", async ({ page, loginAs }) => {
  USER = (await (await adminApi(page.request)).createUser("Ana", `Llaves${unique()}`)).id;
  await loginAs("acme");
  await chooseLanguage(page, "es");
  await page.goto(`/modifyUser?id=${USER}`);
  const panel = page.getByRole("region", { name: "Llaves electrónicas" });
  await panel.getByRole("button", { name: "Asignar" }).click();
  await expect(panel.getByText("Seleccione una llave electrónica o un grupo")).toBeVisible();

  // A custom window's times are 24-hour text fields, and the assignment is a success toast.
  await panel.locator("#ekey-key").selectOption({ index: 1 });
  await panel.getByRole("radio", { name: "Personalizado" }).check();
  await panel.getByRole("checkbox", { name: "Todo el día" }).click();
  await expect(panel.locator("#ekey-startTime")).toHaveAttribute("type", "text");
  await panel.locator("#ekey-startTime").fill("2200");
  await panel.locator("#ekey-endTime").fill("06:00");
  await expect(panel.locator("#ekey-startTime")).toHaveValue("22:00");
  await expect(page.getByText(/¿Abriría el…\? \(hora de .+\)/)).toBeVisible();
  await panel.getByRole("button", { name: "Asignar" }).click();
  await expect(page.locator("li[data-type]").filter({ hasText: "Llave electrónica asignada correctamente" })).toHaveAttribute("data-type", "success");
});

test.describe("fobs given with a key", () => {
  for (const lang of ["en", "es"] as const) {
    test(`a fob is given with a key, shown on it, and refused for another user of the company (${lang})`, async ({ page, loginAs }) => {
      const api = await adminApi(page.request);
      const holder = (await api.createUser("Fay", `Fob${unique()}`)).id;
      const other = (await api.createUser("Gus", `Fob${unique()}`)).id;
      const fob = `F-${unique()}`;
      await loginAs("acme");
      await chooseLanguage(page, lang);
      const text =
        lang === "en"
          ? {
              region: "E-keys",
              fob: "Fob number",
              assign: "Assign",
              done: "E-key assigned successfully",
              taken: "This fob number is already given to another user in this company",
            }
          : {
              region: "Llaves electrónicas",
              fob: "Número de llavero",
              assign: "Asignar",
              done: /asignad/i,
              taken: "Este número de llavero ya está asignado a otro usuario de esta empresa",
            };

      await page.goto(`/modifyUser?id=${holder}`);
      let panel = page.getByRole("region", { name: text.region });
      await panel.locator("#ekey-key").selectOption({ index: 1 });
      await panel.getByLabel(text.fob).fill(fob);
      await panel.getByRole("button", { name: text.assign }).click();
      await expect(page.getByText(text.done).first()).toBeVisible();
      await expect(panel.locator("li", { hasText: fob })).toBeVisible();
      await keepScreenshot(page, `ekey-fob-given-${lang}`);

      await page.goto(`/modifyUser?id=${other}`);
      panel = page.getByRole("region", { name: text.region });
      await panel.locator("#ekey-key").selectOption({ index: 1 });
      await panel.getByLabel(text.fob).fill(fob);
      await panel.getByRole("button", { name: text.assign }).click();
      await expect(panel.getByText(text.taken)).toBeVisible();
      await expect(panel.locator("li", { hasText: fob })).toHaveCount(0);
      await keepScreenshot(page, `ekey-fob-taken-${lang}`);
    });
  }
});
