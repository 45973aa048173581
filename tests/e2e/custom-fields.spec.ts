import type { Page } from "@playwright/test";
import { axeFindings } from "./axe";
import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, test, unique } from "./fixtures";
import { sidewaysScroll } from "./sideways-scroll";

/** Stores the language the way the header's switch does (the signed cookie the server reads). */
async function chooseLanguage(page: Page, lng: "en" | "es") {
  const res = await page.request.post("/resources/language", { form: { lng, redirectTo: "/" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
}

const TEXT = {
  en: {
    title: "Custom fields",
    add: "Add field",
    label: "Label",
    key: "Key",
    type: "Type",
    choices: "Choices",
    create: "Create",
    choiceRequired: "A choice field needs at least one choice",
    save: "Save",
    saved: "User Modified",
    columns: /^Columns/,
    delete: "Delete",
  },
  es: {
    title: "Campos personalizados",
    add: "Añadir campo",
    label: "Etiqueta",
    key: "Clave",
    type: "Tipo",
    choices: "Opciones",
    create: "Crear",
    choiceRequired: "Un campo de opciones necesita al menos una opción",
    save: "Guardar",
    saved: "Usuario modificado",
    columns: /^Columnas/,
    delete: "Eliminar",
  },
} as const;

// A step that cannot happen fails at once with its own line, leaving time for the clean-up below.
test.use({ actionTimeout: 15_000 });

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`custom fields: defined by an admin, set in the user form, shown in the list (${lang}, ${width} px)`, async ({ loginAs, page }) => {
    const T = TEXT[lang];
    const api = await adminApi(page.request);
    const user = await api.createUser("Cf", `Fields${unique()}`);
    const tag = unique();
    const team = { key: `team_${tag}`, label: `Team ${tag}` };
    const badge = { key: `badge_${tag}`, label: `Badge ${tag}` };
    await loginAs("acme");
    await chooseLanguage(page, lang);
    await page.setViewportSize({ width, height });
    try {
      // A choice field, first without choices (refused with the schema's message), then with two.
      await page.goto("/customFields");
      await expect(page.getByRole("heading", { name: T.title })).toBeVisible();
      await page.getByRole("link", { name: T.add }).click();
      await expect(page).toHaveURL(/\/addCustomField$/);
      await page.getByRole("textbox", { name: T.label, exact: true }).fill(team.label);
      await page.getByRole("textbox", { name: T.key, exact: true }).fill(team.key);
      await page.getByRole("combobox", { name: T.type, exact: true }).selectOption("choice");
      await page.getByRole("button", { name: T.create }).click();
      await expect(page.getByText(T.choiceRequired)).toBeVisible();
      await page.getByLabel(T.choices).fill("North\nSouth");
      await keepScreenshot(page, `custom-field-form-${lang}-${width}`, { fullPage: true });
      await page.getByRole("button", { name: T.create }).click();
      await expect(page).toHaveURL(/\/customFields/);
      await expect(page.getByRole("link", { name: team.label, exact: true })).toBeVisible();

      // A text field.
      await page.getByRole("link", { name: T.add }).click();
      await page.getByRole("textbox", { name: T.label, exact: true }).fill(badge.label);
      await page.getByRole("textbox", { name: T.key, exact: true }).fill(badge.key);
      await page.getByRole("button", { name: T.create }).click();
      await expect(page.getByRole("link", { name: badge.label, exact: true })).toBeVisible();
      await keepScreenshot(page, `custom-fields-list-${lang}-${width}`, { fullPage: true });
      expect(await sidewaysScroll(page, { tables: width > 800 })).toEqual([]);

      // The user form shows both with the right inputs; the values are saved and shown again.
      await page.goto(`/modifyUser?id=${user.id}`);
      const fields = page.getByTestId("custom-fields");
      await fields.getByLabel(team.label).selectOption("South");
      await fields.getByLabel(badge.label).fill(`B-${tag}`);
      await page.getByRole("button", { name: T.save, exact: true }).click();
      await expect(page.getByText(T.saved).first()).toBeVisible();
      await page.reload();
      await expect(fields.getByLabel(team.label)).toHaveValue("South");
      await expect(fields.getByLabel(badge.label)).toHaveValue(`B-${tag}`);
      await keepScreenshot(fields, `custom-fields-user-form-${lang}-${width}`);

      // The list: search by the badge finds the user; the column chooser adds both columns.
      await page.goto(`/users?q=b-${tag}`);
      const rows = page.locator("tbody tr");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(user.displayName);
      await page.locator("summary", { hasText: T.columns }).click();
      await page.getByRole("checkbox", { name: team.label }).click();
      await expect(page).toHaveURL(new RegExp(`cols=${team.key}`));
      await page.getByRole("checkbox", { name: badge.label }).click();
      await expect(page.getByRole("columnheader", { name: team.label })).toBeVisible();
      await expect(page.getByRole("columnheader", { name: badge.label })).toBeVisible();
      await expect(rows.first()).toContainText("South");
      await expect(rows.first()).toContainText(`B-${tag}`);
      await keepScreenshot(page, `custom-fields-users-list-${lang}-${width}`, { fullPage: true });
      expect(await axeFindings(page)).toEqual([]);

      // Deleting a field asks first.
      await page.goto("/customFields");
      await page.getByRole("button", { name: `${T.delete} ${badge.label}` }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: T.delete }).click();
      await expect(page.getByRole("link", { name: badge.label, exact: true })).toHaveCount(0);
    } finally {
      // The fields are the company's: other specs' user forms and lists must not keep them.
      const { payload } = await api.call<{ payload: { id: number; key: string }[] }>("GET", "/customFields/getFields");
      for (const f of payload.filter((x) => x.key.endsWith(`_${tag}`))) await api.call("DELETE", `/customFields/deleteField?id=${f.id}`);
    }
  });
}
