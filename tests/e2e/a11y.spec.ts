import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { CONSOLE_PAGES, type ConsolePage } from "./console-pages";
import { expect, signIn, test } from "./fixtures";

/**
 * axe-core on every console screen (tests/e2e/console-pages.ts) in English and Spanish: no serious or
 * critical violation, with axe's default rule set. Each test visits a few screens of one login in sequence.
 */
const LANGS = ["en", "es"] as const;
/** Screens per test: large grids take axe several seconds each on a loaded machine. */
const CHUNK = 6;
const groups = [...new Set(CONSOLE_PAGES.map((p) => p.who))].flatMap((who) => {
  const pages = CONSOLE_PAGES.filter((p) => p.who === who);
  return Array.from({ length: Math.ceil(pages.length / CHUNK) }, (_, i) => ({ who, pages: pages.slice(i * CHUNK, (i + 1) * CHUNK), part: i + 1 }));
});

async function open(page: Page, entry: ConsolePage): Promise<void> {
  let path = entry.path;
  if (entry.via) {
    await page.goto(entry.via.list);
    const href = await page.locator(`main a[href^="${entry.via.hrefPrefix}"]`).first().getAttribute("href");
    expect(href, `a link to ${entry.path} on ${entry.via.list}`).toBeTruthy();
    path = href!;
  }
  await page.goto(path);
  await expect(page.locator("main")).toBeVisible();
}

for (const lang of LANGS) {
  for (const { who, pages, part } of groups) {
    test(`axe: ${who ?? "signed out"} screens, part ${part}, in ${lang}`, async ({ page }) => {
      test.setTimeout(240_000);
      if (who) await signIn(page, who, lang);
      else await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/" }, maxRedirects: 0 });
      const found: string[] = [];
      for (const entry of pages) {
        await open(page, entry);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        const { violations } = await new AxeBuilder({ page }).analyze();
        for (const v of violations.filter((v) => v.impact === "serious" || v.impact === "critical")) {
          found.push(`${entry.path} [${v.impact}] ${v.id}: ${v.help} → ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        }
      }
      expect(found, found.join("\n")).toEqual([]);
    });
  }
}
