import { expect, LANGUAGE_AND_WIDTH_RUNS, test, unique } from "./fixtures";

const TEXT = {
  en: {
    add: "Add API Key",
    name: "Name",
    module: "Role",
    create: "Create key",
    once: "Copy this key now",
    done: "Done",
    revoke: "Revoke",
    revoked: "Revoked",
    toast: "API key revoked",
  },
  es: {
    add: "Añadir clave de API",
    name: "Nombre",
    module: "Roles",
    create: "Crear clave",
    once: "Copie esta clave ahora",
    done: "Listo",
    revoke: "Revocar",
    revoked: "Revocada",
    toast: "Clave de API revocada",
  },
};

for (const run of LANGUAGE_AND_WIDTH_RUNS) {
  test(`an admin creates an API key, sees it once and revokes it (${run.lang}, ${run.width} px)`, async ({ page, loginAs }) => {
    const text = TEXT[run.lang];
    const name = `Sync ${unique()}`;
    await page.setViewportSize({ width: run.width, height: run.height });
    await loginAs("acme", run.lang);
    await page.goto("/apiKeys");
    await page.getByRole("link", { name: text.add }).click();
    await page.getByRole("textbox", { name: text.name }).fill(name);
    await page.getByRole("checkbox", { name: text.module, exact: true }).check();
    await page.getByRole("button", { name: text.create }).click();

    await expect(page.getByText(text.once)).toBeVisible();
    const key = (await page.getByTestId("api-key-value").textContent())!.trim();
    expect(key).toMatch(/^kla_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("link", { name: text.done }).click();
    // Listed by its public part only: the secret is not shown again.
    await expect(page.getByText(`${key.slice(0, 16)}_…`)).toBeVisible();
    await expect(page.getByText(key)).toHaveCount(0);

    await page.getByRole("button", { name: `${text.revoke} ${name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: text.revoke }).click();
    await expect(page.getByText(text.toast, { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: `${text.revoke} ${name}` })).toHaveCount(0);
  });
}
