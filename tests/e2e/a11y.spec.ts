import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { CONSOLE_PAGES, type ConsolePage } from "./console-pages";
import { expect, signIn, test } from "./fixtures";

/**
 * axe-core on every console screen (tests/e2e/console-pages.ts) in English and Spanish: no serious or
 * critical violation. One test per login and language, visiting its screens in sequence, keeps it quick.
 */
const LANGS = ["en", "es"] as const;
const groups = [...new Set(CONSOLE_PAGES.map((p) => p.who))];

async function open(page: Page, entry: ConsolePage): Promise<void> {
  let path = entry.path;
  if (entry.via) {
    await page.goto(entry.via.list);
    const href = await page.locator(`main a[href^="${entry.via.hrefPrefix}"]`).first().getAttribute("href");
    expect(href, `a link to ${entry.path} on ${entry.via.list}`).toBeTruthy();
    path = href!;
  }
  await page.goto(path);
  await page.waitForLoadState("networkidle");
}

for (const lang of LANGS) {
  for (const who of groups) {
    test(`axe: ${who ?? "signed out"} screens in ${lang}`, async ({ page }) => {
      test.setTimeout(180_000);
      if (who) await signIn(page, who, lang);
      else await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/" }, maxRedirects: 0 });
      const found: string[] = [];
      for (const entry of CONSOLE_PAGES.filter((p) => p.who === who)) {
        await open(page, entry);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
        for (const v of violations.filter((v) => v.impact === "serious" || v.impact === "critical")) {
          found.push(`${entry.path} [${v.impact}] ${v.id}: ${v.help} → ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        }
      }
      expect(found, found.join("\n")).toEqual([]);
    });
  }
}
