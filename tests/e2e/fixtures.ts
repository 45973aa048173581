import { test as base, expect, type Page } from "@playwright/test";
import { DEMO, type DemoLogin } from "../demo-logins";

export { DEMO, type DemoLogin };

/**
 * Signs in by posting the login form from the page's own request context (no clicking), so the
 * session cookie lands in the browser. `lang` sets the stored language first.
 */
export async function signIn(page: Page, who: DemoLogin, lang: "en" | "es" = "en"): Promise<void> {
  // The language is stored the way the console stores it: through its own endpoint.
  await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/" }, maxRedirects: 0 });
  const res = await page.request.post("/login", { form: { ...DEMO[who], intent: "login" }, maxRedirects: 0 });
  expect(res.status(), `sign-in as ${who}`).toBe(302);
}


export const test = base.extend<{ loginAs: (who: DemoLogin, lang?: "en" | "es") => Promise<void> }>({
  loginAs: async ({ page }, use) => {
    await use((who, lang) => signIn(page, who, lang));
  },
});

export { expect };
