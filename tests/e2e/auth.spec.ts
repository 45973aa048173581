import { E2E_IDLE_PORT } from "../../playwright.config";
import type { Page } from "@playwright/test";
import { adminApi, DEMO, expect, LANGUAGE_AND_WIDTH_RUNS, mailbox, test, textMessages, unique, RESET_SAFE_GET } from "./fixtures";

test.describe("sign-in", () => {
  test("checks the form before sending and shows the server's failure message", async ({ page }) => {
    await page.goto("/login");
    // Tabbing past the empty fields turns nothing red; the errors come with Log in.
    await page.getByLabel("Company ID").focus();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(page.locator("[aria-invalid=true]")).toHaveCount(0);
    await page.getByLabel("Company ID").fill("AC");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("Company ID must have 4 characters")).toBeVisible();
    await expect(page.getByText("Email or Phone Number is required")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByLabel("Company ID").fill("acme");
    await page.getByLabel("Email or phone").fill("admin@acme.example");
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Incorrect Company ID, Username, or Password" })).toBeVisible();
    // Said once: the form's banner, no toast beside it.
    await expect(page.getByText("Incorrect Company ID, Username, or Password")).toHaveCount(1);
  });

  test("throttles repeated failures with a translated message", async ({ page }) => {
    // A throwaway account name: throttling is per account, so no other test's login is affected.
    const attempt = { companyId: "ACME", userName: "throttle-probe@acme.example", password: "wrong" };
    for (let i = 0; i < 5; i++) await page.request.post("/login", { form: attempt, maxRedirects: 0 });
    await page.request.post("/resources/language", { form: { lng: "es", redirectTo: "/login" }, maxRedirects: 0 });
    await page.goto("/login");
    await page.getByLabel("ID de empresa").fill(attempt.companyId);
    await page.getByLabel("Correo electrónico o teléfono").fill(attempt.userName);
    await page.getByLabel("Contraseña", { exact: true }).fill(attempt.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page.getByRole("alert").filter({ hasText: /Demasiados intentos fallidos\. Inténtelo de nuevo en \d+ minutos?\./ })).toBeVisible();
    await page.request.post("/resources/language", { form: { lng: "en", redirectTo: "/login" }, maxRedirects: 0 });
  });

  test("shows and hides the password", async ({ page }) => {
    await page.goto("/login");
    const password = page.getByLabel("Password", { exact: true });
    await password.fill("secret");
    await expect(password).toHaveAttribute("type", "password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(password).toHaveAttribute("type", "text");
  });

  test("signs in through the form, remembers the company and sends a signed-in user away from /login", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Company ID").fill(DEMO.beta.companyId);
    await page.getByLabel("Email or phone").fill(DEMO.beta.userName);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.beta.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await page.getByTestId("user-menu").click();
    await page.getByTestId("logout").click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator("#remembered-companies option[value=BETA]")).toHaveCount(1);
  });

  const TFA = {
    en: {
      company: "Company ID",
      user: "Email or phone",
      password: "Password",
      login: "Log in",
      byText: "Send the code by text message instead",
      required: "Two Factor Authentication is required to login",
      texted: "A new code has been sent to your phone by text message",
      code: "Code",
      verify: "Verify",
      sentTo: "sent to a•••@beta.example",
      sentByText: "sent by text to •••• ",
      channel: "Send my sign-in codes by",
      saveChannel: "Save sign-in code preference",
      channelSaved: "Sign-in code preference saved",
    },
    es: {
      company: "ID de empresa",
      user: "Correo electrónico o teléfono",
      password: "Contraseña",
      login: "Entrar",
      byText: "Enviar el código por SMS",
      required: "Se requiere autenticación de dos factores para iniciar sesión",
      texted: "Se ha enviado un código nuevo a su teléfono por SMS",
      code: "Código",
      verify: "Verificar",
      sentTo: "enviado a a•••@beta.example",
      sentByText: "enviado por SMS al •••• ",
      channel: "Enviarme los códigos de acceso por",
      saveChannel: "Guardar preferencia de códigos",
      channelSaved: "Preferencia de códigos de acceso guardada",
    },
  } as const;
  for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
    test(`two-factor (${lang}, ${width} px): the sign-in code sent by text message instead signs in`, async ({ page, request }) => {
      const t = TFA[lang];
      await page.setViewportSize({ width, height });
      const beta = await adminApi(request, "beta");
      const { payload: saved } = await beta.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
      await beta.call("PUT", "/settings/modifyCompanySettings", { ...saved, require_2fa: "1" });
      try {
        await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/login" }, maxRedirects: 0 });
        await page.goto("/login");
        await page.getByLabel(t.company).fill(DEMO.beta.companyId);
        await page.getByLabel(t.user).fill(DEMO.beta.userName);
        await page.getByLabel(t.password, { exact: true }).fill(DEMO.beta.password);
        await page.getByRole("button", { name: t.login }).click();
        await expect(page).toHaveURL(/\/twoFactorAuthentication\?/);
        await expect(page.locator("li[data-type]").filter({ hasText: t.required })).toBeVisible();
        await expect(page.getByTestId("code-destination")).toContainText(t.sentTo);
        const before = (await textMessages()).length;
        await page.getByRole("button", { name: t.byText }).click();
        await expect(page.locator("li[data-type]").filter({ hasText: t.texted })).toBeVisible();
        await expect(page.getByTestId("code-destination")).toContainText(t.sentByText);
        const texted = async () =>
          (await textMessages())
            .slice(before)
            .map((m) => /(?:code is|código de acceso es) (\d{6})/.exec(m.body)?.[1])
            .find(Boolean);
        await expect.poll(texted, { timeout: 30_000 }).toBeTruthy();
        await page.getByLabel(t.code, { exact: true }).fill((await texted())!);
        await page.getByRole("button", { name: t.verify }).click();
        await expect(page).toHaveURL(/\/$/);
      } finally {
        await beta.call("PUT", "/settings/modifyCompanySettings", saved);
      }
    });

    test(`two-factor (${lang}, ${width} px): codes by text chosen on Account Details go to the phone, and the code page says where`, async ({ page, request, loginAs }) => {
      const t = TFA[lang];
      await page.setViewportSize({ width, height });
      // ACME's admin, not BETA's: a person gets 5 texts an hour, and the other code tests text BETA's admin.
      const acme = await adminApi(request, "acme");
      const me = (await acme.call<{ payload: { id: number; e_mail: string; phone_number: string }[] }>("GET", "/user/getAllUsers")).payload.find(
        (u) => u.e_mail === DEMO.acme.userName,
      )!;
      const last4 = me.phone_number.slice(-4);
      const { payload: saved } = await acme.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
      try {
        // Signed in before the company requires a code (loginAs signs in with the password alone).
        await loginAs("acme", lang);
        await page.goto(`/modifyUser?id=${me.id}`);
        await page.getByLabel(t.channel).selectOption("text");
        await page.getByRole("button", { name: t.saveChannel }).click();
        await expect(page.locator("li[data-type]").filter({ hasText: t.channelSaved })).toBeVisible();
        await acme.call("PUT", "/settings/modifyCompanySettings", { ...saved, require_2fa: "1" });
        await page.getByTestId("user-menu").click();
        await page.getByTestId("logout").click();
        await expect(page).toHaveURL(/\/login/);
        const before = (await textMessages()).length;
        await page.getByLabel(t.company).fill(DEMO.acme.companyId);
        await page.getByLabel(t.user).fill(DEMO.acme.userName);
        await page.getByLabel(t.password, { exact: true }).fill(DEMO.acme.password);
        await page.getByRole("button", { name: t.login }).click();
        await expect(page.getByTestId("code-destination")).toContainText(t.sentByText + last4);
        const texted = (await textMessages()).slice(before).find((m) => m.to.endsWith(last4));
        const code = /(?:code is|código de acceso es) (\d{6})/.exec(texted?.body ?? "")?.[1];
        expect(code, "the code reached the text-message sink").toBeTruthy();
        await page.getByLabel(t.code, { exact: true }).fill(code!);
        await page.getByRole("button", { name: t.verify }).click();
        await expect(page).toHaveURL(/\/$/);
      } finally {
        await acme.call("PUT", "/user/setTwoFactorChannel", { two_factor_channel: "email" });
        await acme.call("PUT", "/settings/modifyCompanySettings", saved);
      }
    });
  }
});

test.describe("home tiles by role", () => {
  const companyTiles = ["users", "devices", "deviceGroups", "activity", "alerts", "support", "companySettings"];
  const platformTiles = ["company", "ota", "deviceType", "adminSupport"];

  for (const who of ["acme", "beta", "var"] as const) {
    test(`${who} admin sees the company tiles`, async ({ page, loginAs }) => {
      await loginAs(who);
      await page.goto("/");
      for (const key of companyTiles) await expect(page.getByTestId(`tile-${key}`)).toBeVisible();
      for (const key of platformTiles) await expect(page.getByTestId(`tile-${key}`)).toHaveCount(0);
    });
  }

  test("root admin (company module) sees the platform tiles and reduced icon bar", async ({ page, loginAs }) => {
    await loginAs("root");
    await page.goto("/");
    for (const key of platformTiles) await expect(page.getByTestId(`tile-${key}`)).toBeVisible();
    for (const key of companyTiles) await expect(page.getByTestId(`tile-${key}`)).toHaveCount(0);
    await expect(page.getByTestId("nav-users")).toHaveCount(0);
    // Only the root company registers boards into stock.
    await expect(page.getByTestId("tile-registerDevices")).toBeVisible();
  });

  test("the auditor sees only what the role grants", async ({ page, loginAs }) => {
    await loginAs("auditor");
    await page.goto("/");
    await expect(page.getByTestId("tile-devices")).toBeVisible();
    await expect(page.getByTestId("tile-activity")).toBeVisible();
    await expect(page.getByTestId("tile-alerts")).toBeVisible(); // the activity module gates alerts
    await expect(page.getByTestId("tile-users")).toHaveCount(0);
  });

  test("menu items follow permissions: VAR Panel for the reseller only, Billing Portal with its module", async ({ page, loginAs }) => {
    await loginAs("var");
    await page.goto("/");
    await page.getByTestId("user-menu").click();
    await expect(page.getByRole("menuitem", { name: "VAR Panel" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Device Stock" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Billing Portal" })).toBeVisible();
    await page.keyboard.press("Escape");
  });

  test("Billing Portal is in the menu of an ec admin whose role has it, not of one whose role lacks it", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/");
    await page.getByTestId("user-menu").click();
    await expect(page.getByRole("menuitem", { name: "Billing Portal" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "VAR Panel" })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await loginAs("auditor");
    await page.goto("/");
    await page.getByTestId("user-menu").click();
    await expect(page.getByRole("menuitem", { name: "Billing Portal" })).toHaveCount(0);
    await page.keyboard.press("Escape");
  });
});

test.describe("permissions on the server", () => {
  test("a forbidden page answers 403 with the access-denied page", async ({ page, loginAs }) => {
    await loginAs("auditor");
    const res = await page.goto("/changePassword");
    expect(res?.status()).toBe(200); // the auditor holds change_password
    const forbidden = await page.goto("/users"); // the auditor's role has no users module
    expect(forbidden?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  });

  test("the API refuses a call the role lacks with JSON 403", async ({ page, request }) => {
    const login = await request.post("/api/admin/user/login", { data: DEMO.beta });
    const { token } = await login.json();
    await request.post("/api/admin/user/logout", { headers: { Authorization: token } });
    const after = await request.get("/api/admin/user/getAllTimeZone", { ...RESET_SAFE_GET, headers: { Authorization: token } });
    expect(after.status()).toBe(401);
    const root = await (await request.post("/api/admin/user/login", { data: DEMO.root })).json();
    const r = await request.put("/api/admin/user/resetPassword", {
      headers: { Authorization: `Bearer ${root.token}` },
      data: { currentPassword: "x", newPassword: "y", confirmPassword: "y" },
    });
    expect(r.status()).toBe(400); // root holds change_password: the call reaches validation
    void page;
  });

  test("without a session every console page sends the browser to /login", async ({ page }) => {
    await page.goto("/users");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fusers$/);
  });
});

test.describe("passwords", () => {
  test("change password shows the rules and refuses a wrong current password", async ({ page, loginAs }) => {
    await loginAs("auditor");
    await page.goto("/changePassword");
    await expect(page.getByText("8 or more characters")).toBeVisible();
    await page.getByLabel("Current password").fill("not-my-password");
    await page.getByLabel("New password").fill("Fresh#Pass2026");
    await page.getByLabel("Confirm password").fill("Fresh#Pass2026");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Incorrect Current Password" })).toBeVisible();
  });

  test("the expired-reset screen asks for the new password twice, ticking the rules as you type; a used link says so", async ({ page }) => {
    await page.goto("/ResetExpiredPassword?username=a%40b.example&companyCode=ACME");
    await expect(page.getByLabel("Confirm password", { exact: true })).toBeVisible();
    const rule = (text: string) => page.getByTestId("password-rules").locator("li", { hasText: text });
    await expect(rule("a special character")).toHaveAttribute("data-met", "false");
    await page.getByLabel("New password", { exact: true }).pressSequentially("abc#");
    await expect(rule("a lower-case letter")).toHaveAttribute("data-met", "true");
    await expect(rule("a special character")).toHaveAttribute("data-met", "true");
    await expect(rule("an upper-case letter")).toHaveAttribute("data-met", "false");
    await expect(rule("8 or more characters")).toHaveAttribute("data-met", "false");

    await page.goto("/resetPassword/unknown-link");
    await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Send reset link" })).toHaveAttribute("href", "/forgotPassword");
  });

  test("an invited admin's link names the account and lands signed in on home", async ({ page, request }) => {
    const acme = await adminApi(request, "acme");
    const email = `new.admin.${unique()}@acme.example`;
    const link = await acme.inviteAdmin(email, "Nia", "Admin");
    await page.goto(new URL(link).pathname);
    await expect(page.getByRole("heading", { name: "Choose your password" })).toBeVisible();
    await expect(page.getByTestId("link-account")).toContainText("Acme Corporation (ACME)");
    await expect(page.getByTestId("link-account")).toContainText(email);
    await page.getByLabel("New password", { exact: true }).fill("Nia#Admin2026");
    await page.getByLabel("Confirm password", { exact: true }).fill("Nia#Admin2026");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("user-menu")).toBeVisible();
  });

  test("a door user who signs in to the console is pointed to the phone app", async ({ page, request }) => {
    const acme = await adminApi(request, "acme");
    const user = await acme.createUser("Dan", `Door${unique()}`);
    const email = `door.${unique()}@acme.example`;
    const phone = `55${String(Date.now()).slice(-8)}`;
    await acme.call("PUT", "/user/modifyUserDetails", {
      userId: user.id,
      firstName: "Dan",
      lastName: "Door",
      displayName: user.displayName,
      emailId: email,
      countryCode: "1",
      phoneNumer: phone,
    });
    await acme.call("POST", "/user/resendInviteMail", { userId: user.id });
    const invite = async () => (await mailbox()).find((m) => m.to.includes(email));
    await expect.poll(invite, { timeout: 30_000 }).toBeTruthy();
    const uid = (await invite())!.text.match(/\/resetPassword\/([A-Za-z0-9_-]+)/)![1];
    expect((await request.post("/api/admin/user/webReSetPassword", { data: { uid, password: "Dan#Door2026" } })).status()).toBe(200);
    await page.goto("/login");
    await page.getByLabel("Company ID").fill("ACME");
    await page.getByLabel("Email or phone").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Dan#Door2026");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByTestId("use-phone-app")).toContainText("Keyless Access phone app");
    await expect(page.getByTestId("use-phone-app").getByRole("link", { name: "Open the phone app" })).toHaveAttribute("href", "/m");
  });
});

/**
 * Password reset security (decision 0062), end to end: each mode at the run's mail and text sinks, and
 * the lock. Each test sets ACME's mode and puts the settings back; its browser and calls come from a
 * client address of its own, so the per-client reset limit of one console's tests does not add up.
 */
test.describe("password reset security", () => {
  const T = {
    en: {
      userName: "Email or phone",
      send: "Send reset link",
      code: "Code",
      newPw: "New password",
      confirm: "Confirm password",
      badCode: "The code is invalid or has expired",
      requested: "Your request has been sent to your administrator",
      help: "For help, call +1 555-010-9999.",
      approve: "Approve and send reset link",
    },
    es: {
      userName: "Correo electrónico o teléfono",
      send: "Enviar enlace",
      code: "Código",
      newPw: "Nueva contraseña",
      confirm: "Confirmar contraseña",
      badCode: "El código no es válido o ha caducado",
      requested: "Su solicitud se ha enviado a su administrador",
      help: "Si necesita ayuda, llame al +1 555-010-9999.",
      approve: "Aprobar y enviar el enlace",
    },
  } as const;

  /** ACME in `mode` for the test's body, a fresh user (e-mail, E.164 phone), and the settings restored after. */
  async function inMode(
    page: Page,
    request: Parameters<typeof adminApi>[0],
    mode: Record<string, unknown>,
    body: (u: { id: number; email: string; phone: string }) => Promise<void>,
  ) {
    const client = { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
    await page.setExtraHTTPHeaders(client);
    const acme = await adminApi(request, "acme");
    const { payload: saved } = await acme.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
    await acme.call("PUT", "/settings/modifyCompanySettings", { ...saved, ...mode });
    try {
      const { id } = await acme.createUser("Rita", `Reset${unique()}`);
      const { payload: u } = await acme.call<{ payload: { email: string; countryCode: string; cell: string } }>("GET", `/user/getUserDetails?id=${id}`);
      await body({ id, email: u.email, phone: `+${u.countryCode.replace(/^0+/, "")}${u.cell}` });
    } finally {
      await acme.call("PUT", "/settings/modifyCompanySettings", saved);
    }
  }

  async function askForReset(page: Page, lang: "en" | "es", email: string) {
    await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/" }, maxRedirects: 0 });
    await page.goto("/forgotPassword");
    await page.getByLabel(lang === "en" ? "Company ID" : "ID de empresa").fill("ACME");
    await page.getByLabel(T[lang].userName).fill(email);
    await page.getByRole("button", { name: T[lang].send }).click();
  }

  const mailFor = async (email: string) => (await mailbox()).find((m) => m.to.includes(email));

  test("email: an unknown account is refused as 'Invalid Company ID or Email'; a known one gets its link by mail", async ({ page, request }) => {
    await inMode(page, request, { password_reset_security: "email" }, async ({ email }) => {
      await askForReset(page, "en", `nobody.${unique()}@acme.example`);
      await expect(page.getByText("Invalid Company ID or Email")).toBeVisible();
      await page.getByLabel("Email or phone").fill(email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect.poll(() => mailFor(email), { timeout: 30_000 }).toBeTruthy();
      await page.goto(new URL((await mailFor(email))!.text.match(/https?:\/\/\S+\/resetPassword\/[A-Za-z0-9_-]+/)![0]).pathname);
      await expect(page.getByLabel("New password", { exact: true })).toBeVisible();
      await expect(page.getByLabel("Code", { exact: true })).toHaveCount(0);
    });
  });

  for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
    test(`text (${lang}, ${width} px): the link asks for the code texted to the phone`, async ({ page, request }) => {
      await page.setViewportSize({ width, height });
      await inMode(page, request, { password_reset_security: "text", password_reset_secondary_action: "nothing" }, async ({ email, phone }) => {
        await askForReset(page, lang, email);
        const text = async () => (await textMessages()).find((m) => m.to === phone);
        await expect.poll(text, { timeout: 30_000 }).toBeTruthy();
        const code = (await text())!.body.match(/code is (\d{6})/)![1];
        await expect.poll(() => mailFor(email), { timeout: 30_000 }).toBeTruthy();
        await page.goto(new URL((await mailFor(email))!.text.match(/https?:\/\/\S+\/resetPassword\/[A-Za-z0-9_-]+/)![0]).pathname);
        await page.getByLabel(T[lang].code, { exact: true }).fill(code === "000000" ? "000001" : "000000");
        await page.getByLabel(T[lang].newPw, { exact: true }).fill("Rita#Reset2026");
        await page.getByLabel(T[lang].confirm, { exact: true }).fill("Rita#Reset2026");
        await page.getByLabel(T[lang].confirm, { exact: true }).press("Enter");
        // The code field and the form both say it.
        await expect(page.getByText(T[lang].badCode).first()).toBeVisible();
        await page.getByLabel(T[lang].code, { exact: true }).fill(code);
        await page.getByLabel(T[lang].newPw, { exact: true }).fill("Rita#Reset2026");
        await page.getByLabel(T[lang].confirm, { exact: true }).fill("Rita#Reset2026");
        await page.getByLabel(T[lang].confirm, { exact: true }).press("Enter");
        // A user without console rights lands in the phone app, signed in.
        await expect(page).toHaveURL(/\/m$/);
      });
    });

    test(`admin (${lang}, ${width} px): the request shows the contact phone; a super admin approves it on the user's page`, async ({ page, request, loginAs }) => {
      await page.setViewportSize({ width, height });
      await inMode(page, request, { password_reset_security: "admin", password_reset_phone: "5550109999", password_reset_phone_country: "1" }, async ({ id, email }) => {
        await askForReset(page, lang, email);
        await expect(page.locator("p[role=status]")).toContainText(T[lang].requested);
        await expect(page.getByTestId("reset-contact-phone")).toHaveText(T[lang].help);
        expect(await mailFor(email)).toBeUndefined();
        await loginAs("acme", lang);
        await page.goto(`/modifyUser?id=${id}`);
        await page.getByTestId("reset-request").getByRole("button", { name: T[lang].approve }).click();
        await expect(page.getByTestId("reset-request")).toHaveCount(0);
        await expect.poll(() => mailFor(email), { timeout: 30_000 }).toBeTruthy();
      });
    });
  }

  test("lock: a fourth text reset within minutes flags the account, shown with the approval banner", async ({ page, request, loginAs }) => {
    await inMode(page, request, { password_reset_security: "text", password_reset_secondary_action: "flag" }, async ({ id, email }) => {
      const client = { "CF-Connecting-IP": `203.0.113.${Math.floor(Math.random() * 250) + 1}` };
      for (let i = 0; i < 4; i++) {
        expect((await request.post("/api/admin/user/webForgotPassword", { data: { companyId: "ACME", userName: email }, headers: client })).status()).toBe(200);
      }
      await loginAs("acme");
      await page.goto(`/modifyUser?id=${id}`);
      await expect(page.getByText("This account is locked due to suspicious activity")).toBeVisible();
      await expect(page.getByRole("button", { name: "Approve account" })).toBeVisible();
    });
  });
});

test.describe("language", () => {
  test("switches to Spanish and back, and the choice survives logout", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/");
    await expect(page.getByTestId("tile-users")).toHaveText("Users");
    await page.waitForLoadState("networkidle");
    await page.getByTestId("user-menu").click();
    await page.getByTestId("switch-language").click();
    await expect(page.getByTestId("tile-users")).toHaveText("Usuarios");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    // The switch reloads the whole page: wait until its menu is interactive again.
    await page.waitForLoadState("networkidle");
    await page.getByTestId("user-menu").click();
    await page.getByTestId("logout").click();
    await expect(page.getByRole("heading", { name: "Iniciar sesión" })).toBeVisible();
    // The select submits on change once the page is interactive (a button does it without scripts).
    await page.waitForLoadState("networkidle");
    await page.getByTestId("language-select").selectOption("en");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  });
});

test.describe("session end", () => {
  test("logout sends the next page to /login", async ({ page, loginAs }) => {
    await loginAs("acme");
    await page.goto("/");
    await page.getByTestId("user-menu").click();
    await page.getByTestId("logout").click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("idle countdown, Continue Session, then logout at timeout across tabs", async ({ browser }) => {
    const base = `http://127.0.0.1:${E2E_IDLE_PORT}`;
    // Only durations matter here, so the browser keeps the real clock; the idle server is on the run's.
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    const login = await page.request.post("/login", { form: { ...DEMO.acme }, maxRedirects: 0 });
    expect(login.status()).toBe(302);
    await page.goto("/");
    const second = await context.newPage();
    await second.goto("/");
    // Idle 4 s, warning 8 s (the idle server's settings). The server ends the session 12 s after the
    // sign-in (it records activity at most every 15 s), so Continue must reach it within the warning
    // however slowly the pages loaded; a 3 s warning failed on a loaded machine.
    await expect(page.getByTestId("idle-countdown")).toBeVisible({ timeout: 12_000 });
    await expect(page.getByTestId("idle-countdown")).toContainText(/logged out in [1-8] seconds?/);
    await page.getByTestId("continue-session").click();
    await expect(page.getByTestId("idle-countdown")).toBeHidden();
    await expect(page).toHaveURL(/\/login\?reason=idle$/, { timeout: 20_000 });
    await expect(second).toHaveURL(/\/login\?reason=idle$/, { timeout: 5_000 });
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await context.close();
  });
});
