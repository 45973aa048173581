import { adminApi, expect, signIn, test, unique } from "./fixtures";

/**
 * Device-group search (docs/decisions/0035-search-and-bulk-actions.md): a prefix of the group's name,
 * answered on the server and kept in the URL, in English and Spanish. The groups are made here.
 */
const TEXT = {
  en: { form: "Search device groups", field: "Search", submit: "Search", none: "No device groups match this search", table: "Device groups of the company" },
  es: { form: "Buscar grupos de dispositivos", field: "Buscar", submit: "Buscar", none: "Ningún grupo coincide con esta búsqueda", table: "Grupos de dispositivos de la empresa" },
} as const;

for (const lang of ["en", "es"] as const) {
  test(`search device groups by name, kept in the URL (${lang})`, async ({ page }) => {
    const tx = TEXT[lang];
    const tag = unique();
    const api = await adminApi(page.request);
    await api.createGroup(`Zeta${tag} North`);
    await api.createGroup(`Zeta${tag} South`);
    await api.createGroup(`Other${tag}`);

    await signIn(page, "acme", lang);
    await page.goto("/deviceGroups?sort=fullName");
    const form = page.getByRole("search", { name: tx.form });
    await form.getByLabel(tx.field, { exact: true }).fill(`zeta${tag}`);
    await form.getByRole("button", { name: tx.submit }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=zeta${tag}(&|$)`));
    await expect(page).toHaveURL(/sort=fullName/);
    const rows = page.locator("table tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(`Zeta${tag} North`);
    await expect(rows.nth(1)).toContainText(`Zeta${tag} South`);
    await expect(page.getByText(`Other${tag}`)).toHaveCount(0);

    // The URL alone gives the same page, with the search in its field.
    await page.goto(`/deviceGroups?q=zeta${tag}%20s`);
    await expect(page.getByRole("search", { name: tx.form }).getByLabel(tx.field, { exact: true })).toHaveValue(`zeta${tag} s`);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Zeta${tag} South`);

    await page.goto(`/deviceGroups?q=nomatch${tag}`);
    await expect(page.getByRole("table", { name: tx.table }).getByText(tx.none)).toBeVisible();
  });
}
