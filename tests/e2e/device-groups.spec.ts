import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, test, unique } from "./fixtures";

// Demo data: ACME has devices 1-12 and its company settings default to Europe/Madrid; group 5
// belongs to BETA. Each test creates the groups it changes through the admin API, so no test
// depends on another spec's changes or on the order the files run in.

test.describe("device groups", () => {
  test("list: status icons, weekdays, hide inactive, add button", async ({ page, loginAs }) => {
    const tag = unique();
    const api = await adminApi(page.request);
    await api.createGroup(`Office ${tag}`); // Monday to Friday 08:00-18:00, Europe/Madrid
    await api.createGroup(`Weekend ${tag}`, {
      status: 3,
      sch_monday: "0",
      sch_tuesday: "0",
      sch_wednesday: "0",
      sch_thursday: "0",
      sch_friday: "0",
      sch_saturday: "1",
      sch_sunday: "1",
    });
    await loginAs("acme");
    await page.goto("/deviceGroups");
    const table = page.getByRole("table", { name: "Device groups of the company" });
    await expect(table.getByRole("link", { name: `Inactive: open Weekend ${tag}` })).toBeVisible();
    await expect(table.getByRole("link", { name: `Active: open Office ${tag}` })).toBeVisible();
    const office = table.locator("tbody tr", { hasText: `Office ${tag}` });
    await expect(office).toContainText("08:00");
    await expect(office).toContainText("Europe/Madrid");
    await expect(office.getByRole("img", { name: "Yes" })).toHaveCount(5);

    await page.getByRole("switch", { name: "Hide inactive" }).click();
    await expect(page).toHaveURL(/hideInactive=1/);
    await expect(table.locator("tbody tr", { hasText: `Weekend ${tag}` })).toHaveCount(0);
    await expect(table.locator("tbody tr", { hasText: `Office ${tag}` })).toHaveCount(1);
    await expect(table.getByRole("link", { name: /^Inactive: / })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Add device group" })).toBeVisible();
  });

  test("add: validation, all day, moving lists, create another, then return", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/addDeviceGroup");
    await expect(page.getByLabel("Time zone")).toHaveValue(/\d+/);
    await expect(page.getByLabel("Time zone").locator("option:checked")).toHaveText("Madrid (Europe)");

    await page.getByRole("button", { name: "Add and return to device groups" }).click();
    await expect(page.getByText("Display name is required")).toBeVisible();
    await expect(page.getByText("Full name is required")).toBeVisible();
    await expect(page.getByText("Please select at least one day")).toBeVisible();
    await expect(page.getByText("Please select at least one device")).toBeVisible();
    await expect(page.getByText("Start and End time are required")).toBeVisible();

    await page.getByLabel("Display name").fill("Cleaners");
    await page.getByLabel("Full name").fill("Cleaning Crew");
    await page.getByLabel("Start time").fill("06:00");
    await page.getByRole("checkbox", { name: "All day" }).click();
    await expect(page.getByLabel("Start time")).toBeDisabled();
    await expect(page.getByLabel("Start time")).toHaveValue("");
    await page.getByRole("checkbox", { name: "Monday" }).click();

    const available = page.getByTestId("available-devices");
    await available.getByRole("button", { name: /Main Entrance/ }).click();
    await available.getByRole("button", { name: /Archive/ }).focus();
    await page.keyboard.press("Enter");
    const inGroup = page.getByTestId("group-devices");
    await expect(inGroup.getByRole("button")).toHaveCount(2);
    await inGroup.getByRole("button", { name: /Archive/ }).click();
    await expect(inGroup.getByRole("button")).toHaveCount(1);

    await page.getByRole("button", { name: "Add and create another" }).click();
    await expect(page.getByText("Device Group Created", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/addDeviceGroup$/);
    await expect(page.getByLabel("Display name")).toHaveValue("");
    await expect(page.getByTestId("group-devices")).toHaveCount(0);
    await expect(available.getByRole("button")).toHaveCount(12);

    await page.getByLabel("Display name").fill("Guards");
    await page.getByLabel("Full name").fill("Guard Rounds");
    await page.getByLabel("Start time").fill("22:00");
    await page.getByLabel("End time").fill("06:00");
    await page.getByRole("checkbox", { name: "Sunday" }).click();
    await available.getByRole("button", { name: /Garage/ }).click();
    await page.getByRole("button", { name: "Add and return to device groups" }).click();
    await expect(page).toHaveURL(/\/deviceGroups$/);
    const table = page.getByRole("table", { name: "Device groups of the company" });
    await expect(table.locator("tbody tr", { hasText: "Guard Rounds" })).toContainText("22:00");
    await expect(table.locator("tbody tr", { hasText: "Cleaning Crew" })).toContainText("All day");
  });

  test("modify: load by id, save, deactivate and cancel", async ({ page, loginAs }) => {
    const labs = `Labs ${unique()}`;
    const { id } = await (await adminApi(page.request)).createGroup(labs, { is_all_day: "1", start_at: "", end_at: "" }, 3);
    await loginAs("acme");
    await page.goto("/deviceGroups");
    await page.getByRole("link", { name: `Active: open ${labs}` }).click();
    await expect(page).toHaveURL(new RegExp(`/modifyDeviceGroup\\?id=${id}$`));
    await expect(page.getByLabel("Full name")).toHaveValue(labs);
    await expect(page.getByRole("checkbox", { name: "All day" })).toBeChecked();
    await expect(page.getByTestId("group-devices").getByRole("button")).toHaveCount(3);

    await page.getByLabel("Full name").fill(`${labs} and Workshops`);
    await page.getByRole("switch", { name: "Deactivate" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/deviceGroups$/);
    await expect(page.getByText("Device Group De-Activated", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: `Inactive: open ${labs} and Workshops` })).toBeVisible();

    await page.goto(`/modifyDeviceGroup?id=${id}`);
    await page.getByRole("switch", { name: "Deactivate" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("link", { name: `Active: open ${labs} and Workshops` })).toBeVisible();

    await page.goto(`/modifyDeviceGroup?id=${id}`);
    await page.getByRole("link", { name: "Cancel and return" }).click();
    await expect(page).toHaveURL(/\/deviceGroups$/);

    await page.goto("/modifyDeviceGroup?id=5");
    await expect(page).toHaveURL(/\/deviceGroups$/);
  });

  test("delete asks for confirmation", async ({ page, loginAs }) => {
    const crew = `Crew ${unique()}`;
    await (await adminApi(page.request)).createGroup(crew, { status: 3 });
    await loginAs("acme");
    await page.goto("/deviceGroups");
    const table = page.getByRole("table", { name: "Device groups of the company" });
    await table.getByRole("button", { name: `Delete ${crew}` }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText(crew);
    await dialog.locator("form").getByRole("button", { name: "Cancel" }).click();
    await expect(table.locator("tbody tr", { hasText: crew })).toHaveCount(1);

    await table.getByRole("button", { name: `Delete ${crew}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Removed Device Group", { exact: true })).toBeVisible();
    await expect(table.locator("tbody tr", { hasText: crew })).toHaveCount(0);
  });

  test("a role without the device_group module is refused", async ({ page, loginAs }) => {
    await loginAs("auditor");
    const res = await page.goto("/deviceGroups");
    expect(res?.status()).toBe(403);
  });

  test("in Spanish: labels and validation messages", async ({ page, loginAs }) => {
    await loginAs("acme", "es");
    await page.goto("/addDeviceGroup?lng=es");
    await expect(page.getByRole("heading", { level: 1, name: "Añadir grupo de dispositivos" })).toBeVisible();
    await page.getByRole("button", { name: "Añadir y volver a grupos de dispositivos" }).click();
    await expect(page.getByText("El nombre visible es obligatorio")).toBeVisible();
    await expect(page.getByText("Seleccione al menos un día")).toBeVisible();
    await expect(page.getByText("Seleccione al menos un dispositivo")).toBeVisible();
  });
});

const TIMES_TEXT = {
  en: {
    zone: "Time zone",
    search: "Find a zone by city or region",
    start: "Start time",
    end: "End time",
    timesIn: "Times are in New York (America).",
    overnight: "22:00 → 06:00 the next day (New York (America))",
  },
  es: {
    zone: "Zona horaria",
    search: "Buscar por ciudad o región",
    start: "Hora de inicio",
    end: "Hora de fin",
    timesIn: "Las horas son de New York (America).",
    overnight: "22:00 → 06:00 del día siguiente (New York (America))",
  },
} as const;

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`group times: the zone is found by city and named, an overnight window says so, Spanish times are 24-hour (${lang}, ${width} px)`, async ({ page, loginAs }) => {
    const x = TIMES_TEXT[lang];
    await page.setViewportSize({ width, height });
    await loginAs("acme", lang);
    await page.goto(`/addDeviceGroup?lng=${lang}`);
    const zone = page.getByLabel(x.zone);
    await page.getByLabel(x.search).fill("york");
    await expect(zone.locator("option", { hasText: "New York (America)" })).toHaveCount(1);
    await expect(zone.locator("option", { hasText: "Madrid (Europe)" })).toHaveCount(1); // the chosen zone stays listed
    await expect(zone.locator("option", { hasText: "Tokyo (Asia)" })).toHaveCount(0);
    await page.getByLabel(x.search).press("Enter");
    await expect(zone.locator("option:checked")).toHaveText("New York (America)");
    await expect(page.getByLabel(x.search)).toHaveValue("");
    // The canonical id finds it too.
    await page.getByLabel(x.search).fill("Asia/Tokyo");
    await expect(zone.locator("option", { hasText: "Tokyo (Asia)" })).toHaveCount(1);
    await page.getByLabel(x.search).press("Escape");
    await expect(zone.locator("option:checked")).toHaveText("New York (America)");

    const hint = page.getByTestId("group-times-hint");
    await expect(hint).toHaveText(x.timesIn);
    if (lang === "es") {
      // Spanish: a 24-hour text field, "2200" reads as 22:00 whatever the browser's own locale.
      await expect(page.getByLabel(x.start)).toHaveAttribute("type", "text");
      await page.getByLabel(x.start).fill("2200");
      await page.getByLabel(x.end).fill("6:00");
      await page.getByLabel(x.end).blur();
      await expect(page.getByLabel(x.start)).toHaveValue("22:00");
      await expect(page.getByLabel(x.end)).toHaveValue("06:00");
    } else {
      await page.getByLabel(x.start).fill("22:00");
      await page.getByLabel(x.end).fill("06:00");
    }
    await expect(hint).toContainText(x.overnight);
    await keepScreenshot(page, `group-times-${lang}`, { fullPage: true });
  });
}
