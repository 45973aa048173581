import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { parseCsv } from "~/utils/csv";
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
    export: "Export",
    columns: /^Columns/,
    delete: "Delete",
    filters: /^Filters/,
    search: "Search",
    notSet: "Not set",
    email: "Email",
    date: "03/04/2027",
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
    export: "Exportar",
    columns: /^Columnas/,
    delete: "Eliminar",
    filters: /^Filtros/,
    search: "Buscar",
    notSet: "Sin valor",
    email: "Correo",
    date: "04/03/2027",
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

      // The same values in the CSV (Users → Export) and the admin API, under the fields' keys.
      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: T.export, exact: true }).click();
      const parsed = parseCsv(await readFile((await (await downloading).path())!, "utf8"));
      if (!parsed.ok) throw new Error("the export is not CSV");
      const [head, ...records] = parsed.records.map((r) => r.cells);
      const exported = records.find((cells) => cells[head.indexOf("display_name")] === user.displayName)!;
      expect([exported[head.indexOf(team.key)], exported[head.indexOf(badge.key)]]).toEqual(["South", `B-${tag}`]);
      const { payload: details } = await api.call<{ payload: { custom_fields: Record<string, string> } }>("GET", `/user/getUserDetails?id=${user.id}`);
      expect(details.custom_fields).toMatchObject({ [team.key]: "South", [badge.key]: `B-${tag}` });

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

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`custom fields: the users list filtered by a choice field, kept in the URL and by sorting (${lang}, ${width} px)`, async ({ loginAs, page }) => {
    const T = TEXT[lang];
    const api = await adminApi(page.request);
    const tag = unique();
    const shift = { key: `shift_${tag}`, label: `Shift ${tag}` };
    const last = `Shift${tag}`;
    const since = { key: `since_${tag}`, label: `Since ${tag}` };
    const made = await api.call<{ payload: { id: number } }>("POST", "/customFields/addField", { ...shift, type: "choice", choices: ["Day", "Night"] });
    const dated = await api.call<{ payload: { id: number } }>("POST", "/customFields/addField", { ...since, type: "date" });
    try {
      for (const [first, value] of [
        ["Ann", "Day"],
        ["Bob", "Night"],
        ["Cid", null],
        ["Dee", "Night"],
      ] as const) {
        await api.call("POST", "/user/addUser", {
          firstName: first,
          lastName: last,
          displayName: `${last}, ${first}`,
          emailId: `${first.toLowerCase()}.${tag}.${unique()}@acme.example`,
          countryCode: "1",
          phoneNumer: `55${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 100)
            .toString()
            .padStart(2, "0")}`,
          sendInvite: "0",
          ...(value && { custom_fields: { [shift.key]: value, ...(first === "Dee" && { [since.key]: "2027-03-04" }) } }),
        });
      }
      await loginAs("acme");
      await chooseLanguage(page, lang);
      await page.setViewportSize({ width, height });
      await page.goto(`/users?q=${last.toLowerCase()}`);
      const rows = page.locator("tbody tr");
      await expect(rows).toHaveCount(4);

      // On a phone the selects are folded behind "Filters"; the field's select applies at once.
      const select = page.getByRole("combobox", { name: shift.label, exact: true });
      const unfold = async () => {
        if (!(await select.isVisible())) await page.getByRole("button", { name: T.filters }).click();
      };
      await unfold();
      await select.selectOption("Night");
      await expect(page).toHaveURL(new RegExp(`field\\.${shift.key}=Night`));
      await expect(rows).toHaveCount(2);
      await expect(rows.filter({ hasText: `${last}, Bob` })).toHaveCount(1);
      await expect(rows.filter({ hasText: `${last}, Dee` })).toHaveCount(1);
      await unfold();
      await keepScreenshot(page, `custom-fields-users-filter-${lang}-${width}`, { fullPage: true });
      expect(await sidewaysScroll(page, { tables: width > 800 })).toEqual([]);

      // Sorting keeps the filter. React renders the filtered page after the URL changes, so wait until the sort link carries it.
      const byEmail = page.locator("thead").getByRole("link", { name: T.email });
      await expect(byEmail).toHaveAttribute("href", new RegExp(`field\\.${shift.key}=Night`));
      await byEmail.click();
      await expect(page).toHaveURL(/sort=email/);
      await expect(page).toHaveURL(new RegExp(`field\\.${shift.key}=Night`));
      await expect(rows).toHaveCount(2);
      await unfold();
      await expect(select).toHaveValue("Night");

      // "Not set" lists the user without a value; the page starts over at 1 and the address holds it.
      await select.selectOption({ label: T.notSet });
      await expect(page).toHaveURL(new RegExp(`field\\.${shift.key}=-`));
      await expect(page).not.toHaveURL(/[?&]page=/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(`${last}, Cid`);
      await page.reload();
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(`${last}, Cid`);
      expect(await axeFindings(page)).toEqual([]);

      // A date field's column writes the calendar day in the reader's order (not YYYY-MM-DD, not shifted by a zone).
      await page.goto(`/users?q=${last.toLowerCase()}&field.${shift.key}=Night&cols=${shift.key},${since.key}`);
      await expect(page.getByRole("columnheader", { name: since.label })).toBeVisible();
      await expect(rows.filter({ hasText: `${last}, Dee` })).toContainText(T.date);
      await expect(rows.filter({ hasText: `${last}, Dee` })).not.toContainText("2027-03-04");

      // A date field filters by its day, typed in the filter's own input and applied with Search.
      await page.goto(`/users?q=${last.toLowerCase()}`);
      await expect(rows).toHaveCount(4);
      const day = page.getByRole("search").getByLabel(since.label, { exact: true });
      if (!(await day.isVisible())) await page.getByRole("button", { name: T.filters }).click();
      await day.fill("2027-03-04");
      await page.getByRole("button", { name: T.search, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`field\\.${since.key}=2027-03-04`));
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(`${last}, Dee`);
    } finally {
      await api.call("DELETE", `/customFields/deleteField?id=${made.payload.id}`);
      await api.call("DELETE", `/customFields/deleteField?id=${dated.payload.id}`);
    }
  });
}
