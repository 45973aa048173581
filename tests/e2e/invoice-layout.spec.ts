import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

/**
 * The invoice screens keep their layout: on a phone the line-item table scrolls inside its box and the
 * page never scrolls sideways; on a desktop the first row of the header card sits inside the card's
 * padding, not on its top border. In English and Spanish.
 */
const LANGS = ["en", "es"] as const;

/** The first invoice the reseller can open, as its details URL. */
async function firstInvoice(page: Page): Promise<string> {
  await page.goto("/billingPortal");
  const href = await page.locator('main a[href^="/invoiceDetails?id="]').first().getAttribute("href");
  expect(href, "an invoice on the billing portal").not.toBeNull();
  return href!;
}

/** Pixels between the top border of the first card in main and the top of its first field or row. */
async function cardTopGap(page: Page): Promise<number> {
  return page.evaluate(() => {
    const card = document.querySelector("main .rounded-lg.border")!;
    const first = card.querySelector("dt, label")!;
    return first.getBoundingClientRect().top - card.getBoundingClientRect().top;
  });
}

for (const lang of LANGS) {
  test(`invoice details fit a phone (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 664 });
    await signIn(page, "var", lang);
    await page.goto(await firstInvoice(page));
    await expect(page.locator("main table tbody tr").first()).toBeVisible();
    const page_ = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(page_.scroll, "the page does not scroll sideways").toBeLessThanOrEqual(page_.client);
    // The table keeps its columns and scrolls in its own box instead.
    const box = await page.evaluate(() => {
      const el = document.querySelector("main table")!.parentElement!;
      return { scroll: el.scrollWidth, client: el.clientWidth };
    });
    expect(box.scroll).toBeGreaterThan(box.client);
  });

  test(`invoice cards keep their top padding on a desktop (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, "var", lang);
    await page.goto(await firstInvoice(page));
    await expect(page.locator("main dt").first()).toBeVisible();
    expect(await cardTopGap(page), "details card").toBeGreaterThanOrEqual(16);
    await page.goto("/createCustomerInvoice");
    await expect(page.locator("main label").first()).toBeVisible();
    expect(await cardTopGap(page), "invoice form's header card").toBeGreaterThanOrEqual(16);
  });
}
