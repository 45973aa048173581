import { demoDates, isoDay } from "../../db/seed/clock";
import { adminApi, expect, seedNow, test } from "./fixtures";

// Demo data: ACME has settings (Europe/Madrid, scheduled open on, FPI on, reset by super admin
// with contact phone 5550000003), Monday to Friday open 08:00-18:00, exceptions on the next Christmas
// and New Year's Eve (db/seed/clock.ts), and three fob programmers of which Reception Programmer is assigned. Device 1 has
// scheduled open. Each test first puts those back through the admin API, so it does not depend on
// an earlier test or run. Other specs sign in to ACME and rely on the admin reset mode, so neither
// the reset mode nor two-factor sign-in is changed here.

test.describe("company settings", () => {
  test.beforeEach(async ({ page }) => (await adminApi(page.request)).resetAcmeSettings());

  test("shows the mode's extra field, checks input, and saves", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/companySettings");
    await expect(page.getByRole("heading", { name: "Company settings" })).toBeVisible();
    await expect(page.getByLabel("Default time zone").locator("option:checked")).toHaveText("Madrid (Europe)");
    await expect(page.getByRole("switch", { name: "Scheduled open" })).toBeChecked();
    await expect(page.getByRole("link", { name: "Set scheduled open hours" })).toBeVisible();
    // The firmware controls say what they do at the door (decision 0116).
    await expect(page.getByLabel("Allowed to update firmware")).toHaveAccessibleDescription(/while updates are not forced.*Installer Only: users with the installer privilege/);
    await expect(page.getByRole("switch", { name: "Force firmware update" })).toHaveAccessibleDescription(
      /as soon as it reports another version.*Off: a board updates only after an allowed user starts/,
    );

    const mode = page.getByLabel("Password reset security");
    await expect(mode.locator("option:checked")).toHaveText("Super admin approval");
    // The contact phone is stored as E.164; a +1 number shows in the spec's 999-999-9999 mask.
    const phone = page.getByRole("textbox", { name: "Contact phone" });
    await expect(page.getByRole("combobox", { name: "Contact phone country" })).toHaveValue("United States (+1)");
    await expect(phone).toHaveValue("555-000-0003");
    await mode.selectOption("text");
    await expect(phone).toHaveCount(0);
    await expect(page.getByLabel("Secondary action")).toBeVisible();
    await mode.selectOption("admin");

    await phone.fill("555");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Contact phone must have at least 10 digits")).toBeVisible();

    await phone.fill("555-000-0003");
    await page.getByLabel("Temporary e-key duration (hours)").selectOption("8");
    await page.getByRole("switch", { name: "Require biometric authentication" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Company Settings Updated", { exact: true })).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("Temporary e-key duration (hours)")).toHaveValue("8");
    await expect(page.getByRole("combobox", { name: "Default phone country code" })).toHaveValue("United States (+1)");
    await expect(page.getByRole("switch", { name: "Require biometric authentication" })).toBeChecked();
    await expect(phone).toHaveValue("555-000-0003");
  });

  test("firmware: an install window needs both ends, and it and the rollout opt-out date are saved", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/companySettings");
    const from = page.getByLabel("From", { exact: true });
    const until = page.getByLabel("Until", { exact: true });
    const optOut = page.getByLabel("Sit out staged rollouts until");
    await expect(optOut).toHaveAccessibleDescription(/keep their type's active release while a new one is rolled out in waves/);
    await from.fill("01:00");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Set both ends of the install window, or neither")).toBeVisible();
    await until.fill("05:00");
    await optOut.fill("2027-01-15");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Company Settings Updated", { exact: true })).toBeVisible();
    await page.reload();
    await expect(from).toHaveValue("01:00");
    await expect(until).toHaveValue("05:00");
    await expect(optOut).toHaveValue("2027-01-15");
  });

  test("activity log: the days at hand, the retention and its action are checked and saved", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/companySettings");
    const hot = page.getByLabel("Days kept at hand");
    const days = page.getByLabel("Days to keep activity");
    const anonymise = page.getByRole("radio", { name: "Anonymise people" });
    await expect(hot).toHaveValue("90");
    await expect(page.getByRole("radio", { name: "Indefinitely" })).toBeChecked();
    // Kept indefinitely, nothing expires: the days and the action wait until a limit is chosen.
    await expect(days).toBeDisabled();
    await expect(page.getByRole("radio", { name: "Delete the entries" })).toBeChecked();
    await expect(anonymise).toBeDisabled();
    await expect(anonymise).toHaveAccessibleDescription("Entries older than that stay, without the people in them.");

    await page.getByRole("radio", { name: "For a number of days" }).check();
    await expect(days).toBeEnabled();
    await hot.fill("200");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Choose from 7 to 180 days")).toBeVisible();
    await expect(page.getByText("Choose from 1 to 3650 days")).toBeVisible();
    await expect(days).toHaveAccessibleDescription(/Choose from 1 to 3650 days/);

    // Long values only: the company's store may act on them while other specs read ACME's log.
    await hot.fill("180");
    await days.fill("3650");
    await anonymise.check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Company Settings Updated", { exact: true })).toBeVisible();
    await page.reload();
    await expect(hot).toHaveValue("180");
    await expect(page.getByRole("radio", { name: "For a number of days" })).toBeChecked();
    await expect(days).toHaveValue("3650");
    await expect(anonymise).toBeChecked();

    await page.getByRole("radio", { name: "Indefinitely" }).check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Company Settings Updated", { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("radio", { name: "Indefinitely" })).toBeChecked();
    await expect(days).toHaveValue("");
    await expect(anonymise).toBeChecked();
  });

  test("scheduled open: Monday's hours and a new exception reach the device details", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/companySettings");
    await page.getByRole("link", { name: "Set scheduled open hours" }).click();
    await expect(page).toHaveURL(/\/scheduleOpen$/);
    await expect(page.getByRole("checkbox", { name: "Open on Monday" })).toBeChecked();
    await expect(page.getByTestId("schedule-zone")).toHaveText("Times are in the company's time zone: Madrid (Europe).");

    // Unchecking a day disables and clears its times.
    const saturday = page.getByRole("checkbox", { name: "Open on Saturday" });
    await saturday.click();
    await page.getByLabel("Open time, Saturday").fill("10:00");
    await saturday.click();
    await expect(page.getByLabel("Open time, Saturday")).toBeDisabled();
    await expect(page.getByLabel("Open time, Saturday")).toHaveValue("");

    await page.getByLabel("Open time, Monday").fill("07:00");
    await page.getByLabel("Close time, Monday").fill("06:30");
    await page.getByRole("button", { name: "Add exception" }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Close time must be after open time")).toBeVisible();
    await expect(page.getByText("Exception date is required or invalid")).toBeVisible();

    await page.getByLabel("Close time, Monday").fill("19:00");
    // The demo's two exceptions in date order, and a day after both.
    const { christmas, newYearsEve } = demoDates(seedNow());
    const [first, second] = [christmas, newYearsEve].sort();
    const added = isoDay(Date.parse(second), 6);
    await page.getByLabel("Exception 3 date").fill(added);
    await page.getByRole("checkbox", { name: "Exception 3 open" }).click();
    await expect(page.getByLabel("Exception 3 open time")).toBeDisabled();

    // Deleting asks first; Escape cancels and keeps the row.
    await page.getByRole("button", { name: "Delete exception 1" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText(first);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId("exceptions").locator("tbody tr")).toHaveCount(3);
    await page.getByRole("button", { name: "Delete exception 1" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("exceptions").locator("tbody tr")).toHaveCount(2);

    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Default Scheduled Open Changed", { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Open time, Monday")).toHaveValue("07:00");
    await expect(page.getByLabel("Close time, Monday")).toHaveValue("19:00");
    await expect(page.getByLabel("Exception 1 date")).toHaveValue(second);
    await expect(page.getByLabel("Exception 2 date")).toHaveValue(added);

    await page.goto("/deviceDetails?id=1");
    await expect(page.getByText("07:00")).toBeVisible();
    await expect(page.getByTestId("exceptions")).toContainText(added);
    await expect(page.getByTestId("exceptions")).not.toContainText(first);
  });

  for (const { lang, close, submit, message } of [
    { lang: "en", close: "Close time, Monday", submit: "Submit", message: "Close time must be after open time" },
    { lang: "es", close: "Hora de cierre, lunes", submit: "Enviar", message: "La hora de cierre debe ser posterior a la de apertura" },
  ] as const) {
    test(`scheduled open: a time refused by the server comes back on its field (${lang})`, async ({ page, loginAs }) => {
      await loginAs("acme", lang);
      await page.goto(`/scheduleOpen?lng=${lang}`);
      // The browser posts valid hours; on the way, Monday closes before it opens, so only the server can refuse it.
      await page.route(/\/scheduleOpen\.data/, (route) => {
        const body = new URLSearchParams(route.request().postData() ?? "");
        body.set("schedule_opens[0].closeTime", "06:30");
        return route.continue({ postData: body.toString() });
      });
      await page.getByRole("button", { name: submit }).click();

      const closeMonday = page.getByLabel(close);
      await expect(closeMonday).toHaveAttribute("aria-invalid", "true");
      await expect(closeMonday).toHaveAccessibleDescription(message);
      await expect(closeMonday).toHaveValue("18:00");
      await closeMonday.fill("19:00");
      await expect(closeMonday).not.toHaveAttribute("aria-invalid", "true");
    });
  }

  test("fob programmers: entries move across with click and keyboard, then save", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/setFobProgrammers");
    const available = page.getByTestId("available-programmers");
    const assigned = page.getByTestId("assigned-programmers");
    await expect(assigned.getByRole("button")).toHaveText(["Reception Programmer"]);

    await assigned.getByRole("button", { name: "Reception Programmer" }).click();
    await expect(page.getByText("No assigned programmers")).toBeVisible();
    await available.getByRole("button", { name: "Facilities Programmer" }).click();
    await available.getByRole("button", { name: "Security Desk Programmer" }).focus();
    await page.keyboard.press("Enter");
    await expect(assigned.getByRole("button")).toHaveText(["Facilities Programmer", "Security Desk Programmer"]);

    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Changed Fob Programmers", { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("assigned-programmers").getByRole("button")).toHaveText(["Facilities Programmer", "Security Desk Programmer"]);
    await expect(page.getByTestId("available-programmers").getByRole("button")).toHaveText(["Reception Programmer"]);
  });

  test("Spanish texts", async ({ page, loginAs }) => {
    await loginAs("acme", "es");
    await page.goto("/companySettings");
    await expect(page.getByRole("heading", { name: "Configuración de la empresa" })).toBeVisible();
    await expect(page.getByLabel("Zona horaria predeterminada")).toBeVisible();
    await expect(page.getByLabel("Pueden actualizar el firmware")).toHaveAccessibleDescription(/mientras no se fuerza.*Solo instaladores/);
    await expect(page.getByRole("switch", { name: "Forzar la actualización del firmware" })).toHaveAccessibleDescription(/sin que nadie lo inicie.*Desactivada/);
    // The zone picker searches by city.
    await page.getByLabel("Buscar por ciudad o región").fill("lisboa lisbon");
    await expect(page.getByText("Ninguna zona coincide")).toBeVisible();
    await page.getByLabel("Buscar por ciudad o región").fill("lisbon");
    await expect(page.getByLabel("Zona horaria predeterminada").locator("option", { hasText: "Lisbon (Europe)" })).toHaveCount(1);
    await expect(page.getByLabel("Días de acceso inmediato")).toHaveValue("90");
    await expect(page.getByRole("radio", { name: "Anonimizar a las personas" })).toHaveAccessibleDescription(
      "Las entradas más antiguas se conservan, sin las personas que aparecen en ellas.",
    );
    await page.goto("/scheduleOpen");
    await expect(page.getByRole("checkbox", { name: "Abrir el lunes" })).toBeVisible();
    // The hours are the company's zone's, said so, and typed as 24-hour times.
    await expect(page.getByTestId("schedule-zone")).toHaveText("Las horas son de la zona horaria de la empresa: Madrid (Europe).");
    await expect(page.getByLabel("Hora de cierre, lunes")).toHaveAttribute("type", "text");
    await expect(page.getByLabel("Hora de cierre, lunes")).toHaveValue(/^\d{2}:\d{2}$/);
    await page.goto("/setFobProgrammers");
    await expect(page.getByRole("heading", { name: "Programadores disponibles" })).toBeVisible();
  });

  test("a company with scheduled open off is told the hours do not apply yet", async ({ page, loginAs }) => {
    await loginAs("beta");
    await page.goto("/scheduleOpen");
    await expect(page.getByRole("note")).toHaveText(/Scheduled open is switched off/);
    await expect(page.getByRole("checkbox", { name: "Open on Monday" })).not.toBeChecked();
  });

  test("a role without the module is refused", async ({ page, loginAs }) => {
    await loginAs("auditor");
    const res = await page.goto("/companySettings");
    expect(res?.status()).toBe(403);
  });
});
