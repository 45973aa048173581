import { expect, LANGUAGE_AND_WIDTH_RUNS, test, unique } from "./fixtures";

/** The directory (SCIM) token screen: a token is shown once after it is made, then only its name and dates; revoking is asked first. */
test.describe("directory sync", () => {
  for (const run of LANGUAGE_AND_WIDTH_RUNS) {
    test(`create a token, shown once, then revoke it (${run.lang}, ${run.width} px)`, async ({ page, loginAs }) => {
      const text = {
        en: { title: "Directory sync", name: "Token name", create: "Create token", never: "Never", revoke: "Revoke", revoked: "Revoked", done: "Directory token revoked" },
        es: {
          title: "Sincronización del directorio",
          name: "Nombre del token",
          create: "Crear token",
          never: "Nunca",
          revoke: "Revocar",
          revoked: "Revocado",
          done: "Token del directorio revocado",
        },
      }[run.lang];
      const name = `Okta ${unique()}`;
      await page.setViewportSize({ width: run.width, height: run.height });
      await loginAs("acme", run.lang);
      await page.goto("/directorySync");
      await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();

      await page.getByLabel(text.name).fill(name);
      await page.getByRole("button", { name: text.create }).click();
      const secret = page.getByTestId("issued-token-value");
      await expect(secret).toHaveText(/^\d+\.[A-Za-z0-9_-]{43}$/);
      const token = (await secret.textContent())!;
      const row = page.getByRole("row").filter({ hasText: name });
      await expect(row).toContainText(text.never);

      // Shown once: a fresh load of the page has the name, never the secret.
      await page.reload();
      await expect(row).toBeVisible();
      await expect(page.getByTestId("issued-token-value")).toHaveCount(0);
      expect(await page.content()).not.toContain(token.split(".")[1]);

      await row.getByRole("button", { name: text.revoke }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: text.revoke }).click();
      await expect(page.getByText(text.done, { exact: true })).toBeVisible();
      await expect(row).toContainText(text.revoked);
      await expect(row.getByRole("button", { name: text.revoke })).toHaveCount(0);
    });
  }
});
