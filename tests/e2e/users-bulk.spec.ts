import { deviceGroupBody } from "../device-group-body";
import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, signIn, test, unique } from "./fixtures";

/**
 * Search, filter and bulk actions on /users (docs/decisions/0035-search-and-bulk-actions.md), in English
 * and Spanish, on a desktop and a phone. The users and the group are made through the admin API.
 */
const RUNS = LANGUAGE_AND_WIDTH_RUNS;

const TEXT = {
  en: {
    search: "Search",
    selectPage: "Select every user on this page",
    action: "Action",
    group: "Device group",
    apply: "Apply",
    deactivate: "Deactivate",
    given: "key given",
    deactivated: "deactivated",
    selected: "30 users selected",
    hideInactive: "Hide inactive",
  },
  es: {
    search: "Buscar",
    selectPage: "Seleccionar todos los usuarios de esta página",
    action: "Acción",
    group: "Grupo de dispositivos",
    apply: "Aplicar",
    deactivate: "Desactivar",
    given: "llave entregada",
    deactivated: "desactivado",
    selected: "30 usuarios seleccionados",
    hideInactive: "Ocultar inactivos",
  },
} as const;

for (const run of RUNS) {
  test(`search, bulk-assign a group key to 30 users and deactivate many (${run.lang}, ${run.width}px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const tx = TEXT[run.lang];
    const api = await adminApi(request);
    const tag = `Bulk${unique()}`;
    const users = [];
    for (let i = 0; i < 30; i++) users.push(await api.createUser(`F${String(i).padStart(2, "0")}`, `${tag}${String(i).padStart(2, "0")}`));
    const madrid = await api.zoneId("Europe/Madrid");
    const groupName = `Gate ${tag}`;
    const group = await api.call<{ payload: { id: number } }>(
      "POST",
      "/deviceGroup/createDeviceGroup",
      deviceGroupBody(madrid, groupName, [2], { display_name: tag.slice(0, 20), start_at: "", end_at: "", is_all_day: "1" }),
    );

    await page.setViewportSize({ width: run.width, height: run.height });
    await signIn(page, "acme", run.lang);
    await page.goto("/users?pageSize=50");

    // Search (server-side, kept in the URL): only this test's 30 users.
    const form = page.getByRole("search");
    await form.getByLabel(tx.search, { exact: true }).fill(tag.toLowerCase());
    await form.getByRole("button", { name: tx.search }).click();
    await expect(page).toHaveURL(new RegExp(`q=${tag.toLowerCase()}`));
    await expect(page).toHaveURL(/pageSize=50/);
    const rows = page.locator("table tbody tr");
    await expect(rows).toHaveCount(30);

    // A filter narrows further: nobody holds the group's key yet.
    await page.goto(`/users?pageSize=50&q=${tag}&groupId=${group.payload.id}`);
    await expect(page.getByRole("switch", { name: tx.hideInactive })).toBeChecked();
    await expect(rows).toHaveCount(1); // the empty state's row
    await page.goto(`/users?pageSize=50&q=${tag}`);
    await expect(rows).toHaveCount(30);

    // Select the page, give the group key.
    await page.getByRole("checkbox", { name: tx.selectPage }).click();
    await expect(page.getByText(tx.selected)).toBeVisible();
    await page.getByLabel(tx.group, { exact: true }).selectOption({ label: groupName });
    await page.getByRole("button", { name: tx.apply }).click();
    const results = page.getByTestId("bulk-results");
    await expect(results.locator("li")).toHaveCount(30);
    await expect(results.getByText(`${users[0].displayName}: ${tx.given}`)).toBeVisible();
    await keepScreenshot(page, `users-bulk-key-${run.lang}${run.width < 600 ? "-phone" : ""}`, { fullPage: true });

    // A few of them now hold the key (read back through the API).
    for (const u of [users[0], users[14], users[29]]) {
      const keys = await api.call<{ payload: { is_group: boolean; group_id: number | null }[] }>("GET", `/user/getAssignedEkeys?userId=${u.id}`);
      expect(keys.payload.some((k) => k.is_group && k.group_id === group.payload.id)).toBe(true);
    }
    const holders = await api.call<{ payload: unknown[] }>("GET", `/user/getAllUsers?q=${tag}&groupId=${group.payload.id}`);
    expect(holders.payload.length).toBe(30);

    // Deactivate two, with confirmation.
    await page.getByRole("checkbox", { name: new RegExp(users[0].displayName) }).click();
    await page.getByRole("checkbox", { name: new RegExp(users[1].displayName) }).click();
    await page.getByLabel(tx.action, { exact: true }).selectOption({ label: tx.deactivate });
    await page.getByRole("button", { name: tx.apply }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: tx.deactivate }).click();
    await expect(results.locator("li")).toHaveCount(2);
    await expect(results.getByText(`${users[1].displayName}: ${tx.deactivated}`)).toBeVisible();
    await keepScreenshot(page, `users-bulk-deactivate-${run.lang}${run.width < 600 ? "-phone" : ""}`, { fullPage: true });
    const inactive = await api.call<{ payload: { id: number }[] }>("GET", `/user/getAllUsers?q=${tag}&status=inactive`);
    expect(inactive.payload.map((u) => u.id).sort()).toEqual([users[0].id, users[1].id].sort());
  });
}
