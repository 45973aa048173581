import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_OIDC_ISSUER } from "../../playwright.config";
import { adminApi, awaitHydration, DEMO, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, test } from "./fixtures";

/**
 * Console single sign-on through a real OpenID provider (panva's oidc-provider, scripts/oidc-idp.mjs, started
 * by playwright.config.ts), decision 0121. ACME is pointed at it for each test and switched back after.
 */
const T = {
  en: {
    sso: "Continue with single sign-on",
    login: "Log in",
    required: "This company signs in through single sign-on; use “Continue with single sign-on”",
  },
  es: {
    sso: "Continuar con inicio de sesión único",
    login: "Entrar",
    required: "Esta empresa inicia sesión con el inicio de sesión único; use «Continuar con inicio de sesión único»",
  },
} as const;

async function pointAcmeAtTheProvider(request: APIRequestContext, over: Record<string, unknown> = {}) {
  const api = await adminApi(request, "acme");
  await api.call("POST", "/company/sso", {
    enabled: true,
    protocol: "oidc",
    oidcIssuer: E2E_OIDC_ISSUER,
    oidcClientId: "keyless-console",
    oidcClientSecret: "demo-oidc-client-secret",
    oidcScopes: "openid email profile groups",
    ...over,
  });
  return api;
}

test.afterEach(async ({ request }) => {
  // The break-glass admin may always sign in with the password: ACME goes back to passwords for the next spec.
  const api = await adminApi(request, "acme");
  await api.call("POST", "/company/sso", { enabled: false, clearClientSecret: true });
});

/** The provider's own sign-in screen: the login is the e-mail (the demo provider takes any password). */
async function signInAtProvider(page: Page, email: string) {
  await page.waitForURL((u) => u.origin === E2E_OIDC_ISSUER);
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill("demo-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

// Sign-out is a form post: the console answers with a page that goes on to the provider (a redirect would be
// stopped by the page's `form-action 'self'`).
test("signing out goes on to the provider's end_session_endpoint and back to /login (en, 1440 px)", async ({ page, request }) => {
  await pointAcmeAtTheProvider(request);
  await page.goto("/login?redirectTo=%2Fusers");
  await page.locator("#login-companyId").fill("ACME");
  await page.getByRole("button", { name: T.en.sso }).click();
  await signInAtProvider(page, DEMO.acme.userName);
  await page.waitForURL((u) => u.origin !== E2E_OIDC_ISSUER && u.pathname === "/users");
  await page.getByTestId("user-menu").click();
  await page.getByTestId("logout").click();
  await page.waitForURL((u) => u.origin === E2E_OIDC_ISSUER);
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await page.waitForURL((u) => u.pathname === "/login");
});

for (const run of LANGUAGE_AND_WIDTH_RUNS) {
  const t = T[run.lang];
  test(`signs in through the OpenID provider and lands on the page asked for (${run.lang}, ${run.width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width: run.width, height: run.height });
    await pointAcmeAtTheProvider(request);
    await page.request.post("/resources/language", { form: { lng: run.lang, redirectTo: "/" }, maxRedirects: 0 });
    const [who, dest] = run.lang === "en" ? [DEMO.acme.userName, "/users"] : [DEMO.auditor.userName, "/devices"];
    await page.goto(`/login?redirectTo=${encodeURIComponent(dest)}`);
    await page.locator('input[name="companyId"]').fill("ACME");
    const sso = page.getByRole("button", { name: t.sso });
    await expect(sso).toBeVisible();
    await keepScreenshot(page, `sso-login-${run.lang}-${run.width}`);
    await sso.click();
    await signInAtProvider(page, who);
    await page.waitForURL((u) => u.origin !== E2E_OIDC_ISSUER && u.pathname === dest);
    await expect(
      page
        .getByTestId("user-menu")
        .or(page.getByRole("button", { name: /menu|menú/i }))
        .first(),
    ).toBeVisible();
    await keepScreenshot(page, `sso-signed-in-${run.lang}-${run.width}`);
  });

  test(`with single sign-on required, the password form is refused except for the break-glass admin (${run.lang}, ${run.width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width: run.width, height: run.height });
    const api = await pointAcmeAtTheProvider(request);
    const me = await (await request.post("/api/admin/user/login", { data: DEMO.acme })).json();
    await api.call("POST", "/company/sso", {
      enabled: true,
      protocol: "oidc",
      oidcIssuer: E2E_OIDC_ISSUER,
      oidcClientId: "keyless-console",
      oidcScopes: "openid email profile groups",
      ssoRequired: true,
      breakGlassUserId: me.payload.id,
    });
    await page.request.post("/resources/language", { form: { lng: run.lang, redirectTo: "/" }, maxRedirects: 0 });

    // Anyone else: refused with the message, no session.
    await page.goto("/login");
    await page.locator('input[name="companyId"]').fill("ACME");
    await page.locator('input[name="userName"]').fill(DEMO.auditor.userName);
    await page.locator('input[name="password"]').fill(DEMO.auditor.password);
    await page.getByRole("button", { name: t.login, exact: true }).click();
    await expect(page.getByText(t.required)).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await keepScreenshot(page, `sso-required-refused-${run.lang}-${run.width}`);

    // The break-glass admin: signed in.
    await page.locator('input[name="userName"]').fill(DEMO.acme.userName);
    await page.locator('input[name="password"]').fill(DEMO.acme.password);
    await page.getByRole("button", { name: t.login, exact: true }).click();
    await page.waitForURL((u) => u.pathname !== "/login");

    // The same person through the provider is let in too.
    const other = await page
      .context()
      .browser()!
      .newContext({ baseURL: page.url().replace(/^(https?:\/\/[^/]+).*$/, "$1") });
    const fresh = await other.newPage();
    awaitHydration(fresh);
    await fresh.request.post("/resources/language", { form: { lng: run.lang, redirectTo: "/" }, maxRedirects: 0 });
    await fresh.goto("/login");
    await fresh.locator('input[name="companyId"]').fill("ACME");
    await fresh.getByRole("button", { name: t.sso }).click();
    await signInAtProvider(fresh, DEMO.auditor.userName);
    await fresh.waitForURL((u) => u.origin !== E2E_OIDC_ISSUER && !u.pathname.startsWith("/login"));
    await other.close();
  });
}
