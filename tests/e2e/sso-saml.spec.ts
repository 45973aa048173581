import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_SAML_IDP } from "../../playwright.config";
import { adminApi, awaitHydration, DEMO, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, test } from "./fixtures";

/**
 * Console single sign-on through a real SAML 2.0 identity provider (samlify, scripts/saml-idp.mjs, started by
 * playwright.config.ts), decision 0122. ACME is pointed at it for each test (through the admin API, as
 * `SSO_DEMO=saml npm start` does) and switched back after. The IdP reads the console's SP metadata itself.
 */
const SSO_BUTTON = { en: "Continue with single sign-on", es: "Continuar con inicio de sesión único" } as const;

async function pointAcmeAtTheIdp(request: APIRequestContext) {
  const api = await adminApi(request, "acme");
  const cert = await (await request.get(`${E2E_SAML_IDP}/cert`)).text();
  await api.call("POST", "/company/sso", {
    enabled: true,
    protocol: "saml",
    idpEntityId: `${E2E_SAML_IDP}/metadata`,
    idpSsoUrl: `${E2E_SAML_IDP}/sso`,
    idpSloUrl: `${E2E_SAML_IDP}/slo`,
    idpCertificate: cert,
  });
}

test.afterEach(async ({ request }) => {
  const api = await adminApi(request, "acme");
  await api.call("POST", "/company/sso", { enabled: false });
});

/** The IdP's own sign-in form (the demo users' password is the IdP's, not the console's). */
async function signInAtIdp(page: Page, email: string) {
  await page.waitForURL((u) => u.origin === E2E_SAML_IDP);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill("Saml#Demo2026");
  await page.getByRole("button", { name: "Sign in" }).click();
}

for (const run of LANGUAGE_AND_WIDTH_RUNS) {
  test(`signs in through the SAML identity provider and lands on the page asked for (${run.lang}, ${run.width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width: run.width, height: run.height });
    await pointAcmeAtTheIdp(request);
    await page.request.post("/resources/language", { form: { lng: run.lang, redirectTo: "/" }, maxRedirects: 0 });
    const [who, dest] = run.lang === "en" ? [DEMO.acme.userName, "/users"] : [DEMO.auditor.userName, "/devices"];
    // "Continue with single sign-on" works once the page is hydrated.
    awaitHydration(page);
    await page.goto(`/login?redirectTo=${encodeURIComponent(dest)}`);
    await page.locator('input[name="companyId"]').fill("ACME");
    await page.getByRole("button", { name: SSO_BUTTON[run.lang] }).click();
    await signInAtIdp(page, who);
    // The IdP's page posts the signed Response to the console's ACS, which lands on the page asked for.
    await page.waitForURL((u) => u.origin !== E2E_SAML_IDP && u.pathname === dest);
    await expect(
      page
        .getByTestId("user-menu")
        .or(page.getByRole("button", { name: /menu|menú/i }))
        .first(),
    ).toBeVisible();
    await keepScreenshot(page, `sso-saml-signed-in-${run.lang}-${run.width}`);
  });
}
