import { adminApi, expect, test, unique } from "./fixtures";

/**
 * Every page form answers the same way (Conform + the form's zod schema): a refusal only the server
 * can make comes back on its field, translated; editing the field clears it; tabbing through an
 * empty form turns nothing red.
 */
const LANGS = [
  {
    lang: "en",
    user: { email: "Email", save: "Save", taken: "This email already exists in this company" },
    group: {
      zone: "Time zone",
      save: "Save",
      required: "Time zone is required",
      fullName: "Full name",
      add: "Add and return to device groups",
      full: "Full name is required",
      display: "Display name is required",
    },
  },
  {
    lang: "es",
    user: { email: "Correo", save: "Guardar", taken: "Este correo ya existe en esta empresa" },
    group: {
      zone: "Zona horaria",
      save: "Guardar",
      required: "La zona horaria es obligatoria",
      fullName: "Nombre completo",
      add: "Añadir y volver a grupos de dispositivos",
      full: "El nombre completo es obligatorio",
      display: "El nombre visible es obligatorio",
    },
  },
] as const;

for (const { lang, user, group } of LANGS) {
  test.describe(`form errors (${lang})`, () => {
    test.beforeEach(async ({ loginAs }) => loginAs("acme", lang));

    test("a duplicate email on add user comes back on the email field, and editing the field clears it", async ({ page }) => {
      await page.goto(`/addUser?lng=${lang}`);
      await page.locator("#user-lastName").fill("Copy");
      await page.locator("#user-firstName").fill("Cat");
      await page.locator("#user-firstName").blur();
      await page.locator("#user-email").fill("ADMIN@acme.example");
      await page.locator("#user-cell").fill(`555${String(Date.now()).slice(-7)}`);
      await page.getByRole("button", { name: user.save }).click();

      const email = page.getByLabel(user.email);
      await expect(email).toHaveAttribute("aria-invalid", "true");
      await expect(email).toHaveAccessibleDescription(user.taken);
      await expect(page.getByText(user.taken)).toHaveCount(1);
      await expect(page.locator("#user-firstName")).not.toHaveAttribute("aria-invalid", "true");

      await email.fill(`copy.${unique()}@acme.example`);
      await expect(email).not.toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(user.taken)).toHaveCount(0);
    });

    test("an unknown time zone on a device group comes back on the zone field, and choosing a zone clears it", async ({ page }) => {
      const { id } = await (await adminApi(page.request)).createGroup(`Zone ${unique()}`);
      await page.goto(`/modifyDeviceGroup?id=${id}&lng=${lang}`);
      const zone = page.getByLabel(group.zone);
      const madrid = await zone.inputValue();
      // A zone id the browser cannot tell from a real one: only the server knows it does not exist.
      await zone.evaluate((select) => (select as unknown as HTMLSelectElement).add(new Option("Atlantis/Nowhere", "999999")));
      await zone.selectOption("999999");
      await page.getByRole("button", { name: group.save, exact: true }).click();

      await expect(zone).toHaveAttribute("aria-invalid", "true");
      await expect(zone).toHaveAccessibleDescription(group.required);
      await expect(page.getByText(group.required)).toHaveCount(1);

      await zone.selectOption(madrid);
      await expect(zone).not.toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(group.required)).toHaveCount(0);
    });

    test("the add device-group form: tabbing turns nothing red, Save shows each error once, typing clears that field's", async ({ page }) => {
      await page.goto(`/addDeviceGroup?lng=${lang}`);
      const form = page.locator("form#group-add");
      await form.locator("input[name=displayName]").focus();
      for (let i = 0; i < 8; i++) await page.keyboard.press("Tab");
      await expect(form.locator("[aria-invalid=true]")).toHaveCount(0);
      await expect(page.getByText(group.full)).toHaveCount(0);

      await page.getByRole("button", { name: group.add, exact: true }).click();
      const fullName = page.getByLabel(group.fullName);
      await expect(fullName).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(group.full)).toHaveCount(1);
      await expect(page.getByText(group.display)).toHaveCount(1);

      await fullName.fill("Night shift");
      await expect(fullName).not.toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(group.full)).toHaveCount(0);
      // The other fields keep theirs until they change.
      await expect(page.getByText(group.display)).toHaveCount(1);
    });
  });
}

test("tabbing through an empty add-user form shows no errors until Save", async ({ page, loginAs }) => {
  await loginAs("acme");
  await page.goto("/addUser");
  await page.locator("#user-firstName").focus();
  for (let i = 0; i < 8; i++) await page.keyboard.press("Tab");
  await expect(page.locator("form#user-form [aria-invalid]")).toHaveCount(0);
  await expect(page.getByText("First name is required")).toHaveCount(0);

  await page.locator("#user-email").fill("x");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("First name is required")).toHaveCount(1);
  await expect(page.getByText("Email is invalid")).toHaveCount(1);
});
