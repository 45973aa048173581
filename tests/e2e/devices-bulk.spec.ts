import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, signIn, test, unique } from "./fixtures";

/**
 * Adding many devices to a device group from /devices (docs/decisions/0035-search-and-bulk-actions.md):
 * select rows, choose the group, confirm, read the result of each device, and find them in the group.
 * In English and Spanish, on a desktop and a phone. The group is made through the admin API with one
 * of the chosen devices already in it, so one row reads "already in".
 */
const RUNS = LANGUAGE_AND_WIDTH_RUNS;

const TEXT = {
  en: {
    bulk: "Bulk actions on devices",
    select: (name: string) => `Select ${name}`,
    selected: "4 devices selected",
    group: "Device group",
    add: "Add to group",
    confirm: (group: string) => `Add 4 devices to “${group}”?`,
    results: (group: string) => `Added 3 of 4 to “${group}”`,
    added: (name: string, group: string) => `${name}: added to ${group}`,
    already: (name: string, group: string) => `${name}: already in ${group}`,
    open: (group: string) => `Open the group “${group}”`,
    required: "Please select a device group",
  },
  es: {
    bulk: "Acciones en bloque sobre dispositivos",
    select: (name: string) => `Seleccionar ${name}`,
    selected: "4 dispositivos seleccionados",
    group: "Grupo de dispositivos",
    add: "Añadir al grupo",
    confirm: (group: string) => `¿Añadir 4 dispositivos a «${group}»?`,
    results: (group: string) => `Añadidos 3 de 4 a «${group}»`,
    added: (name: string, group: string) => `${name}: añadido a ${group}`,
    already: (name: string, group: string) => `${name}: ya estaba en ${group}`,
    open: (group: string) => `Abrir el grupo «${group}»`,
    required: "Seleccione un grupo de dispositivos",
  },
} as const;

const DEVICES = ["Loading Dock", "Lab A", "Lab B", "Gym"];

for (const run of RUNS) {
  test(`select devices and add them to a group (${run.lang}, ${run.width}px)`, async ({ page, request }) => {
    const tx = TEXT[run.lang];
    const api = await adminApi(request);
    const devices = await api.call<{ payload: { id: number; full_name: string }[] }>("GET", "/deviceGroup/getAvailableDevices");
    const idOf = (name: string) => devices.payload.find((d) => d.full_name === name)!.id;
    const groupName = `Bulk ${unique()}`;
    const group = await api.createGroup(groupName, { available_devices: [idOf("Loading Dock")] });

    await page.setViewportSize({ width: run.width, height: run.height });
    await signIn(page, "acme", run.lang);
    await page.goto("/devices?pageSize=50");
    for (const name of DEVICES) await page.getByRole("checkbox", { name: tx.select(name), exact: true }).click();
    const bar = page.getByRole("form", { name: tx.bulk });
    await expect(bar.getByText(tx.selected)).toBeVisible();

    // No group chosen: the schema's message, and nothing is asked or posted.
    await bar.getByRole("button", { name: tx.add }).click();
    await expect(bar.getByText(tx.required)).toBeVisible();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);

    await bar.getByLabel(tx.group, { exact: true }).selectOption({ label: groupName });
    await expect(bar.getByText(tx.required)).toHaveCount(0);
    await bar.getByRole("button", { name: tx.add }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByRole("heading", { name: tx.confirm(groupName) })).toBeVisible();
    await dialog.getByRole("button", { name: tx.add }).click();

    const results = page.getByTestId("bulk-results");
    await expect(results.locator("li")).toHaveCount(4);
    await expect(page.getByRole("heading", { name: tx.results(groupName) })).toBeVisible();
    await expect(results.getByText(tx.already("Loading Dock", groupName), { exact: true })).toBeVisible();
    for (const name of ["Lab A", "Lab B", "Gym"]) await expect(results.getByText(tx.added(name, groupName), { exact: true })).toBeVisible();
    // The selection is cleared once the result shows.
    await expect(bar).toHaveCount(0);
    await keepScreenshot(page, `devices-bulk-group-${run.lang}${run.width < 600 ? "-phone" : ""}`, { fullPage: true });

    // The group now lists them, on its page and through the API.
    await page.getByRole("link", { name: tx.open(groupName) }).click();
    await expect(page).toHaveURL(new RegExp(`/modifyDeviceGroup\\?id=${group.id}$`));
    const inGroup = page.getByTestId("group-devices");
    for (const name of DEVICES) await expect(inGroup).toContainText(name);
    const outside = await api.call<{ payload: { id: number }[] }>("GET", `/deviceGroup/getAvailableDevices?groupId=${group.id}`);
    for (const name of DEVICES) expect(outside.payload.some((d) => d.id === idOf(name))).toBe(false);
  });
}
