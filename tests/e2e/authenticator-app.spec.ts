import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { adminApi, expect, runNow, test, unique } from "./fixtures";

/** An authenticator app as the console's second factor (decision 0120), on a fresh ACME admin so no other spec's sign-in changes. */
const T = {
  en: {
    start: "Set up an authenticator app",
    code: "Code from the app",
    confirm: "Switch on",
    on: "10 recovery codes left",
    fromApp: "Enter the 6-digit code your authenticator app shows",
    signInCode: "Code",
    verify: "Verify",
  },
  es: {
    start: "Configurar una aplicación de autenticación",
    code: "Código de la aplicación",
    confirm: "Activar",
    on: "Le quedan 10 códigos de recuperación",
    fromApp: "Escriba el código de 6 dígitos que muestra su aplicación de autenticación",
    signInCode: "Código",
    verify: "Verificar",
  },
} as const;

/** The code an authenticator app shows `offsetS` seconds from the run's clock. */
const codeAt = (secret: string, offsetS = 0) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: runNow() + offsetS * 1000 });

/** Posts the sign-in form from the page's request context; answers where the console sends the browser. */
async function postSignIn(page: Page, account: { companyId: string; userName: string; password: string }): Promise<string> {
  const res = await page.request.post("/login", { form: { ...account, intent: "login" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  return res.headers().location;
}

for (const lang of ["en", "es"] as const) {
  test(`authenticator app (${lang}): enrol, then sign in with a code from the app and with a recovery code`, async ({ page, request, baseURL }) => {
    const t = T[lang];
    // A fresh console admin with a password of its own (set through its invite link).
    const acme = await adminApi(request, "acme");
    const email = `totp.${unique()}@acme.example`;
    const uid = (await acme.inviteAdmin(email, "Tara", `Totp${unique()}`)).split("/resetPassword/")[1];
    const password = "Tara#Totp2026";
    expect((await request.post("/api/admin/user/webReSetPassword", { data: { uid, password, confirmPassword: password } })).status()).toBe(200);
    const account = { companyId: "ACME", userName: email, password };

    await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/" }, maxRedirects: 0 });
    expect(await postSignIn(page, account)).toBe("/");
    await page.goto("/authenticatorApp");
    await page.getByRole("button", { name: t.start }).click();
    await expect(page.getByTestId("authenticator-qr")).toBeVisible();
    const secret = (await page.getByTestId("authenticator-secret").textContent())!.trim();
    await page.getByLabel(t.code).fill(codeAt(secret));
    await page.getByRole("button", { name: t.confirm }).click();
    const shown = page.getByTestId("recovery-code");
    await expect(shown).toHaveCount(10);
    const recoveryCodes = (await shown.allTextContents()).map((c) => c.trim());
    await expect(page.getByTestId("authenticator-on")).toContainText(t.on);

    // Signed out and in again: the code page asks for the app's code (the enrolment's step is spent: the next one).
    await page.request.post("/logout", { headers: { Origin: baseURL! }, maxRedirects: 0 });
    const codePage = await postSignIn(page, account);
    expect(codePage).toMatch(/^\/twoFactorAuthentication\?.*sent=authenticator/);
    await page.goto(codePage);
    await expect(page.getByTestId("code-destination")).toContainText(t.fromApp);
    await page.getByLabel(t.signInCode, { exact: true }).fill(codeAt(secret, 30));
    await page.getByRole("button", { name: t.verify }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("user-menu")).toBeVisible();

    // And with a recovery code, once.
    await page.request.post("/logout", { headers: { Origin: baseURL! }, maxRedirects: 0 });
    await page.goto(await postSignIn(page, account));
    await page.getByLabel(t.signInCode, { exact: true }).fill(recoveryCodes[0]);
    await page.getByRole("button", { name: t.verify }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/authenticatorApp");
    await expect(page.getByTestId("authenticator-on")).toContainText(lang === "en" ? "9 recovery codes left" : "Le quedan 9 códigos de recuperación");
  });
}
