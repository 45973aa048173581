import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, runNow, signIn, test, unique } from "./fixtures";
import { axeFindings } from "./axe";

/**
 * The device group page's "Add devices" picker (decisions 0035, 0040): search the company's devices
 * outside the group, tick three across two searches, confirm, read each device's result and find them
 * in the group's list. A deactivated group offers no picker and /devices' bulk bar does not offer it.
 * In English and Spanish, on a desktop and a phone.
 */
const TEXT = {
  en: {
    open: "Add devices",
    title: (group: string) => `Add devices to “${group}”`,
    search: "Search devices",
    searchButton: "Search",
    select: (name: string) => `Select ${name}`,
    selectAll: "Select all shown",
    selected: "3 devices selected",
    add: "Add selected",
    required: "Select at least one row",
    confirmTitle: (group: string) => `Add 3 devices to “${group}”?`,
    confirm: "Add to the group",
    back: "Back",
    results: (group: string) => `Added 3 of 3 to “${group}”`,
    added: (name: string, group: string) => `${name}: added to ${group}`,
    allIn: "Every device is already in this group",
    inactive: "This group is deactivated: activate it and save to add devices here.",
    bulk: "Bulk actions on devices",
    group: "Device group",
    filterGroup: (group: string) => `${group} (inactive)`,
  },
  es: {
    open: "Añadir dispositivos",
    title: (group: string) => `Añadir dispositivos a «${group}»`,
    search: "Buscar dispositivos",
    searchButton: "Buscar",
    select: (name: string) => `Seleccionar ${name}`,
    selectAll: "Seleccionar todos los mostrados",
    selected: "3 dispositivos seleccionados",
    add: "Añadir los seleccionados",
    required: "Seleccione al menos una fila",
    confirmTitle: (group: string) => `¿Añadir 3 dispositivos a «${group}»?`,
    confirm: "Añadir al grupo",
    back: "Volver",
    results: (group: string) => `Añadidos 3 de 3 a «${group}»`,
    added: (name: string, group: string) => `${name}: añadido a ${group}`,
    allIn: "Todos los dispositivos ya están en este grupo",
    inactive: "Este grupo está desactivado: actívalo y guarda para añadirle dispositivos.",
    bulk: "Acciones en bloque sobre dispositivos",
    group: "Grupo de dispositivos",
    filterGroup: (group: string) => `${group} (inactivo)`,
  },
} as const;

const PICKED = ["Lab A", "Lab B", "Gym"];
const shot = (name: string, run: { lang: string; width: number }) => `${name}-${run.lang}${run.width < 600 ? "-phone" : ""}`;

for (const run of LANGUAGE_AND_WIDTH_RUNS) {
  test(`add three devices to a group from its page (${run.lang}, ${run.width}px)`, async ({ page, request }) => {
    const tx = TEXT[run.lang];
    const api = await adminApi(request);
    const groupName = `Picker ${unique()}`;
    const group = await api.createGroup(groupName, {}, 1);

    await page.setViewportSize({ width: run.width, height: run.height });
    await signIn(page, "acme", run.lang);
    await page.goto(`/modifyDeviceGroup?id=${group.id}`);
    await page.getByRole("button", { name: tx.open, exact: true }).click();
    // The dialog's title, and so its name, changes at the confirmation step.
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: tx.title(groupName) })).toBeVisible();
    // Radix moves the focus into the dialog; the search field is the first stop.
    await expect(dialog.getByRole("searchbox", { name: tx.search, exact: true })).toBeFocused();

    // Nothing ticked: the schema's message, and no confirmation.
    await expect(dialog.getByRole("checkbox", { name: tx.select("Gym"), exact: true })).toBeVisible();
    await dialog.getByRole("button", { name: tx.add, exact: true }).click();
    await expect(dialog.getByText(tx.required)).toBeVisible();

    // Search on the server: "Lab" shows the two labs only; "select all shown" ticks both.
    await dialog.getByRole("searchbox", { name: tx.search, exact: true }).fill("Lab");
    await dialog.getByRole("searchbox", { name: tx.search, exact: true }).press("Enter");
    await expect(dialog.getByTestId("picker-devices").locator("li")).toHaveCount(2);
    await dialog.getByRole("checkbox", { name: tx.selectAll, exact: true }).click();
    await expect(dialog.getByText(tx.required)).toHaveCount(0);

    // A second search keeps the first ticks; the third device is ticked with the keyboard.
    await dialog.getByRole("searchbox", { name: tx.search, exact: true }).fill("Gym");
    await dialog.getByRole("button", { name: tx.searchButton, exact: true }).click();
    const gym = dialog.getByRole("checkbox", { name: tx.select("Gym"), exact: true });
    await expect(dialog.getByTestId("picker-devices").locator("li")).toHaveCount(1);
    await gym.focus();
    await page.keyboard.press("Space");
    await expect(gym).toBeChecked();
    await expect(dialog.getByText(tx.selected)).toBeVisible();
    await keepScreenshot(page, shot("group-picker", run), { fullPage: true });
    expect(await axeFindings(page, { include: "[role=dialog]" })).toEqual([]);

    await dialog.getByRole("button", { name: tx.add, exact: true }).click();
    await expect(dialog.getByRole("heading", { name: tx.confirmTitle(groupName) })).toBeVisible();
    for (const name of PICKED) await expect(dialog.getByTestId("picker-confirm-list")).toContainText(name);
    await expect(dialog.getByRole("button", { name: tx.confirm, exact: true })).toBeFocused();
    // Back keeps the selection and returns the focus to "Add selected"; Enter asks again.
    await dialog.getByRole("button", { name: tx.back, exact: true }).click();
    await expect(dialog.getByRole("button", { name: tx.add, exact: true })).toBeFocused();
    await expect(dialog.getByText(tx.selected)).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("button", { name: tx.confirm, exact: true })).toBeFocused();
    await dialog.getByRole("button", { name: tx.confirm, exact: true }).click();

    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("heading", { name: tx.results(groupName) })).toBeVisible();
    const results = page.getByTestId("bulk-results");
    await expect(results.locator("li")).toHaveCount(3);
    for (const name of PICKED) await expect(results.getByText(tx.added(name, groupName), { exact: true })).toBeVisible();
    const inGroup = page.getByTestId("group-devices");
    for (const name of PICKED) await expect(inGroup).toContainText(name);
    await keepScreenshot(page, shot("group-picker-results", run), { fullPage: true });

    // The API agrees: none of the three is outside the group any more.
    const outside = await api.call<{ payload: { full_name: string }[] }>("GET", `/deviceGroup/getAvailableDevices?groupId=${group.id}`);
    for (const name of PICKED) expect(outside.payload.some((d) => d.full_name === name)).toBe(false);
  });
}

test("a group holding every device says so in the picker", async ({ page, request }) => {
  const api = await adminApi(request);
  const groupName = `Full ${unique()}`;
  const group = await api.createGroup(groupName, {}, 1000);
  await signIn(page, "acme", "en");
  await page.goto(`/modifyDeviceGroup?id=${group.id}`);
  await page.getByRole("button", { name: TEXT.en.open, exact: true }).click();
  await expect(page.getByRole("dialog").getByText(TEXT.en.allIn)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("button", { name: TEXT.en.open, exact: true })).toBeFocused();
});

test("a read-only role sees no Add devices button", async ({ page, request }) => {
  const group = await (await adminApi(request)).createGroup(`Read ${unique()}`);
  await signIn(page, "auditor", "en");
  await page.goto(`/modifyDeviceGroup?id=${group.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: TEXT.en.open, exact: true })).toHaveCount(0);
});

for (const run of LANGUAGE_AND_WIDTH_RUNS) {
  test(`a deactivated group offers no picker and is not offered by the devices bulk bar (${run.lang}, ${run.width}px)`, async ({ page, request }) => {
    const tx = TEXT[run.lang];
    const api = await adminApi(request);
    const dormant = `Dormant ${unique()}`;
    const active = `Awake ${unique()}`;
    const dormantGroup = await api.createGroup(dormant, { status: 3 });
    await api.createGroup(active);

    await page.setViewportSize({ width: run.width, height: run.height });
    await signIn(page, "acme", run.lang);
    await page.goto(`/modifyDeviceGroup?id=${dormantGroup.id}`);
    await expect(page.getByText(tx.inactive)).toBeVisible();
    await expect(page.getByRole("button", { name: tx.open, exact: true })).toHaveCount(0);

    await page.goto("/devices?pageSize=50");
    // The filter keeps the deactivated group, marked.
    const filter = page.locator("#filter-group");
    await expect(page.getByLabel(tx.group, { exact: true })).toHaveCount(1);
    await expect(filter.locator("option", { hasText: tx.filterGroup(dormant) })).toHaveCount(1);
    await page.getByRole("checkbox", { name: run.lang === "en" ? "Select Gym" : "Seleccionar Gym", exact: true }).click();
    const bar = page.getByRole("form", { name: tx.bulk });
    const choice = bar.getByLabel(tx.group, { exact: true });
    await expect(choice).toHaveAttribute("id", "bulk-group");
    await expect(choice.locator("option", { hasText: active })).toHaveCount(1);
    await expect(choice.locator("option", { hasText: dormant })).toHaveCount(0);
    await keepScreenshot(page, shot("devices-bulk-active-groups", run), { fullPage: true });
  });
}

const PAGING = {
  en: { range: (from: number, to: number, total: number) => `${from}–${to} of ${total}`, next: "Next page", previous: "Previous page", selected: "2 devices selected" },
  es: {
    range: (from: number, to: number, total: number) => `${from}–${to} de ${total}`,
    next: "Página siguiente",
    previous: "Página anterior",
    selected: "2 dispositivos seleccionados",
  },
} as const;
const BOARDS = 21;

/**
 * Root ships 21 new boards to BETA (not ACME: companies.spec.ts counts ACME's devices) and BETA names
 * them "Zone <tag> 01"…"21", so a search for the tag fills the picker's first page of 20 and spills
 * one device onto a second. The names sort after BETA's own doors, which remote-unlock.spec.ts finds
 * on the first page of /devices.
 */
async function shipNamedBoards(request: Parameters<typeof adminApi>[0], tag: string): Promise<string[]> {
  const root = await adminApi(request, "root");
  const numbers = Array.from({ length: BOARDS }, (_, i) => String(i + 1).padStart(2, "0"));
  const fronts = numbers.map((n) => `PG-${tag}-F${n}`);
  await root.call("POST", "/device/registerDevices", {
    companyId: "ROOT",
    devices: fronts.map((front, i) => ({ serialFront: front, serialBack: `PG-${tag}-B${numbers[i]}`, deviceType: "AB-100" })),
  });
  const stock = await root.call<{ payload: { companyStock: { id: number; serial_front: string }[] } }>("GET", "/company/getCompanyStock");
  const ids = fronts.map((front) => stock.payload.companyStock.find((d) => d.serial_front === front)!.id);
  const today = new Date(runNow()).toISOString().slice(0, 10);
  await root.call("POST", "/company/transferDevices", { toCompany: "BETA", transferDevices: ids, status: "unconfigured", shippingDate: today, subscriptionTerm: 1 });
  const beta = await adminApi(request, "beta");
  const names = numbers.map((n) => `Zone ${tag} ${n}`);
  for (const [i, id] of ids.entries()) await beta.call("POST", "/device/configureDevice", { id, fullName: names[i], displayName: `PG${tag}${numbers[i]}` });
  return names;
}

for (const run of LANGUAGE_AND_WIDTH_RUNS) {
  test(`the picker pages a search past 20 devices and keeps ticks across pages (${run.lang}, ${run.width}px)`, async ({ page, request }) => {
    const tx = { ...TEXT[run.lang], ...PAGING[run.lang] };
    const tag = unique().toUpperCase();
    const names = await shipNamedBoards(request, tag);
    const groupName = `Pages ${tag}`;
    const group = await (await adminApi(request, "beta")).createGroup(groupName);

    await page.setViewportSize({ width: run.width, height: run.height });
    await signIn(page, "beta", run.lang);
    await page.goto(`/modifyDeviceGroup?id=${group.id}`);
    await page.getByRole("button", { name: tx.open, exact: true }).click();
    const dialog = page.getByRole("dialog");
    const list = dialog.getByTestId("picker-devices").locator("li");
    // The middle of the names: matched by the trigram index, 21 devices on two pages.
    await dialog.getByRole("searchbox", { name: tx.search, exact: true }).fill(`ne ${tag.toLowerCase()}`);
    await dialog.getByRole("searchbox", { name: tx.search, exact: true }).press("Enter");
    await expect(dialog.getByText(tx.range(1, 20, BOARDS), { exact: true })).toBeVisible();
    await expect(list).toHaveCount(20);
    await expect(dialog.getByRole("button", { name: tx.previous, exact: true })).toBeDisabled();
    await dialog.getByRole("checkbox", { name: tx.select(names[0]), exact: true }).click();

    await dialog.getByRole("button", { name: tx.next, exact: true }).click();
    await expect(dialog.getByText(tx.range(21, 21, BOARDS), { exact: true })).toBeVisible();
    await expect(list).toHaveCount(1);
    await expect(list).toContainText(names[20]);
    await expect(dialog.getByRole("button", { name: tx.next, exact: true })).toBeDisabled();
    await dialog.getByRole("checkbox", { name: tx.select(names[20]), exact: true }).click();
    await expect(dialog.getByText(tx.selected)).toBeVisible();
    await keepScreenshot(page, shot("group-picker-page-2", run), { fullPage: true });

    // Back on page 1 the first tick is still there.
    await dialog.getByRole("button", { name: tx.previous, exact: true }).click();
    await expect(dialog.getByText(tx.range(1, 20, BOARDS), { exact: true })).toBeVisible();
    await expect(dialog.getByRole("checkbox", { name: tx.select(names[0]), exact: true })).toBeChecked();
    await dialog.getByRole("button", { name: tx.add, exact: true }).click();
    await dialog.getByRole("button", { name: tx.confirm, exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId("bulk-results").locator("li")).toHaveCount(2);
    for (const name of [names[0], names[20]]) await expect(page.getByTestId("group-devices")).toContainText(name);

    // Now in the group, the two are no longer offered: 19 left, one page.
    await page.getByRole("button", { name: tx.open, exact: true }).click();
    await dialog.getByRole("searchbox", { name: tx.search, exact: true }).fill(`ne ${tag.toLowerCase()}`);
    await dialog.getByRole("searchbox", { name: tx.search, exact: true }).press("Enter");
    await expect(list).toHaveCount(BOARDS - 2);
    await expect(dialog.getByRole("button", { name: tx.next, exact: true })).toHaveCount(0);
    for (const name of [names[0], names[20]]) await expect(dialog.getByRole("checkbox", { name: tx.select(name), exact: true })).toHaveCount(0);
  });
}
