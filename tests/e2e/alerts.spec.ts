import type { Page } from "@playwright/test";
import { axeFindings } from "./axe";
import { adminApi, clockTag, expect, LANGUAGE_AND_WIDTH_RUNS, mailbox, runNow, test, unique } from "./fixtures";

// Demo data: ACME has devices 1-12, its default zone is Europe/Madrid; Alice Admin is user 3.
// Each test creates the alert it changes, so no test depends on another spec's changes.

/**
 * Chooses an entry of a chips picker from the keyboard: types the search into the combobox, moves the
 * highlight to the entry with the arrow keys and adds it with Enter.
 */
async function choose(page: Page, label: string, search: string, entry: string) {
  const box = page.getByRole("combobox", { name: label, exact: true });
  await box.focus();
  await box.pressSequentially(search);
  const option = page.getByRole("option", { name: entry, exact: true });
  await expect(option).toBeVisible();
  for (let i = 0; i < 20 && (await option.getAttribute("aria-selected")) !== "true"; i++) await page.keyboard.press("ArrowDown");
  await expect(option).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  // A chosen entry leaves the results; Escape closes the list.
  await expect(option).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("listbox")).toHaveCount(0);
}

/** Today in the company's zone on the run's clock: the date a fresh custom schedule starts on. */
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid", year: "numeric", month: "2-digit", day: "2-digit" }).format(runNow());

const texts = {
  en: {
    list: "Alerts",
    add: "Add alert",
    name: "Display name",
    activity: "Activities",
    next: "Next",
    devices: "Devices",
    targetUsers: "Target users",
    createdBy: "Created by users",
    schedule: "Custom",
    anyTime: "Any time",
    startDate: "Start date",
    endDate: "End date",
    neverEnds: "Never ends",
    days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    recipientUsers: "Users to notify",
    back: "Back",
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
    activitySearch: "Access den",
    forcedName: "Door Forced Open (Device)",
    forcedSearch: "forced",
    activityColumn: "Access Denied, Door Forced Open",
    passwordChanged: "Password Changed (Admin)",
    passwordSearch: "Password ch",
    anyUser: "Any user",
    targetUsersRequired: "Target users are required",
    removeLast: "Remove Door Forced Open",
    channel: "How Admin, Alice is told",
    text: "Text message",
    onHolidays: "On holidays",
    notOnHolidays: "Not on holidays",
    holidayCalendar: "Holiday calendar",
  },
  es: {
    list: "Alertas",
    add: "Añadir alerta",
    name: "Nombre visible",
    activity: "Actividades",
    next: "Siguiente",
    devices: "Dispositivos",
    targetUsers: "Usuarios afectados",
    createdBy: "Usuarios que la originan",
    schedule: "Personalizado",
    anyTime: "En cualquier momento",
    startDate: "Fecha de inicio",
    endDate: "Fecha de fin",
    neverEnds: "No termina nunca",
    days: ["Lunes", "Martes", "Miércoles", "Jueves", "Viernes", "Sábado", "Domingo"],
    recipientUsers: "Usuarios a avisar",
    back: "Atrás",
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
    activityName: "Acceso denegado (Dispositivo)",
    activitySearch: "Acceso den",
    forcedName: "Puerta forzada (Dispositivo)",
    forcedSearch: "forzada",
    activityColumn: "Acceso denegado, Puerta forzada",
    passwordChanged: "Contraseña cambiada (Administración)",
    passwordSearch: "Contraseña ca",
    anyUser: "Cualquier usuario",
    targetUsersRequired: "Los usuarios afectados son obligatorios",
    removeLast: "Quitar Puerta forzada",
    channel: "Cómo se avisa a Admin, Alice",
    text: "SMS",
    onHolidays: "En festivos",
    notOnHolidays: "No en festivos",
    holidayCalendar: "Calendario de festivos",
  },
};

// The date a new custom schedule starts on depends on the instant: this part alone runs at the fixed
// instants (in English; the date field's value does not depend on the language).
test("alerts: a new custom schedule starts today in the company's zone", { tag: clockTag() }, async ({ page, loginAs }) => {
  const x = texts.en;
  await loginAs("acme");
  await page.goto("/addAlert");
  await page.getByLabel(x.name).fill(`Today ${unique()}`);
  await choose(page, x.activity, x.activitySearch, x.activityName);
  await page.getByRole("button", { name: x.next }).click();
  await choose(page, x.targetUsers, x.anyUser.slice(0, 4), x.anyUser);
  await choose(page, x.devices, "Loading", "Loading Dock (LD2)");
  await page.getByRole("button", { name: x.next }).click();
  await page.getByRole("radio", { name: x.schedule }).check();
  await expect(page.getByLabel(x.startDate)).toHaveValue(today());
});

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  const x = texts[lang];
  test(`alerts (${lang}, ${width} px): create with chips from the keyboard and several activities, modify and delete`, async ({ page, loginAs }) => {
    const name = `Night doors ${unique()}`;
    await page.setViewportSize({ width, height });
    await loginAs("acme", lang);
    await page.goto("/");
    await page.getByTestId("tile-alerts").click();
    await expect(page.getByRole("heading", { level: 1, name: x.list })).toBeVisible();
    await page.getByRole("link", { name: x.add }).click();
    await expect(page).toHaveURL(/\/addAlert$/);

    // Step 1 of 4: "Next" checks the step and stays on it; saving shows the spec's messages.
    await page.getByRole("button", { name: x.next }).click();
    await expect(page.getByText(x.required)).toBeVisible();
    await expect(page.getByLabel(x.name)).toBeVisible();
    await page.getByLabel(x.name).fill(name);
    // The activities' alert_conditions decide the pickers: Password Changed (100) asks for created-by users only.
    await choose(page, x.activity, x.passwordSearch, x.passwordChanged);
    await page.getByRole("button", { name: x.next }).click();
    await expect(page.getByLabel(x.createdBy)).toBeVisible();
    await expect(page.getByLabel(x.targetUsers)).toHaveCount(0);
    await expect(page.getByLabel(x.devices)).toHaveCount(0);
    await page.getByRole("button", { name: x.back, exact: true }).click();
    // Backspace in the empty search removes the last chip; two activities make one alert.
    await page.getByRole("combobox", { name: x.activity, exact: true }).focus();
    await page.keyboard.press("Backspace");
    await choose(page, x.activity, x.activitySearch, x.activityName);
    await choose(page, x.activity, x.forcedSearch, x.forcedName);
    await expect(page.getByRole("button", { name: x.removeLast })).toBeVisible();
    await page.getByRole("button", { name: x.next }).click();

    // Step 2: Access Denied (011) asks for target users and devices, not created-by users; "Next" wants them.
    await expect(page.getByLabel(x.createdBy)).toHaveCount(0);
    await page.getByRole("button", { name: x.next }).click();
    await expect(page.getByText(x.targetUsersRequired)).toBeVisible();
    await choose(page, x.targetUsers, x.anyUser.slice(0, 4), x.anyUser);
    await expect(page.getByText(x.targetUsersRequired)).toHaveCount(0);
    await choose(page, x.devices, "Loading", "Loading Dock (LD2)");
    await choose(page, x.devices, "Lab A", "Lab A (LA4)");
    // The open list and the chips pass axe.
    await page.getByRole("combobox", { name: x.devices, exact: true }).press("ArrowDown");
    await expect(page.getByRole("listbox")).toBeVisible();
    expect(await axeFindings(page, { include: "main" })).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: x.next }).click();

    // Step 3: a custom schedule starts as today, never ending, every day, all day.
    const startDate = page.getByLabel(x.startDate);
    const endDate = page.getByLabel(x.endDate);
    const neverEnds = page.getByRole("checkbox", { name: x.neverEnds });
    const sunday = page.getByRole("checkbox", { name: x.days[6], exact: true });
    const expectFresh = async () => {
      await expect(startDate).toHaveValue(today());
      await expect(endDate).toHaveValue("");
      await expect(endDate).toBeDisabled();
      await expect(neverEnds).toBeChecked();
      for (const day of x.days) await expect(page.getByRole("checkbox", { name: day, exact: true })).toBeChecked();
      await expect(page.getByRole("checkbox", { name: x.allDay })).toBeChecked();
      await expect(page.getByLabel(x.startTime)).toBeDisabled();
      await expect(page.getByLabel(x.endTime)).toBeDisabled();
    };
    await page.getByRole("radio", { name: x.schedule }).check();
    await expectFresh();
    // Never-ends off enables the end date; on again clears and disables it.
    await neverEnds.click();
    await expect(endDate).toBeEnabled();
    await endDate.fill("2031-12-31");
    await neverEnds.click();
    await expect(endDate).toHaveValue("");
    await expect(endDate).toBeDisabled();
    // Changes are dropped when a schedule is chosen again.
    await startDate.fill("2031-01-05");
    await sunday.click();
    await expect(sunday).not.toBeChecked();
    await page.getByRole("radio", { name: x.anyTime }).check();
    await page.getByRole("radio", { name: x.schedule }).check();
    await expectFresh();
    // All-day off enables the times; on again clears and disables them.
    await page.getByRole("checkbox", { name: x.allDay }).click();
    await page.getByLabel(x.startTime).fill("09:00");
    await page.getByRole("checkbox", { name: x.allDay }).click();
    await expect(page.getByLabel(x.startTime)).toHaveValue("");
    await expect(page.getByLabel(x.startTime)).toBeDisabled();
    await page.getByRole("checkbox", { name: x.allDay }).click();
    if (lang === "es") {
      // Spanish times are 24-hour text whatever the browser's own time field would show: "2200" reads 22:00.
      await expect(page.getByLabel(x.startTime)).toHaveAttribute("type", "text");
      await page.getByLabel(x.startTime).fill("2200");
      await page.getByLabel(x.startTime).blur();
      await expect(page.getByLabel(x.startTime)).toHaveValue("22:00");
    } else await page.getByLabel(x.startTime).fill("22:00");
    await page.getByLabel(x.endTime).fill("06:00");
    await expect(page.getByLabel(x.zone).locator("option:checked")).toHaveText("Madrid (Europe)");
    await page.getByRole("button", { name: x.next }).click();

    // Step 4: recipients; without one the save is refused.
    await page.getByRole("button", { name: x.add, exact: true }).click();
    await expect(page.getByText(x.recipientsRequired)).toBeVisible();
    // A picked user and typed addresses; the duplicates (a typed copy of the picked user's address, case) are dropped.
    await choose(page, x.recipientUsers, "Admin", "Admin, Alice (admin@acme.example)");
    await page.getByLabel(x.emails).fill("night@acme.example, NIGHT@acme.example, admin@acme.example");
    await page.getByRole("button", { name: x.test }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: x.send }).click();
    await expect(page.getByRole("status").filter({ hasText: x.sent })).toBeVisible();
    // The test mail is delivered over SMTP to the run's mail server, once per distinct address.
    const testMails = async () => (await mailbox()).filter((m) => m.subject === `Test: alert ${name}`).flatMap((m) => m.to);
    await expect.poll(testMails, { timeout: 30_000 }).toEqual(expect.arrayContaining(["admin@acme.example", "night@acme.example"]));
    expect((await testMails()).sort()).toEqual(["admin@acme.example", "night@acme.example"]);
    await page.getByRole("button", { name: x.add, exact: true }).click();

    await expect(page).toHaveURL(/\/modifyAlert\?id=\d+/);
    await expect(page.getByText(x.created, { exact: true })).toBeVisible();
    await expect(page.getByLabel(x.name)).toHaveValue(name);
    await expect(page.getByLabel(x.emails)).toHaveValue("night@acme.example");
    await expect(page.getByLabel(x.startTime)).toHaveValue("22:00");
    await expect(page.getByRole("button", { name: lang === "en" ? "Remove Admin, Alice" : "Quitar Admin, Alice", includeHidden: true })).toBeAttached();
    await expect(page.getByRole("button", { name: x.removeLast, includeHidden: true })).toBeAttached();

    // Modify: rename and save; the form reloads with the new name.
    await page.getByLabel(x.name).fill(`${name} (weekend)`);
    await page.getByRole("button", { name: x.save, exact: true }).click();
    await expect(page.getByText(x.modified, { exact: true })).toBeVisible();
    await expect(page.getByLabel(x.name)).toHaveValue(`${name} (weekend)`);

    // The list shows it; delete asks with the alert's name.
    await page.goto("/alerts?pageSize=100");
    const table = page.getByRole("table", { name: x.caption });
    await expect(table.getByRole("row", { name: new RegExp(`${name} \\(weekend\\)`) })).toContainText(x.activityColumn);
    await table.getByRole("button", { name: x.del(`${name} (weekend)`) }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText(`${name} (weekend)`);
    await dialog.getByRole("button", { name: x.confirm }).click();
    await expect(page.getByText(x.deleted, { exact: true })).toBeVisible();
    await expect(table.getByRole("link", { name: x.open(`${name} (weekend)`) })).toHaveCount(0);
  });
}

for (const lang of ["en", "es"] as const) {
  const x = texts[lang];
  test(`alerts (${lang}): an "any time" alert switched to Custom on modify gets the company's zone and may skip holidays; a saved zone is kept`, async ({ page, loginAs }) => {
    const admin = await adminApi(page.request, "acme");
    const name = `Any time ${unique()}`;
    const calendar = `Alert holidays ${unique()}`;
    const { payload: cal } = await admin.call<{ payload: { id: number } }>("POST", "/holidays/addCalendar", { name: calendar });
    const { payload } = await admin.call<{ payload: { id: number } }>("POST", "/user/addAlert", {
      displayName: name,
      activity: "Low Battery",
      devices: [{ id: null, type: "Any Device" }],
      schedule: "any",
      emails: ["anytime@acme.example"],
    });
    await loginAs("acme", lang);
    await page.goto(`/modifyAlert?id=${payload.id}`);
    await page.getByRole("button", { name: /^3\. / }).click();
    await expect(page.getByRole("radio", { name: x.anyTime })).toBeChecked();
    await page.getByRole("radio", { name: x.schedule }).check();
    const zone = page.getByLabel(x.zone);
    await expect(zone.locator("option:checked")).toHaveText("Madrid (Europe)");
    // The custom schedule follows a holiday calendar: "not on holidays" asks for the calendar.
    await page.getByLabel(x.onHolidays).selectOption({ label: x.notOnHolidays });
    await page.getByLabel(x.holidayCalendar).selectOption({ label: calendar });
    await page.getByRole("button", { name: x.save, exact: true }).click();
    await expect(page.getByText(x.modified, { exact: true })).toBeVisible();
    const { payload: custom } = await admin.call<{ payload: { schedule: string; time_zone: { name: string } | null } }>("GET", `/user/getAlertDetails?id=${payload.id}`);
    expect(custom).toMatchObject({ schedule: "custom", time_zone: { name: "Europe/Madrid" }, on_holidays: "closed", holiday_calendar_id: cal.id });

    // Another zone saved stays that zone: the company's default never replaces it.
    await page.getByRole("button", { name: /^3\. / }).click();
    await zone.selectOption({ label: "New York (America)" });
    await page.getByRole("button", { name: x.save, exact: true }).click();
    // The first save's toast may still show: wait for the second save itself, not for a toast.
    await expect
      .poll(async () => (await admin.call<{ payload: { time_zone: { name: string } | null } }>("GET", `/user/getAlertDetails?id=${payload.id}`)).payload.time_zone?.name)
      .toBe("America/New_York");
    await page.reload();
    await page.getByRole("button", { name: /^3\. / }).click();
    await expect(zone.locator("option:checked")).toHaveText("New York (America)");
    await expect(page.getByLabel(x.holidayCalendar).locator("option:checked")).toHaveText(calendar);
    await admin.call("DELETE", `/user/deleteAlert?id=${payload.id}`);
    await admin.call("DELETE", `/holidays/deleteCalendar?id=${cal.id}`);
  });
}

for (const { lang } of LANGUAGE_AND_WIDTH_RUNS) {
  const x = texts[lang];
  test(`alerts (${lang}): where the company allows texts, a user recipient can be told by text message`, async ({ page, loginAs }) => {
    const admin = await adminApi(page.request, "acme");
    const { payload: settings } = await admin.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
    await admin.call("PUT", "/settings/modifyCompanySettings", { ...settings, alert_texts: "1" });
    const { payload } = await admin.call<{ payload: { id: number } }>("POST", "/user/addAlert", {
      displayName: `By text ${unique()}`,
      activity: "Low Battery",
      devices: [{ id: null, type: "Any Device" }],
      schedule: "any",
      emails: [{ id: 3, type: "User" }],
    });
    try {
      await loginAs("acme", lang);
      await page.goto(`/modifyAlert?id=${payload.id}`);
      await page.getByRole("button", { name: /^4\. / }).click();
      await page.getByLabel(x.channel).selectOption({ label: x.text });
      await page.getByRole("button", { name: x.save, exact: true }).click();
      await expect(page.getByText(x.modified, { exact: true })).toBeVisible();
      const { payload: saved } = await admin.call<{ payload: { emails: { id: number; channel: string }[] } }>("GET", `/user/getAlertDetails?id=${payload.id}`);
      expect(saved.emails).toEqual([expect.objectContaining({ id: 3, channel: "text" })]);
      await page.reload();
      await page.getByRole("button", { name: /^4\. / }).click();
      await expect(page.getByLabel(x.channel).locator("option:checked")).toHaveText(x.text);
    } finally {
      await admin.call("PUT", "/settings/modifyCompanySettings", { ...settings, alert_texts: "0" });
      await admin.call("DELETE", `/user/deleteAlert?id=${payload.id}`);
    }
  });
}

test("alerts: the icon opens modify and the last-run cell opens the activity the alert matched", async ({ page, loginAs }) => {
  const admin = await adminApi(page.request, "acme");
  const name = `Who edits alerts ${unique()}`;
  const body = { displayName: name, activity: { name: "Alert Modified" }, created_by_users: [{ id: 3, type: "User" }], schedule: "any", emails: ["audit@acme.example"] };
  const { payload } = await admin.call<{ payload: { id: number } }>("POST", "/user/addAlert", body);
  // Each save writes an 'Alert Modified' activity by Alice; the engine matches it in the queue consumer,
  // off the request path, so this waits for the alert's last run (the first saves may predate the engine's cursor).
  await expect
    .poll(
      async () => {
        await admin.call("POST", "/user/modifyAlert", { ...body, id: payload.id });
        const list = await admin.call<{ payload: { id: number; lastActivityID: number | null }[] }>("GET", "/user/getAlerts");
        return list.payload.find((a) => a.id === payload.id)?.lastActivityID ?? null;
      },
      // A failed drain of the company's outbox is logged by the console ("activity outbox: company …'s drain failed").
      { timeout: 60_000, intervals: [1_000, 2_000], message: "the alert's last run, set when the queue consumer drains ACME's outbox" },
    )
    .not.toBeNull();

  await loginAs("acme");
  await page.goto("/alerts?pageSize=100");
  const table = page.getByRole("table", { name: "Alerts of the company" });
  await table.getByRole("link", { name: `Open alert ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/modifyAlert\\?id=${payload.id}$`));
  await expect(page.getByLabel("Display name")).toHaveValue(name);

  await page.goto("/alerts?pageSize=100");
  const lastRun = table.getByRole("link", { name: `Open the last activity of ${name}` });
  const href = await lastRun.getAttribute("href");
  expect(href).toMatch(/^\/activityDetails\?id=\d+$/);
  await lastRun.click();
  await expect(page).toHaveURL(new RegExp(`${href!.replace("?", "\\?")}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alert Modified");
  await admin.call("DELETE", `/user/deleteAlert?id=${payload.id}`);
});

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

test("alerts: the list and the form work from the keyboard", async ({ page, loginAs }) => {
  const admin = await adminApi(page.request, "acme");
  const name = `Keyboard ${unique()}`;
  await admin.call("POST", "/user/addAlert", {
    displayName: name,
    activity: "Low Battery",
    devices: [{ id: null, type: "Any Device" }],
    schedule: "any",
    emails: ["kb@acme.example"],
  });
  await loginAs("acme");
  await page.goto("/alerts?pageSize=100");

  // Delete opens its confirmation with Enter; Escape closes it and gives the focus back.
  const del = page.getByRole("button", { name: `Delete ${name}` });
  await del.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(name);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(del).toBeFocused();

  // The icon opens the form; its steps, radios and checkboxes answer to Enter and Space.
  await page.getByRole("link", { name: `Open alert ${name}` }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/modifyAlert\?id=\d+$/);
  await page.getByRole("button", { name: "3. Schedule" }).focus();
  await page.keyboard.press("Enter");
  await page.getByRole("radio", { name: "Custom" }).focus();
  await page.keyboard.press("Space");
  await expect(page.getByRole("radio", { name: "Custom" })).toBeChecked();
  await page.getByRole("checkbox", { name: "All day" }).focus();
  await page.keyboard.press("Space");
  await expect(page.getByLabel("Start time")).toBeEnabled();

  // Back on the list, the deletion is confirmed from the keyboard too.
  await page.goto("/alerts?pageSize=100");
  await del.focus();
  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Delete" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Alert deleted", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: `Open alert ${name}` })).toHaveCount(0);
});

test("alerts (es): the server's refusal of equal start and end times is shown in Spanish", async ({ page, loginAs }) => {
  const admin = await adminApi(page.request, "acme");
  const name = `Equal times ${unique()}`;
  const { payload } = await admin.call<{ payload: { id: number } }>("POST", "/user/addAlert", {
    displayName: name,
    activity: "Low Battery",
    devices: [{ id: null, type: "Any Device" }],
    schedule: "any",
    emails: ["equal@acme.example"],
  });
  await loginAs("acme", "es");
  await page.goto(`/modifyAlert?id=${payload.id}`);
  await page.getByRole("button", { name: /^3\. / }).click();
  await page.getByRole("radio", { name: "Personalizado" }).check();
  await page.getByRole("checkbox", { name: "Todo el día" }).click();
  await page.getByLabel("Hora de inicio").fill("09:00");
  await page.getByLabel("Hora de fin").fill("09:00");
  await page.getByLabel("Zona horaria").selectOption({ label: "Madrid (Europe)" });
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  // The core refuses the empty window; the page shows the console's text in Spanish and nothing is saved.
  await expect(page.getByText("La hora de fin debe ser distinta de la de inicio")).toBeVisible();
  await expect(page.getByText("End time must differ from start time")).toHaveCount(0);
  const { payload: stored } = await admin.call<{ payload: { startTime: string | null } }>("GET", `/user/getAlertDetails?id=${payload.id}`);
  expect(stored.startTime).toBeNull();
  await admin.call("DELETE", `/user/deleteAlert?id=${payload.id}`);
});
