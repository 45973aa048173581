import { expect, mailbox, signIn, test } from "./fixtures";

const unique = () => Math.random().toString(36).slice(2, 7);

test("a reseller requests a company, root accepts it (its admin is invited) and rejects another", async ({ page, loginAs }) => {
  await loginAs("var");
  await page.goto("/");
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "VAR Panel" }).click();
  await expect(page).toHaveURL(/\/varPanel$/);
  await expect(page.locator("tbody tr", { hasText: "Acme Corporation" })).toBeVisible();
  await expect(page.locator("tbody tr", { hasText: "Beta Labs" })).toHaveCount(0);

  await page.getByRole("link", { name: "New Company Request" }).click();
  await page.getByRole("button", { name: "Send Request" }).click();
  await expect(page.getByText("Required company name")).toBeVisible();
  await expect(page.getByText("Required renewal term")).toBeVisible();
  const id = unique();
  const name = `Zeta ${id}`;
  await page.getByRole("textbox", { name: "Company Name" }).fill(name);
  await page.getByRole("combobox", { name: "Renewal Term" }).selectOption("3");
  await page.getByRole("textbox", { name: "First Name" }).fill("Zoe");
  await page.getByRole("textbox", { name: "Last Name" }).fill("Zeta");
  await page.getByRole("textbox", { name: "Email" }).fill(`zoe.${id}@zeta.example`);
  await page.getByRole("textbox", { name: "Telephone" }).fill("5556667777");
  await page.getByRole("button", { name: "Send Request" }).click();
  await expect(page).toHaveURL(/\/varPanel$/);
  await expect(page.getByText("Company request created successfully", { exact: true })).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, "root");
  await page.goto("/company");
  await page.getByRole("link", { name: "View Company Requests" }).click();
  const row = page.locator("tbody tr", { hasText: name });
  await expect(row).toContainText("3-Year");
  await expect(row).toContainText("Northwind Resellers (RSL1)");
  await row.getByRole("button", { name: `Create company ${name}` }).click();
  await expect(page.getByText(/^Company created successfully \([A-UW-Z0-9]{4}\)$/)).toBeVisible();
  await expect(row).toContainText("Accepted");
  const code = (await page
    .getByText(/^Company created successfully/)
    .first()
    .textContent())!.match(/\(([A-Z0-9]{4})\)/)![1];

  // The new company is under the reseller, with its point of contact as its one (invited) user.
  await page.goto(`/company?q=${code}`);
  const created = page.locator("tbody tr", { hasText: name });
  await expect(created).toContainText(code);
  await expect(created.locator("td").nth(7)).toHaveText("1");
  // The invitation is delivered over SMTP to the run's mail server.
  await expect.poll(async () => (await mailbox()).some((m) => m.to.includes(`zoe.${id}@zeta.example`)), { timeout: 30_000 }).toBe(true);

  const other = page.locator("tbody tr", { hasText: "Delta Schools" });
  await page.goto("/viewCompanyRequests");
  await other.getByRole("button", { name: "Reject company Delta Schools" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Reject Company" }).click();
  await expect(page.getByText("Company request rejected", { exact: true })).toBeVisible();
  await expect(other).toContainText("Rejected");
  await expect(other.getByRole("button")).toHaveCount(0);
});

test("the request form in Spanish", async ({ page, loginAs }) => {
  await loginAs("var", "es");
  await page.goto("/newCompanyRequest");
  await expect(page.getByRole("heading", { name: "Nueva solicitud de empresa" })).toBeVisible();
  await page.getByRole("button", { name: "Enviar solicitud" }).click();
  await expect(page.getByText("Nombre de empresa obligatorio")).toBeVisible();
  await expect(page.getByText("Plazo de renovación obligatorio")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Plazo de renovación" }).locator("option")).toHaveText(["Elegir…", "1 año(s)", "3 año(s)"]);
});
