import { E2E_SMTP_PORT } from "../../playwright.config";
import { expect, mailbox, test } from "./fixtures";

test("a company admin configures the company's mailer from company settings; a failed test mail names the SMTP stage", async ({ page, loginAs }) => {
  await loginAs("acme");
  await page.goto("/companySettings");
  await page.getByRole("link", { name: "Default Mailer Config" }).click();
  await expect(page).toHaveURL(/\/companyMailerSetting$/);
  await expect(page.getByRole("heading", { name: "Default Mailer Config" })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Required host name")).toBeVisible();
  await expect(page.getByText("Required password")).toBeVisible();

  await page.getByRole("textbox", { name: "Host" }).fill("127.0.0.1");
  await page.getByRole("spinbutton", { name: "Port" }).fill("1");
  await page.getByRole("textbox", { name: "User Name" }).fill("console");
  await page.getByLabel("Password").fill("s3cret-value");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Mailer configuration saved successfully", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByText("A password is saved")).toBeVisible();

  await page.getByRole("button", { name: "Send test mail" }).click();
  await expect(page.getByTestId("mailer-result")).toContainText(/Test mail failed: .*the connection/);
  // In Spanish the sentence is Spanish; the SMTP stage and reply stay as the server gave them.
  await page.request.post("/resources/language", { form: { lng: "es", redirectTo: "/" }, maxRedirects: 0 });
  await page.goto("/companyMailerSetting");
  await page.getByRole("button", { name: "Enviar correo de prueba" }).click();
  await expect(page.getByTestId("mailer-result")).toContainText(/^El correo de prueba ha fallado: .*the connection/);
  await page.request.post("/resources/language", { form: { lng: "en", redirectTo: "/" }, maxRedirects: 0 });
  await page.goto("/companyMailerSetting");

  // Pointed at the run's SMTP server the test mail is delivered, and ACME's mail in later specs goes there too.
  await page.getByRole("spinbutton", { name: "Port" }).fill(String(E2E_SMTP_PORT));
  await page.getByLabel("Password").fill("s3cret-value");
  await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByRole("button", { name: "Save" }).click()]);
  await expect(page.getByRole("spinbutton", { name: "Port" })).toHaveValue(String(E2E_SMTP_PORT));
  await page.getByRole("button", { name: "Send test mail" }).click();
  await expect(page.getByTestId("mailer-result")).toHaveText("Test mail sent");
  const tests = (await mailbox()).filter((m) => m.subject === "Test mail from the keyless-access console");
  expect(tests.at(-1)).toMatchObject({ to: ["admin@acme.example"], text: `This is a test of the mailer 127.0.0.1:${E2E_SMTP_PORT} for Acme Corporation (ACME).` });
});

test("root opens the platform default from the company list, in Spanish", async ({ page, loginAs }) => {
  await loginAs("root", "es");
  await page.goto("/company");
  await page.getByRole("link", { name: "Configuración de correo predeterminada" }).click();
  await expect(page.getByRole("heading", { name: "Configuración de correo predeterminada" })).toBeVisible();
  await expect(page.getByText("El servidor de correo predeterminado de la plataforma")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Servidor" })).toHaveValue("127.0.0.1");
  await expect(page.getByLabel("Contraseña")).toHaveValue("");
});

for (const { lang, host, save, invalid } of [
  { lang: "en", host: "Host", save: "Save", invalid: "Host name is invalid" },
  { lang: "es", host: "Servidor", save: "Guardar", invalid: "El servidor no es válido" },
] as const) {
  test(`a host name refused by the server comes back on the host field (${lang})`, async ({ page, loginAs }) => {
    await loginAs("acme", lang);
    await page.goto(`/companyMailerSetting?lng=${lang}`);
    const hostField = page.getByRole("textbox", { name: host });
    await hostField.fill("smtp host!");
    await page.getByRole("spinbutton").fill("25");
    await page.locator("#mailer-user_name").fill("console");
    await page.locator("#mailer-user_password").fill("s3cret-value");
    // Skip the browser's check so the answer is the server's.
    const saveButton = page.getByRole("button", { name: save, exact: true });
    await saveButton.evaluate((b) => b.setAttribute("formnovalidate", ""));
    await saveButton.click();

    await expect(hostField).toHaveAttribute("aria-invalid", "true");
    await expect(hostField).toHaveAccessibleDescription(invalid);
    await expect(page.getByText(invalid)).toHaveCount(1);
    await hostField.fill("smtp.example.com");
    await expect(hostField).not.toHaveAttribute("aria-invalid", "true");
  });
}
