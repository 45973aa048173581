import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { E2E_CLOCK_OFFSET_MS } from "../../playwright.config";
import { DEMO, type DemoLogin } from "../demo-logins";

export { DEMO, type DemoLogin };

/**
 * The run's "now": the real time, shifted when the suite runs at a fixed instant (`E2E_NOW`, see
 * playwright.config.ts). The Worker under test reads the same shifted clock.
 */
export const runNow = (): number => Date.now() + E2E_CLOCK_OFFSET_MS;

/**
 * Puts the browser on the run's clock: with `E2E_NOW` set, every page of `context` starts at the
 * shifted time (and time keeps passing); without it the browser keeps the real clock.
 */
export async function useRunClock(context: BrowserContext): Promise<void> {
  if (E2E_CLOCK_OFFSET_MS === 0) return;
  await context.clock.install({ time: runNow() });
}

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
  context: async ({ context }, use) => {
    await useRunClock(context);
    await use(context);
  },
  loginAs: async ({ page }, use) => {
    await use((who, lang) => signIn(page, who, lang));
  },
});

export { expect };
