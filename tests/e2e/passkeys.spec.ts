import type { APIRequestContext, Page } from "@playwright/test";
import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, test, unique } from "./fixtures";

/**
 * Console passkeys and the company's MFA policy (decision 0123), with Chromium's virtual authenticator (CDP
 * WebAuthn domain: a platform authenticator that verifies the user). An IP address cannot be a WebAuthn RP id,
 * so these pages are opened at localhost on the console's port (the console maps its 127.0.0.1 origin to it
 * outside production).
 */
const T = {
  en: { name: "Name", add: "Add a passkey", usePasskey: "Use a passkey", enrol: "Set up a second factor", passkeys: "Passkeys" },
  es: { name: "Nombre", add: "Añadir una llave de acceso", usePasskey: "Usar una llave de acceso", enrol: "Configurar un segundo factor", passkeys: "Llaves de acceso" },
} as const;

const localOf = (baseURL: string) => baseURL.replace("127.0.0.1", "localhost");

async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** A fresh ACME console admin with a password of its own (set through its invite link). */
async function freshAdmin(request: APIRequestContext): Promise<{ companyId: string; userName: string; password: string }> {
  const acme = await adminApi(request, "acme");
  const email = `passkey.${unique()}@acme.example`;
  const uid = (await acme.inviteAdmin(email, "Pia", `Passkey${unique()}`)).split("/resetPassword/")[1];
  const password = "Pia#Passkey2026";
  expect((await request.post("/api/admin/user/webReSetPassword", { data: { uid, password, confirmPassword: password } })).status()).toBe(200);
  return { companyId: "ACME", userName: email, password };
}

/** Posts the sign-in form at `local`; answers where the console sends the browser. */
async function postSignIn(page: Page, local: string, account: { companyId: string; userName: string; password: string }): Promise<string> {
  const res = await page.request.post(`${local}/login`, { form: { ...account, intent: "login" }, headers: { Origin: local }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  return res.headers().location;
}

async function addPasskey(page: Page, local: string, lang: "en" | "es", name: string): Promise<void> {
  const t = T[lang];
  await page.goto(`${local}/passkeys`);
  await page.getByLabel(t.name, { exact: true }).fill(name);
  await page.getByRole("button", { name: t.add }).click();
}

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`passkeys (${lang}, ${width} px): add one, then sign in with it as the second factor`, async ({ page, request, baseURL }) => {
    const t = T[lang];
    await page.setViewportSize({ width, height });
    const local = localOf(baseURL!);
    const account = await freshAdmin(request);
    await virtualAuthenticator(page);
    await page.request.post(`${local}/resources/language`, { form: { lng: lang, redirectTo: "/" }, headers: { Origin: local }, maxRedirects: 0 });
    expect(await postSignIn(page, local, account)).toBe("/");

    await addPasskey(page, local, lang, "Work laptop");
    await expect(page.getByTestId("passkey-name")).toHaveText("Work laptop");
    await keepScreenshot(page, `passkeys-list-${lang}-${width}`, { fullPage: true });

    // Signed out and in again: the password, then the passkey.
    await page.request.post(`${local}/logout`, { headers: { Origin: local }, maxRedirects: 0 });
    const codePage = await postSignIn(page, local, account);
    expect(codePage).toMatch(/^\/twoFactorAuthentication\?.*sent=passkey/);
    await page.goto(local + codePage);
    await keepScreenshot(page, `passkeys-sign-in-${lang}-${width}`, { fullPage: true });
    await page.getByRole("button", { name: t.usePasskey }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("user-menu")).toBeVisible();
    await page.goto(`${local}/passkeys`);
    await expect(page.getByTestId("passkey-row")).toContainText(lang === "en" ? "last used" : "último uso");
  });
}

test("the company's MFA policy sends an admin without a strong factor to enrolment until a passkey is added", async ({ page, request, baseURL }) => {
  const local = localOf(baseURL!);
  const account = await freshAdmin(request);
  const acme = await adminApi(request, "acme");
  // The demo admin enrols nothing here: 'roles' would need a role of the fresh admin's, so 'all' for this test only, undone after it.
  await acme.call("POST", "/company/mfaPolicy", { policy: "all" });
  try {
    await virtualAuthenticator(page);
    await page.request.post(`${local}/resources/language`, { form: { lng: "en", redirectTo: "/" }, headers: { Origin: local }, maxRedirects: 0 });
    expect(await postSignIn(page, local, account)).toBe("/");
    await page.goto(`${local}/users`);
    await expect(page).toHaveURL(/\/mfaEnrolment$/);
    await expect(page.getByTestId("mfa-enrolment-required")).toContainText("requires a passkey or an authenticator app");
    await keepScreenshot(page, "mfa-enrolment-en-1440", { fullPage: true });
    // The admin API refuses this account's sign-in with a clear message.
    const api = await request.post("/api/admin/user/login", { data: account });
    expect(api.status()).toBe(403);
    expect((await api.json()).errorCode).toBe("mfa-enrolment-required");

    await page.getByRole("link", { name: T.en.add }).click();
    await expect(page.getByTestId("enrolment-required")).toBeVisible();
    await page.getByLabel(T.en.name, { exact: true }).fill("Security key");
    await page.getByRole("button", { name: T.en.add }).click();
    // Enrolled: a full session, on to the console.
    await expect(page).toHaveURL(/\/$/);
    await page.goto(`${local}/users`);
    await expect(page).toHaveURL(/\/users$/);
  } finally {
    await acme.call("POST", "/company/mfaPolicy", { policy: "none" });
  }
});

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`sign-in security settings (${lang}, ${width} px): a super admin requires a factor of chosen roles`, async ({ page, request, loginAs }) => {
    const t = {
      en: { link: "Sign-in security", roles: "Chosen roles", save: "Save", saved: "Sign-in security policy saved" },
      es: { link: "Seguridad del inicio de sesión", roles: "Roles elegidos", save: "Guardar", saved: "Política de seguridad del inicio de sesión guardada" },
    }[lang];
    await page.setViewportSize({ width, height });
    const acme = await adminApi(request, "acme");
    try {
      await loginAs("acme", lang);
      await page.goto("/companySettings");
      await page.getByRole("link", { name: t.link }).click();
      await expect(page).toHaveURL(/\/mfaPolicy$/);
      await page.getByRole("radio", { name: new RegExp(t.roles) }).check();
      await page.getByRole("checkbox", { name: "Auditor" }).check();
      await keepScreenshot(page, `mfa-policy-${lang}-${width}`, { fullPage: true });
      await page.getByRole("button", { name: t.save }).click();
      await expect(page.getByText(t.saved).first()).toBeVisible();
      const saved = await acme.call<{ payload: { policy: string; roleIds: number[] } }>("GET", "/company/mfaPolicy");
      expect(saved.payload).toEqual({ policy: "roles", roleIds: [4] });
    } finally {
      await acme.call("POST", "/company/mfaPolicy", { policy: "none" });
    }
  });
}
