import type { Page } from "@playwright/test";
import { CONSOLE_PAGES, type ConsolePage } from "./console-pages";
import { expect, signIn, test } from "./fixtures";

/**
 * Every company-admin screen fits a phone (390 px) in English and Spanish: the page itself never
 * scrolls sideways. A wide table may scroll inside its own box; before this, /scheduleOpen's time
 * fields and the ticket page's devices table widened the whole page past the header.
 */
const PHONE = { width: 390, height: 844 };
const SCREENS = CONSOLE_PAGES.filter((p) => p.who === "acme");

async function pathOf(page: Page, entry: ConsolePage): Promise<string> {
  if (!entry.via) return entry.path;
  const first = async (prefix: string) => {
    const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute("href");
    expect(href, `a link starting ${prefix}`).toBeTruthy();
    return href!;
  };
  await page.goto(entry.via.list);
  const path = await first(entry.via.hrefPrefix);
  if (!entry.via.then) return path;
  await page.goto(path);
  return first(entry.via.then);
}

for (const lang of ["en", "es"] as const) {
  test(`company-admin screens fit a phone in ${lang}`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(PHONE);
    await signIn(page, "acme", lang);
    const wide: string[] = [];
    for (const entry of SCREENS) {
      await page.goto(await pathOf(page, entry));
      await expect(page.locator("main")).toBeVisible();
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      if (scroll > client) wide.push(`${entry.path} ${scroll}/${client}`);
    }
    expect(wide, wide.join("\n")).toEqual([]);
  });
}
