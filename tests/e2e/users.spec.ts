import type { Page } from "@playwright/test";
import { axeFindings } from "./axe";
import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, mailbox, test } from "./fixtures";
import { sidewaysScroll } from "./sideways-scroll";

/** Stores the language the way the header's switch does (the signed cookie the server reads). */
async function chooseLanguage(page: Page, lng: "en" | "es") {
  const res = await page.request.post("/resources/language", { form: { lng, redirectTo: "/" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
}

const unique = () => Math.random().toString(36).slice(2, 8);

test.describe("users (English)", () => {
  test.beforeEach(async ({ loginAs }) => loginAs("acme"));

  test("the grid pages 25 rows, sorts on the server and hides inactive users by default", async ({ page }) => {
    await page.goto("/users");
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(25);
    await expect(page.getByRole("switch", { name: "Hide inactive" })).toBeChecked();
    await expect(page.getByRole("link", { name: "admin@acme.example" })).toHaveAttribute("href", "mailto:admin@acme.example");
    await expect(page.getByRole("link", { name: "Add User" })).toBeVisible();

    await page.getByRole("link", { name: "Email" }).click();
    await expect(page).toHaveURL(/sort=email/);

    await page.getByRole("switch", { name: "Hide inactive" }).click();
    await expect(page).toHaveURL(/hideInactive=0/);
    await expect(page.getByRole("switch", { name: "Hide inactive" })).not.toBeChecked();

    await page.goto("/users?sort=displayName");
    await rows.first().click();
    await expect(page).toHaveURL(/\/modifyUser\?id=\d+/);
  });

  test("last activity links to the user's activity", async ({ page }) => {
    await page.goto("/users");
    const admin = page.locator("tbody tr", { hasText: "admin@acme.example" });
    await expect(admin.getByRole("link", { name: /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/ })).toHaveAttribute("href", "/activity?id=3&type=Triggered+By");
  });

  test("add user: validation, display name auto-fill, super admin turns on web management, then modify page", async ({ page }) => {
    await page.goto("/adduser");
    await expect(page.getByRole("heading", { name: "Add User" })).toBeVisible();
    await expect(page.getByRole("region", { name: "E-keys" })).toBeVisible();
    await expect(page.getByText("E-keys can be assigned once the user is saved.").first()).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Scheduled open interrupt" })).toBeChecked();

    // Save on the empty form is enabled and answers with every required field's message.
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("First name is required").first()).toBeVisible();
    await expect(page.getByText("Email is required").first()).toBeVisible();
    await page.getByLabel("Email").fill("x");
    await expect(page.getByText("Email is invalid").first()).toBeVisible();
    const id = unique();
    // First name first, then last name: the display name follows both as they are typed.
    await page.getByLabel("First name").pressSequentially("Paula");
    await page.getByLabel("Last name").pressSequentially("Quintero");
    await expect(page.getByLabel("Display name")).toHaveValue("Quintero, Paula");
    await page.getByLabel("Email").fill(`paula.${id}@acme.example`);
    // The country picker starts at the company's default (+1): a US cell is 10 digits.
    await page.getByLabel("Cell").fill("555123");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Cell number is invalid").first()).toBeVisible();
    await page.getByLabel("Cell").fill(`555${String(Date.now()).slice(-7)}`);
    await expect(page.getByLabel("Cell")).toHaveValue(/^\d{3}-\d{3}-\d{4}$/);
    await page.getByRole("checkbox", { name: "Super admin" }).click();
    await expect(page.getByRole("checkbox", { name: "Sentinel web management" })).toBeChecked();
    // Invited by default, to the console since the user has console rights (decision 0055).
    await expect(page.getByRole("checkbox", { name: "Send invite" })).toBeChecked();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/modifyUser\?id=\d+/);
    await expect(page.getByText("User Created; invite sent").first()).toBeVisible();
    const invite = async () => (await mailbox()).find((m) => m.to.includes(`paula.${id}@acme.example`));
    await expect.poll(invite, { timeout: 30_000 }).toBeTruthy();
    expect((await invite())!.subject).toBe("You are invited to the Acme Corporation console");
    await expect(page.getByRole("button", { name: "Resend invite" })).toBeVisible();
  });

  test("duplicate email is refused with the spec's message", async ({ page }) => {
    await page.goto("/addUser");
    await page.getByLabel("Last name").fill("Copy");
    await page.getByLabel("First name").fill("Cat");
    await page.getByLabel("First name").blur();
    await page.getByLabel("Email").fill("admin@acme.example");
    await page.getByLabel("Cell").fill("5559990001");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("This email already exists in this company").first()).toBeVisible();
  });

  test("modify: save is enabled and saves a change", async ({ page }) => {
    const { id } = await (await adminApi(page.request)).createUser("Mo", `Modify${unique()}`);
    await page.goto(`/modifyUser?id=${id}`);
    const save = page.getByRole("button", { name: "Save" });
    await expect(save).toBeEnabled();
    await page.getByLabel("Notes").fill(`note ${unique()}`);
    await save.click();
    await expect(page.getByText("User Modified").first()).toBeVisible();
  });

  test("flagged banner approves the account; header buttons follow the company settings", async ({ page }) => {
    // A user of its own, flagged through the admin API, so the test does not depend on earlier runs.
    const api = await adminApi(page.request);
    const { id } = await api.createUser("Flo", `Flagged${unique()}`);
    await api.call("POST", "/user/flaggedUser", { userId: id, is_flagged: "1" });

    await page.goto(`/modifyUser?id=${id}`);
    await expect(page.getByText("This account is locked due to suspicious activity").first()).toBeVisible();
    // ACME: reset security is admin, multi-phone login off.
    await expect(page.getByRole("button", { name: "Send reset link" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Forget device" })).toBeVisible();
    await page.getByRole("button", { name: "Approve account" }).click();
    await expect(page.getByText("Account Approved").first()).toBeVisible();
    await expect(page.getByText("This account is locked due to suspicious activity")).toHaveCount(0);

    // Both ask first; cancelling sends nothing.
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Send a password reset link?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).first().click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(page.getByText("Password Reset Link Sent")).toHaveCount(0);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByText("Password Reset Link Sent").first()).toBeVisible();
    // This user never signed in on a phone: the server says so instead of "Device Forgotten".
    await page.getByRole("button", { name: "Forget device" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Forget this user's phone?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Forget device" }).click();
    await expect(page.getByText("No phone registered").first()).toBeVisible();
    await expect(page.getByText("Device Forgotten")).toHaveCount(0);
  });

  test("delete from the modify page asks first, then returns to the list", async ({ page }) => {
    await page.goto("/addUser");
    await page.getByLabel("Last name").fill("Temp");
    await page.getByLabel("First name").fill("Tina");
    await page.getByLabel("First name").blur();
    await page.getByLabel("Email").fill(`tina.${unique()}@acme.example`);
    await page.getByLabel("Cell").fill(`556${String(Date.now()).slice(-7)}`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/modifyUser\?id=\d+/);
    await page.getByRole("button", { name: "Delete Temp, Tina" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Delete user?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByText("Removed User").first()).toBeVisible();
  });

  test("erasing a person's activity asks first, leaves none of their entries and records the erasure (en, es)", async ({ page }) => {
    await page.goto("/addUser");
    await page.getByLabel("Last name").fill("Gone");
    await page.getByLabel("First name").fill("Gina");
    await page.getByLabel("First name").blur();
    await page.getByLabel("Email").fill(`gina.${unique()}@acme.example`);
    await page.getByLabel("Cell").fill(`557${String(Date.now()).slice(-7)}`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/modifyUser\?id=\d+/);
    const id = new URL(page.url()).searchParams.get("id");
    await page.goto(`/activity?id=${id}&type=User`);
    await expect(page.getByRole("cell", { name: "User Created" })).toBeVisible();

    await chooseLanguage(page, "es");
    await page.goto(`/modifyUser?id=${id}`);
    await page.getByRole("button", { name: "Borrar la actividad de Gone, Gina" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("¿Borrar la actividad de esta persona?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancelar", exact: true }).first().click();
    await chooseLanguage(page, "en");
    await page.reload();
    await page.getByRole("button", { name: "Erase the activity of Gone, Gina" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Every activity log entry that names “Gone, Gina”");
    await page.getByRole("alertdialog").getByRole("button", { name: "Erase activity" }).click();
    await expect(page.getByText("Activity erased").first()).toBeVisible();
    await page.goto(`/activity?id=${id}&type=User`);
    await expect(page.getByRole("cell", { name: "User Created" })).toHaveCount(0);
    await page.goto("/activity?additionalFilter=User+Activity+Erased");
    // One entry named her: her creation, which carries the invite the add-user form sends by default.
    await expect(page.getByRole("cell", { name: new RegExp(`Activity of user #${id} erased: 1 entries`) })).toBeVisible();
  });

  test("the grid's delete cell asks first and removes the user", async ({ page }) => {
    const login = await page.request.post("/api/admin/user/login", { data: { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" } });
    const { token } = await login.json();
    const name = `Aaa${unique()}`;
    const created = await page.request.post("/api/admin/user/addUser", {
      headers: { Authorization: token },
      data: {
        firstName: "Gina",
        lastName: name,
        displayName: `${name}, Gina`,
        emailId: `${name}@acme.example`,
        countryCode: "1",
        phoneNumer: `557${String(Date.now()).slice(-7)}`,
      },
    });
    expect(created.status()).toBe(200);

    await page.goto("/users");
    // One's own row has no delete button (the server refuses it too).
    await expect(page.getByRole("cell", { name: "Admin, Alice", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Delete Admin, Alice" })).toHaveCount(0);
    await page.getByRole("button", { name: `Delete ${name}, Gina` }).click();
    await expect(page.getByRole("alertdialog")).toContainText(`“${name}, Gina” and their e-keys will be removed.`);
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Removed User").first()).toBeVisible();
    await expect(page.getByRole("cell", { name: `${name}, Gina` })).toHaveCount(0);
  });

  test("missing or foreign ids go back to the list", async ({ page }) => {
    await page.goto("/modifyUser");
    await expect(page).toHaveURL(/\/users$/);
    await page.goto("/modifyUser?id=4"); // BETA's admin
    await expect(page).toHaveURL(/\/users$/);
  });
});

test("a role without the users module gets no users pages", async ({ page, loginAs }) => {
  await loginAs("auditor");
  const res = await page.goto("/users");
  expect(res?.status()).toBe(403);
});

test("users in Spanish: grid, validation messages and the add form", async ({ page, loginAs }) => {
  await loginAs("acme");
  await chooseLanguage(page, "es");
  await page.goto("/users");
  await expect(page.getByRole("heading", { name: "Usuarios" })).toBeVisible();
  await expect(page.getByRole("switch", { name: "Ocultar inactivos" })).toBeChecked();
  await page.getByRole("link", { name: "Añadir usuario" }).click();
  await expect(page.getByRole("heading", { name: "Añadir usuario" })).toBeVisible();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("El nombre es obligatorio").first()).toBeVisible();
  await page.getByLabel("Correo").fill("mal");
  await expect(page.getByText("El correo no es válido").first()).toBeVisible();
  await page.locator("#user-lastName").pressSequentially("Molina");
  await page.locator("#user-firstName").pressSequentially("Dan");
  await expect(page.getByLabel("Nombre visible")).toHaveValue("Molina, Dan");

  // The confirmations speak Spanish too.
  const { id } = await (await adminApi(page.request)).createUser("Sin", `Telefono${unique()}`);
  await page.goto(`/modifyUser?id=${id}`);
  await page.getByRole("button", { name: "Olvidar dispositivo" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("¿Olvidar el teléfono de este usuario?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Olvidar dispositivo" }).click();
  await expect(page.getByText("No hay ningún teléfono registrado").first()).toBeVisible();
});

for (const run of LANGUAGE_AND_WIDTH_RUNS) {
  test(`import from a CSV at ${run.width} px (${run.lang}): a preview with two refused rows (a bad e-mail, an unknown group), nothing saved until confirmed, then the users and a group key with its fob`, async ({
    page,
    loginAs,
  }) => {
    const text = {
      en: {
        users: "Users",
        import: "Import",
        title: "Import users",
        file: "CSV file",
        preview: "Preview",
        refused: "Email is invalid",
        unknownGroup: "No device group of this company has this name: Nowhere",
        confirm: "Import 2 users",
        done: "Import finished: 2 created",
        see: "See the users",
      },
      es: {
        users: "Usuarios",
        import: "Importar",
        title: "Importar usuarios",
        file: "Archivo CSV",
        preview: "Vista previa",
        refused: "El correo no es válido",
        unknownGroup: "Ningún grupo de dispositivos de esta empresa tiene este nombre: Nowhere",
        confirm: "Importar 2 usuarios",
        done: "Importación terminada: 2 creados",
        see: "Ver los usuarios",
      },
    }[run.lang];
    await page.setViewportSize({ width: run.width, height: run.height });
    await loginAs("acme", run.lang);
    const id = unique();
    const phone = () => `699 ${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
    // A Spanish spreadsheet's file: a byte-order mark and ';' between cells; a group key with a fob, and an unknown group.
    const csv = [
      "first_name;last_name;display_name;email;country_code;phone;role;status;external_id;group_keys;fob",
      `Irene;Prado;;imp-${id}-a@acme.example;034;${phone()};;active;;Office Hours;F-${id}`,
      `Óscar;Núñez;;imp-${id}-b@acme.example;034;${phone()};Auditor;;;;`,
      `Mal;Correo;;imp-${id}-not-an-email;034;${phone()};;;;;`,
      `Sin;Grupo;;imp-${id}-c@acme.example;034;${phone()};;;;Nowhere;`,
    ].join("\r\n");

    await page.goto("/users");
    await page.getByRole("link", { name: text.import, exact: true }).click();
    await expect(page.getByRole("heading", { name: text.title })).toBeVisible();
    // The optional key columns are described with the others.
    await expect(page.getByText("e_keys", { exact: true })).toBeVisible();
    await expect(page.getByText("group_keys", { exact: true })).toBeVisible();
    await expect(page.getByText("fob", { exact: true })).toBeVisible();
    await page.getByLabel(text.file).setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(`\uFEFF${csv}`) });
    await page.getByRole("button", { name: text.preview }).click();
    const counts = page.getByTestId("import-counts");
    await expect(counts.locator('[data-outcome="create"] dd')).toHaveText("2");
    await expect(counts.locator('[data-outcome="refuse"] dd')).toHaveText("2");
    // A table on a desktop, a card a row on a phone.
    const refused = page.getByTestId(run.width < 640 ? "import-preview-cards" : "import-preview").locator('[data-outcome="refuse"]');
    await expect(refused).toHaveCount(2);
    await expect(refused.first()).toContainText(text.refused);
    await expect(refused.nth(1)).toContainText(text.unknownGroup);
    // The preview's table fits the width (it scrolls in its own box on a phone) and axe finds nothing.
    expect(await sidewaysScroll(page, { tables: run.width >= 1024 })).toEqual([]);
    expect(await axeFindings(page)).toEqual([]);
    await keepScreenshot(page, `import-preview-${run.lang}-${run.width}`, { fullPage: true });

    // Nothing is saved by the preview.
    const listed = async () => (await (await adminApi(page.request)).call<{ payload: unknown[] }>("GET", `/user/getAllUsers?q=imp-${id}`)).payload.length;
    expect(await listed()).toBe(0);

    await page.getByRole("button", { name: text.confirm }).click();
    await expect(page.getByText(text.done)).toBeVisible();
    await expect(page.getByTestId("import-run").locator("progress")).toHaveAttribute("value", "1");
    await keepScreenshot(page, `import-done-${run.lang}-${run.width}`, { fullPage: true });
    await page.getByRole("link", { name: text.see }).click();
    await expect(page.getByRole("heading", { name: text.users })).toBeVisible();
    await page.goto(`/users?q=imp-${id}`);
    await expect(page.locator("tbody tr")).toHaveCount(2);
    await expect(page.getByText(`imp-${id}-b@acme.example`)).toBeVisible();
    // Irene's group key, with its fob, is on her key list.
    const admin = await adminApi(page.request);
    const [irene] = (await admin.call<{ payload: { id: number }[] }>("GET", `/user/getAllUsers?q=imp-${id}-a`)).payload;
    const keys = (await admin.call<{ payload: { group: { full_name?: string } | null; FOBDeviceId?: string | null }[] }>("GET", `/user/getAssignedEkeys?userId=${irene.id}`))
      .payload;
    expect(JSON.stringify(keys)).toContain("Office Hours");
    expect(JSON.stringify(keys)).toContain(`F-${id}`);
  });
}
