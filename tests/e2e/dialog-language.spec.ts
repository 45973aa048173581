import { expect, signIn, test } from "./fixtures";

/**
 * A dialog's corner close button is named in the reader's language even when the dialog passes no
 * label of its own (the device-transfer dialog is one): screen readers said "Close" on Spanish pages.
 */
for (const { lang, close } of [
  { lang: "en", close: "Close" },
  { lang: "es", close: "Cerrar" },
] as const) {
  test(`the transfer dialog's close button reads "${close}" (${lang})`, async ({ page }) => {
    await signIn(page, "var", lang);
    await page.goto("/varPanel");
    await page.getByRole("link", { name: /^(Transfer boards to|Transferir placas a) Acme/ }).click();
    await expect(page).toHaveURL(/\/deviceTransfer\?company_id=\d+/);
    await page.locator("main tbody tr").first().getByRole("checkbox").click();
    await page.getByRole("button", { name: /ACME|Acme/ }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("button", { name: close, exact: true })).toBeVisible();
    await dialog.getByRole("button", { name: close, exact: true }).click();
    await expect(dialog).toBeHidden();
  });
}
