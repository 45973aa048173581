import { expect, test } from "./fixtures";

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
