import { E2E_IDLE_PORT } from "../../playwright.config";
import { DEMO, expect, signIn, test } from "./fixtures";

/**
 * Sessions and access: an idle sign-out says why on the sign-in page and returns to the page the user was
 * on; an ended session says so; an unknown path or a refused page keeps the shell and the language.
 */
const TEXT = {
  en: { idle: "signed out after a period of inactivity", expired: "You have been logged out", notFound: "Page not found", forbidden: "Access denied" },
  es: { idle: "Se cerró su sesión por inactividad", expired: "Se ha cerrado su sesión", notFound: "Página no encontrada", forbidden: "Acceso denegado" },
} as const;

// Both languages in one test, side by side: each waits the idle server's 12 s, and they need not wait in turn.
test("idle sign-out in en and es: the sign-in page says why and returns to the same page", async ({ browser }) => {
  await Promise.all(
    (["en", "es"] as const).map(async (lang) => {
      // The idle server signs out after 4 s idle + 8 s warning; only durations matter, so the real clock is kept.
      const context = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_IDLE_PORT}` });
      const page = await context.newPage();
      await signIn(page, "acme", lang);
      await page.goto("/devices?sort=name");
      await expect(page).toHaveURL(/\/login\?reason=idle&redirectTo=%2Fdevices%3Fsort%3Dname$/, { timeout: 30_000 });
      await expect(page.getByTestId("session-ended")).toContainText(TEXT[lang].idle);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await page.locator('input[name="companyId"]').fill(DEMO.acme.companyId);
      await page.locator('input[name="userName"]').fill(DEMO.acme.userName);
      await page.locator('input[name="password"]').fill(DEMO.acme.password);
      await page.locator('input[name="password"]').press("Enter");
      await expect(page).toHaveURL(/\/devices\?sort=name$/);
      await context.close();
    }),
  );
});

test("a session that ended on the server sends the browser to sign-in with the reason and the way back", async ({ page, context, baseURL }) => {
  await signIn(page, "acme", "es");
  const cookies = await context.cookies();
  const out = await page.request.post("/logout", { headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(out.status()).toBe(302);
  await context.addCookies(cookies); // the browser still holds the old, now ended, session
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login\?reason=expired&redirectTo=%2Fusers$/);
  await expect(page.getByTestId("session-ended")).toContainText(TEXT.es.expired);
});

test("without a previous session the sign-in page shows no notice", async ({ page }) => {
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fusers$/);
  await expect(page.getByTestId("session-ended")).toHaveCount(0);
});

test("sign-in never follows a redirect to another site", async ({ page }) => {
  await page.goto("/login?reason=idle&redirectTo=%2F%2Fevil.example%2Fx");
  await page.locator('input[name="companyId"]').fill(DEMO.acme.companyId);
  await page.locator('input[name="userName"]').fill(DEMO.acme.userName);
  await page.locator('input[name="password"]').fill(DEMO.acme.password);
  await page.locator('input[name="password"]').press("Enter");
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

for (const lang of ["en", "es"] as const) {
  test(`an unknown path and a refused page keep the shell in ${lang}`, async ({ page }) => {
    await signIn(page, "auditor", lang);
    const missing = await page.goto("/no-such-page");
    expect(missing?.status()).toBe(404);
    await expect(page.getByTestId("error-404")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT[lang].notFound);
    await expect(page.getByTestId("user-menu")).toBeVisible();
    await expect(page.getByTestId("main-nav")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", lang);

    const refused = await page.goto("/users"); // the auditor's role has no users module
    expect(refused?.status()).toBe(403);
    await expect(page.getByTestId("error-403")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT[lang].forbidden);
    await expect(page.getByTestId("user-menu")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
  });
}

test("an unknown path signed out goes to sign-in, remembering the path", async ({ page }) => {
  await page.goto("/no-such-page");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fno-such-page$/);
});
