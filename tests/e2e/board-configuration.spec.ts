import { adminApi, expect, LANGUAGE_AND_WIDTH_RUNS, runNow, signIn, test, unique } from "./fixtures";

/*
 * Registration's per-row report, and on /deviceDetails a configured board's settings edited in place,
 * its removal (the configure form then starts from the settings it kept) and retirement (decisions
 * 0022, 0057; part 1's device texts), in English at 1440 px and Spanish at 390 px. The board is moved
 * to BETA through the admin API; the screens under test are the registration and device details pages.
 */
const TEXT = {
  en: {
    stockOf: "Stock of",
    csvText: "CSV content",
    register: "Register",
    registered: "Registered",
    invalid: "Invalid Serial Number",
    exists: "Device configuration already exists",
    summary: "1 registered, 2 rejected",
    remove: "Remove configuration",
    typeName: (name: string) => `Display name (${name})`,
    removeMessage: "you must enter the device's display name to remove the configuration",
    removed: "Device configuration removed successfully",
    unconfigured: "Status: Unconfigured",
    retire: "Retire device",
    retired: "Device retired successfully",
    retiredStatus: "Status: Retired",
    cancel: "Cancel",
    edit: "Edit settings",
    save: "Save settings",
    saved: "Device settings saved",
    fullName: "Full Name",
    lockType: "Lock Type",
    relockTimer: "Re-lock Time (seconds)",
    sensor1Open: "Sensor 1 Open Name",
    magnetic: "Magnetic Lock",
    seconds: (n: number) => `${n} seconds`,
    configured: "Status: Configured",
  },
  es: {
    stockOf: "Inventario de",
    csvText: "Contenido CSV",
    register: "Registrar",
    registered: "Registrado",
    invalid: "Número de serie no válido",
    exists: "La configuración del dispositivo ya existe",
    summary: "1 registrados, 2 rechazados",
    remove: "Eliminar configuración",
    typeName: (name: string) => `Nombre para mostrar (${name})`,
    removeMessage: "debe escribir el nombre para mostrar del dispositivo para eliminar la configuración",
    removed: "Configuración del dispositivo eliminada correctamente",
    unconfigured: "Estado: Sin configurar",
    retire: "Retirar dispositivo",
    retired: "Dispositivo retirado correctamente",
    retiredStatus: "Estado: Retirado",
    cancel: "Cancelar",
    edit: "Editar ajustes",
    save: "Guardar ajustes",
    saved: "Ajustes del dispositivo guardados",
    fullName: "Nombre completo",
    lockType: "Tipo de cerradura",
    relockTimer: "Tiempo de rebloqueo (segundos)",
    sensor1Open: "Nombre de sensor 1 abierto",
    magnetic: "Cerradura electromagnética",
    seconds: (n: number) => `${n} segundos`,
    configured: "Estado: Configurado",
  },
} as const;

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`registration reports each row; settings edit in place; removing asks the display name and keeps the settings for the next configure; retiring asks first (${lang}, ${width} px)`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const tx = TEXT[lang];
    await page.setViewportSize({ width, height });
    const tag = unique().toUpperCase();
    const front = `CF-${tag}-F1`;

    // Root's CSV: one good row, one bad serial, one serial already known (the seed's SF1001).
    await signIn(page, "root", lang);
    await page.goto("/registerDevices");
    const stockOf = page.getByLabel(tx.stockOf);
    await stockOf.selectOption((await stockOf.locator("option", { hasText: "(ROOT)" }).getAttribute("value"))!);
    await page
      .getByLabel(tx.csvText)
      .fill(["serial_front,serial_back,device_type", `${front},CF-${tag}-B1,AB-100`, `bad!,CF-${tag}-B2,AB-100`, `SF1001,CF-${tag}-B3,AB-100`].join("\n"));
    await page.getByRole("button", { name: tx.register, exact: true }).click();
    const report = page.getByTestId("register-report");
    await expect(report.locator("tbody tr")).toHaveCount(3);
    await expect(report.locator("tbody tr").nth(0)).toContainText(tx.registered);
    await expect(report.locator("tbody tr").nth(1)).toContainText(tx.invalid);
    await expect(report.locator("tbody tr").nth(2)).toContainText(tx.exists);
    await expect(page.getByText(tx.summary)).toBeVisible();

    // Root ships it to its child BETA and BETA configures it (the API, as onboarding-walk.spec.ts does on screen).
    // BETA, not ACME: companies.spec.ts counts ACME's devices.
    const root = await adminApi(page.request, "root");
    const stock = await root.call<{ payload: { companyStock: { id: number; serial_front: string }[] } }>("GET", "/company/getCompanyStock");
    const id = stock.payload.companyStock.find((d) => d.serial_front === front)!.id;
    const today = new Date(runNow()).toISOString().slice(0, 10);
    await root.call("POST", "/company/transferDevices", { toCompany: "BETA", transferDevices: [id], status: "unconfigured", shippingDate: today, subscriptionTerm: 1 });
    const beta = await adminApi(page.request, "beta");
    const displayName = `CF${tag}`;
    await beta.call("POST", "/device/configureDevice", { id, fullName: `Config Door ${tag}`, displayName, lockType: "Magnetic Lock", sensor1OpenName: "Door Open" });

    await signIn(page, "beta", lang);
    await page.goto(`/deviceDetails?id=${id}`);
    // The secret was shown once, to whoever configured the board: the page never shows it again.
    await expect(page.getByTestId("board-secret")).toHaveCount(0);
    // The status card comes first, the lifecycle's consequential buttons last.
    await expect(page.getByTestId("device-status-card")).toBeVisible();
    const cards = await page.locator("[data-testid]").evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
    expect(cards.indexOf("device-status-card")).toBeLessThan(cards.indexOf("remote-unlock"));
    expect(cards.indexOf("lifecycle-actions")).toBeGreaterThan(cards.indexOf("device-groups"));

    // Edit settings: the form starts from the device's values; saving keeps it configured.
    await page.getByRole("button", { name: tx.edit }).click();
    await expect(page.getByLabel(tx.fullName)).toHaveValue(`Config Door ${tag}`);
    await expect(page.getByLabel(tx.lockType)).toHaveValue("Magnetic Lock");
    await expect(page.getByLabel(tx.lockType).locator("option:checked")).toHaveText(tx.magnetic);
    await page.getByLabel(tx.fullName).fill(`Edited Door ${tag}`);
    await page.getByLabel(tx.relockTimer).fill("9");
    await page.getByRole("button", { name: tx.save }).click();
    await expect(page.getByText(tx.saved, { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: `Edited Door ${tag}` })).toBeVisible();
    await expect(page.getByTestId("detail-relockTime")).toContainText(tx.seconds(9));
    await expect(page.getByTestId("device-status")).toHaveText(tx.configured);

    // Removing the configuration: a wrong name is refused with the spec's message, the right one removes it.
    await page.getByRole("button", { name: tx.remove }).click();
    let dialog = page.getByRole("dialog");
    await dialog.getByLabel(tx.typeName(displayName)).fill("not the name");
    await dialog.getByRole("button", { name: tx.remove }).click();
    dialog = page.getByRole("dialog");
    await expect(dialog.getByText(tx.removeMessage)).toBeVisible();
    await dialog.getByLabel(tx.typeName(displayName)).fill(displayName);
    await dialog.getByRole("button", { name: tx.remove }).click();
    await expect(page.getByText(tx.removed, { exact: true })).toBeVisible();
    await expect(page.getByTestId("device-status")).toHaveText(tx.unconfigured);
    // Configuring again starts from what the board kept: its lock type, re-lock time and sensor names (its names were cleared).
    await expect(page.getByLabel(tx.lockType)).toHaveValue("Magnetic Lock");
    await expect(page.getByLabel(tx.relockTimer)).toHaveValue("9");
    await expect(page.getByLabel(tx.sensor1Open)).toHaveValue("Door Open");
    await expect(page.getByLabel(tx.fullName)).toHaveValue("");

    // Retiring asks first; cancelling leaves it unchanged, confirming retires the device and keeps its page.
    await page.getByRole("button", { name: tx.retire }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    // The footer's Cancel (the corner's close button has the same name). Not Escape: with the removal's
    // toast still up, Escape closes the toast first.
    await page.getByRole("alertdialog").getByRole("button", { name: tx.cancel, exact: true }).first().click();
    await expect(page.getByRole("alertdialog")).toBeHidden();
    await expect(page.getByTestId("device-status")).toHaveText(tx.unconfigured);
    await page.getByRole("button", { name: tx.retire }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: tx.retire }).click();
    await expect(page.getByText(tx.retired, { exact: true })).toBeVisible();
    await expect(page.getByTestId("device-status")).toHaveText(tx.retiredStatus);
    await expect(page.getByRole("button", { name: tx.retire })).toHaveCount(0);
  });
}
