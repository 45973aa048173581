import { expect, test, unique } from "./fixtures";

// Demo data: ACME has devices 1-12, its default zone is Europe/Madrid; Alice Admin is user 3.
// Each test creates the alert it changes, so no test depends on another spec's changes.

const texts = {
  en: {
    list: "Alerts",
    add: "Add alert",
    name: "Display name",
    activity: "Activity",
    next: "Next",
    devices: "Devices",
    targetUsers: "Target users",
    schedule: "Custom",
    startTime: "Start time",
    endTime: "End time",
    allDay: "All day",
    zone: "Time zone",
    emails: "Other email addresses",
    save: "Save",
    required: "Display name is required",
    recipientsRequired: "At least one email or recipient is required",
    created: "Alert Created",
    modified: "Alert Modified",
    deleted: "Alert deleted",
    test: "Send test email",
    send: "Send",
    sent: "Email Sent",
    open: (n: string) => `Open alert ${n}`,
    del: (n: string) => `Delete ${n}`,
    confirm: "Delete",
    caption: "Alerts of the company",
    activityName: "Access Denied (Device)",
  },
  es: {
    list: "Alertas",
    add: "Añadir alerta",
    name: "Nombre visible",
    activity: "Actividad",
    next: "Siguiente",
    devices: "Dispositivos",
    targetUsers: "Usuarios afectados",
    schedule: "Personalizado",
    startTime: "Hora de inicio",
    endTime: "Hora de fin",
    allDay: "Todo el día",
    zone: "Zona horaria",
    emails: "Otras direcciones de correo",
    save: "Guardar",
    required: "El nombre visible es obligatorio",
    recipientsRequired: "Se necesita al menos un correo o destinatario",
    created: "Alerta creada",
    modified: "Alerta modificada",
    deleted: "Alerta eliminada",
    test: "Enviar correo de prueba",
    send: "Enviar",
    sent: "Correo enviado",
    open: (n: string) => `Abrir la alerta ${n}`,
    del: (n: string) => `Eliminar ${n}`,
    confirm: "Eliminar",
    caption: "Alertas de la empresa",
    activityName: "Access Denied (Device)",
  },
};

for (const lang of ["en", "es"] as const) {
  const x = texts[lang];
  test(`alerts (${lang}): create, modify and delete an alert`, async ({ page, loginAs }) => {
    const name = `Night doors ${unique()}`;
    await loginAs("acme", lang);
    await page.goto("/");
    await page.getByTestId("tile-alerts").click();
    await expect(page.getByRole("heading", { level: 1, name: x.list })).toBeVisible();
    await page.getByRole("link", { name: x.add }).click();
    await expect(page).toHaveURL(/\/addAlert$/);

    // Step 1 of 4: nothing filled, saving shows the spec's messages on the step with the first error.
    await page.getByRole("button", { name: x.add, exact: true }).click();
    await expect(page.getByText(x.required)).toBeVisible();
    await page.getByLabel(x.name).fill(name);
    await page.getByLabel(x.activity).selectOption({ label: x.activityName });
    await page.getByRole("button", { name: x.next }).click();

    // Step 2: Access Denied asks for target users and devices.
    await page.getByLabel(x.targetUsers).selectOption("any");
    await page.getByLabel(x.devices).selectOption(["2", "4"]);
    await page.getByRole("button", { name: x.next }).click();

    // Step 3: a custom schedule starts as today, never ending, every day, all day.
    await page.getByRole("radio", { name: x.schedule }).check();
    await expect(page.getByLabel(x.startTime)).toBeDisabled();
    await page.getByRole("checkbox", { name: x.allDay }).click();
    await page.getByLabel(x.startTime).fill("22:00");
    await page.getByLabel(x.endTime).fill("06:00");
    await expect(page.getByLabel(x.zone).locator("option:checked")).toHaveText("Europe/Madrid");
    await page.getByRole("button", { name: x.next }).click();

    // Step 4: recipients; without one the save is refused.
    await page.getByRole("button", { name: x.add, exact: true }).click();
    await expect(page.getByText(x.recipientsRequired)).toBeVisible();
    await page.getByLabel(x.emails).fill("night@acme.example, NIGHT@acme.example");
    await page.getByRole("button", { name: x.test }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: x.send }).click();
    await expect(page.getByRole("status").filter({ hasText: x.sent })).toBeVisible();
    await page.getByRole("button", { name: x.add, exact: true }).click();

    await expect(page).toHaveURL(/\/modifyAlert\?id=\d+/);
    await expect(page.getByText(x.created, { exact: true })).toBeVisible();
    await expect(page.getByLabel(x.name)).toHaveValue(name);

    // Modify: rename and save; the form reloads with the new name.
    await page.getByLabel(x.name).fill(`${name} (weekend)`);
    await page.getByRole("button", { name: x.save, exact: true }).click();
    await expect(page.getByText(x.modified, { exact: true })).toBeVisible();
    await expect(page.getByLabel(x.name)).toHaveValue(`${name} (weekend)`);

    // The list shows it; delete asks with the alert's name.
    await page.goto("/alerts?pageSize=100");
    const table = page.getByRole("table", { name: x.caption });
    await table.getByRole("button", { name: x.del(`${name} (weekend)`) }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText(`${name} (weekend)`);
    await dialog.getByRole("button", { name: x.confirm }).click();
    await expect(page.getByText(x.deleted, { exact: true })).toBeVisible();
    await expect(table.getByRole("link", { name: x.open(`${name} (weekend)`) })).toHaveCount(0);
  });
}

test("alerts: the read-only role sees the list without add or delete", async ({ page, loginAs }) => {
  await loginAs("auditor");
  await page.goto("/alerts");
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add alert" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete / })).toHaveCount(0);
  expect((await page.goto("/addAlert"))?.status()).toBe(403);
  await page.goto("/modifyAlert?id=1");
  await expect(page.getByLabel("Display name")).toHaveValue("Server room after hours");
  await expect(page.getByLabel("Display name")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
});
