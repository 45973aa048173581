import type { Page } from "@playwright/test";

/**
 * What scrolls sideways on the page, as "what scroll/client": the document, and with `tables` each
 * table's box in the main area (decision 0038: at desktop widths a list's table fits its box; on a
 * phone a wide table may scroll inside it, the page never).
 */
export async function sidewaysScroll(page: Page, { tables }: { tables: boolean }): Promise<string[]> {
  return page.evaluate((tables) => {
    const boxes = tables ? [...document.querySelectorAll("main table")].map((t, i) => ({ what: `table ${i + 1}`, el: t.parentElement! })) : [];
    return [...boxes, { what: "page", el: document.documentElement }]
      .filter(({ el }) => el.scrollWidth > el.clientWidth)
      .map(({ what, el }) => {
        // A word longer than its column widens it: name the longest ones, as they are the usual cause.
        const words = [...new Set((el.innerText || "").split(/\s+/))].sort((a, b) => b.length - a.length).slice(0, 3);
        return `${what} ${el.scrollWidth}/${el.clientWidth}${what === "page" ? "" : ` (longest words: ${words.join(" ")})`}`;
      });
  }, tables);
}
