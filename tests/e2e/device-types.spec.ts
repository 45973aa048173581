import { expect, test } from "./fixtures";

const unique = () => Math.random().toString(36).slice(2, 6).toUpperCase();

test("root adds, modifies and deletes a device type; a type in use cannot be deleted", async ({ page, loginAs }) => {
  await loginAs("root");
  await page.goto("/");
  await page.getByTestId("tile-deviceType").click();
  await expect(page).toHaveURL(/\/deviceType$/);
  await expect(page.getByRole("heading", { name: "Device Types" })).toBeVisible();
  await expect(page.locator("tbody tr", { hasText: "AB-100" })).toContainText("Access Board");

  await page.getByRole("link", { name: "Add Device Type" }).click();
  await page.getByRole("button", { name: "Add Device Type" }).click();
  await expect(page.getByText("Device Code is Required")).toBeVisible();
  await expect(page.getByText("Device Type is Required")).toBeVisible();
  const code = `KP-${unique()}`;
  await page.getByRole("textbox", { name: "Device Code" }).fill(code);
  await page.getByRole("textbox", { name: "Device Type" }).fill("Keypad");
  await page.getByRole("button", { name: "Add Device Type" }).click();
  await expect(page).toHaveURL(/\/deviceType$/);
  await expect(page.getByText("Device type created successfully", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "Open Keypad" }).first().click();
  await expect(page.getByRole("heading", { name: "Modify Device Type" })).toBeVisible();
  await page.getByRole("textbox", { name: "Device Type" }).fill("Keypad Pro");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Device type modified successfully", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Delete Access Board" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("This device type is in use by devices or firmware and cannot be deleted", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Delete Keypad Pro" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Device type deleted successfully", { exact: true })).toBeVisible();
  await expect(page.locator("tbody tr", { hasText: code })).toHaveCount(0);
});

test("the device type list in Spanish", async ({ page, loginAs }) => {
  await loginAs("root", "es");
  await page.goto("/deviceType");
  await expect(page.getByRole("heading", { name: "Tipos de dispositivo" })).toBeVisible();
  await page.getByRole("link", { name: "Añadir tipo de dispositivo" }).click();
  await page.getByRole("button", { name: "Añadir tipo de dispositivo" }).click();
  await expect(page.getByText("El código de dispositivo es obligatorio")).toBeVisible();
});
