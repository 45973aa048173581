import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

const unique = () => Math.random().toString(36).slice(2, 7);

const COMPANY_TILES = ["users", "devices", "deviceGroups", "activity", "alerts", "support", "companySettings", "role"];

async function switchUser(page: Page, who: "acme" | "auditor", lang: "en" | "es" = "en") {
  await page.context().clearCookies();
  await signIn(page, who, lang);
}

async function assign(page: Page, role: string, user: RegExp) {
  await page.goto("/assignRole");
  await page.getByRole("combobox", { name: "Role", exact: true }).selectOption({ label: role });
  const option = page.getByRole("combobox", { name: "User", exact: true }).locator("option").filter({ hasText: user });
  await page.getByRole("combobox", { name: "User", exact: true }).selectOption((await option.getAttribute("value"))!);
  await page.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(page.getByText("Role assigned successfully", { exact: true })).toBeVisible();
}

test.describe("roles (English)", () => {
  test("a company admin creates a role and assigns it; the user then sees exactly those modules", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/");
    await page.getByTestId("tile-role").click();
    await expect(page.getByRole("heading", { name: "Roles" })).toBeVisible();
    await expect(page.locator("tbody tr", { hasText: "Company Admin" })).toBeVisible();

    await page.getByRole("link", { name: "Add Role" }).click();
    await expect(page.getByRole("heading", { name: "Add Role" })).toBeVisible();
    // Platform modules are not offered to a company.
    await expect(page.getByRole("checkbox", { name: "Company", exact: true })).toHaveCount(0);
    await page.getByRole("checkbox", { name: "View" }).click();
    await page.getByRole("button", { name: "Create Role" }).click();
    await expect(page.getByText("Required role")).toBeVisible();
    await expect(page.getByText("Please choose at least one permission modules or actions or permission all")).toBeVisible();

    const title = `Door Staff ${unique()}`;
    await page.getByRole("textbox", { name: "Role Title" }).fill(title);
    await page.getByRole("checkbox", { name: "View" }).click();
    await page.getByRole("checkbox", { name: "Devices", exact: true }).click();
    await page.getByRole("checkbox", { name: "Device Groups" }).click();
    await page.getByRole("button", { name: "Create Role" }).click();
    await expect(page).toHaveURL(/\/role$/);
    await expect(page.getByText("Role created successfully", { exact: true })).toBeVisible();

    await page.goto("/assignRole");
    await expect(page.getByTestId("users-assigned")).toContainText("Auditor, Aldo");
    await page.getByRole("button", { name: "Assign", exact: true }).click();
    await expect(page.getByText("Required role")).toBeVisible();
    await expect(page.getByText("Required user")).toBeVisible();
    await assign(page, title, /auditor@acme\.example/);
    await expect(page.getByTestId("users-assigned").locator("li", { hasText: "Auditor, Aldo" })).toContainText(title);

    await switchUser(page, "auditor");
    await page.goto("/");
    await expect(page.getByTestId("tile-devices")).toBeVisible();
    await expect(page.getByTestId("tile-deviceGroups")).toBeVisible();
    for (const key of COMPANY_TILES.filter((k) => k !== "devices" && k !== "deviceGroups")) await expect(page.getByTestId(`tile-${key}`)).toHaveCount(0);
    await page.goto("/activity");
    await expect(page.getByTestId("error-403")).toBeVisible();

    // Give the auditor back the read-only role the other tests rely on.
    await switchUser(page, "acme");
    await assign(page, "Auditor", /auditor@acme\.example/);
  });

  test("removing a role asks first, and the signed-in admin's own row offers no removal", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/assignRole");
    const assigned = page.getByTestId("users-assigned");
    await expect(assigned.locator("li", { hasText: "Admin, Alice" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Remove the role of Admin, Alice" })).toHaveCount(0);

    await page.getByRole("button", { name: "Remove the role of Auditor, Aldo" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Remove the role of Auditor, Aldo?" });
    await expect(dialog).toContainText("“Auditor”");
    await dialog.getByRole("button", { name: "Cancel", exact: true }).last().click();
    await expect(dialog).toBeHidden();
    await page.reload();
    // Cancelled: the auditor still holds the role.
    await expect(assigned.locator("li", { hasText: "Auditor, Aldo" })).toContainText("Auditor");
    await expect(page.getByRole("button", { name: "Remove the role of Auditor, Aldo" })).toBeVisible();
  });

  test("a user without the role module gets the shell and a clear message", async ({ page, loginAs }) => {
    await loginAs("auditor");
    await page.goto("/role");
    await expect(page.getByTestId("error-403")).toBeVisible();
  });
});

test.describe("roles (Spanish)", () => {
  test("adds a role in Spanish", async ({ page, loginAs }) => {
    await loginAs("acme", "es");
    await page.goto("/addRole");
    await expect(page.getByRole("heading", { name: "Añadir rol" })).toBeVisible();
    await page.getByRole("checkbox", { name: "Ver" }).click();
    await page.getByRole("button", { name: "Crear rol" }).click();
    await expect(page.getByText("Rol obligatorio")).toBeVisible();
    await page.getByRole("textbox", { name: "Nombre del rol" }).fill(`Lectores ${unique()}`);
    await page.getByRole("checkbox", { name: "Ver" }).click();
    await page.getByRole("checkbox", { name: "Actividad" }).click();
    await page.getByRole("button", { name: "Crear rol" }).click();
    await expect(page).toHaveURL(/\/role$/);
    await expect(page.getByText("Rol creado correctamente", { exact: true })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "Modificar" })).toBeVisible();
  });
});
