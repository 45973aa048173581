import { readdirSync, readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { CONSOLE_PAGES, type ConsolePage } from "./console-pages";
import { DEMO, expect, LANGUAGE_AND_WIDTH_RUNS, signIn, test, RESET_SAFE_GET } from "./fixtures";
import { axeFindings } from "./axe";
import { sidewaysScroll } from "./sideways-scroll";

/**
 * Every console screen (tests/e2e/console-pages.ts), loaded once in each language-and-width run:
 * English at 1440 px, Spanish at 390 px. On each, the page is in that language, it never scrolls
 * sideways (a wide table scrolls inside its own box, except at the desktop width, where a table
 * does not scroll either: decision 0038), and axe finds no serious or critical violation with its
 * default rule set. Each test visits a few screens of one login in sequence.
 */
/** Screens per test: large grids take axe several seconds each on a loaded machine. */
const CHUNK = 6;
const groups = [...new Set(CONSOLE_PAGES.map((p) => p.who))].flatMap((who) => {
  const pages = CONSOLE_PAGES.filter((p) => p.who === who);
  return Array.from({ length: Math.ceil(pages.length / CHUNK) }, (_, i) => ({ who, pages: pages.slice(i * CHUNK, (i + 1) * CHUNK), part: i + 1 }));
});

/**
 * The first link in the main area of the server-rendered `list` whose address starts with `prefix`:
 * read from the HTML alone, since rendering and hydrating the list in the browser would only repeat
 * what its own entry checks.
 */
async function firstLink(page: Page, list: string, prefix: string): Promise<string> {
  const res = await page.request.get(list, RESET_SAFE_GET);
  expect(res.status(), `${list} answers`).toBe(200);
  const html = await res.text();
  const main = html.slice(html.indexOf("<main"));
  const href = new RegExp(`<a[^>]* href="(${prefix.replace(/[?.*+^$()[\]{}|\\]/g, "\\$&")}[^"]*)"`).exec(main)?.[1];
  expect(href, `a link starting ${prefix} on ${list}`).toBeTruthy();
  return href!.replaceAll("&amp;", "&");
}

async function open(page: Page, entry: ConsolePage): Promise<void> {
  let path = entry.path;
  // One installation for every run of the phone entry (both languages): the user's one allowed phone.
  if (entry.phone) await page.addInitScript(() => localStorage.setItem("phone.installationId", "a11y-check-phone"));
  if (entry.via) {
    path = await firstLink(page, entry.via.list, entry.via.hrefPrefix);
    if (entry.via.then) path = await firstLink(page, path, entry.via.then);
  }
  await page.goto(path);
  await expect(page.locator("main")).toBeVisible();
  if (entry.phone && entry.who) {
    // The phone app keeps its own session: sign in through its form, as a phone does.
    const login = DEMO[entry.who];
    await page.locator("input[name=companyId]").fill(login.companyId);
    await page.locator("input[name=userName]").fill(login.userName);
    await page.locator("input[name=password]").fill(login.password);
    await page.locator("main form button[type=submit]").click();
    await expect(page.locator("input[name=password]")).toHaveCount(0);
    await expect(page.getByRole("tablist")).toBeVisible();
  }
}

// Each test reads its own screens and changes nothing, so the parts spread over both workers.
test.describe.configure({ mode: "parallel" });

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  for (const { who, pages, part } of groups) {
    test(`screens: ${who ?? "signed out"}, part ${part}, in ${lang} at ${width} px`, async ({ page }) => {
      test.setTimeout(240_000);
      await page.setViewportSize({ width, height });
      if (who) await signIn(page, who, lang);
      else await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/" }, maxRedirects: 0 });
      const found: string[] = [];
      for (const entry of pages) {
        await open(page, entry);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        for (const s of await sidewaysScroll(page, { tables: width >= 1024 })) found.push(`${entry.path}: ${s}`);
        for (const finding of await axeFindings(page)) found.push(`${entry.path} ${finding}`);
      }
      expect(found, found.join("\n")).toEqual([]);
    });
  }
}

test("axe: the open user menu hides nothing focusable", async ({ page }) => {
  await signIn(page, "acme");
  await page.goto("/");
  await page.getByTestId("user-menu").click();
  await expect(page.getByRole("menu")).toBeVisible();
  const found = await axeFindings(page);
  expect(found, found.join("\n")).toEqual([]);
});

test("the list of screens covers every route file that renders a page", () => {
  const listed = new Set(CONSOLE_PAGES.map((p) => p.path.split("?")[0]));
  const missing = readdirSync("app/routes")
    .filter((f) => f.endsWith(".tsx") && f !== "_app.tsx" && readFileSync(`app/routes/${f}`, "utf8").includes("export default function"))
    .map((f) =>
      f
        .replace(/\.tsx$/, "")
        .replace(/^_app\.?/, "")
        .replace(/^_index$/, "")
        .replace(/^\$$/, "no-such-page")
        .replace(/\.\$id$/, "/"),
    )
    .filter((route) => ![...listed].some((path) => path === `/${route}` || (route.endsWith("/") && path.startsWith(`/${route}`))));
  expect(missing).toEqual([]);
});
