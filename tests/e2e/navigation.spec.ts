import type { APIRequestContext, Page } from "@playwright/test";
import { navItems, type CompanyType, type ModuleKey, type Permissions } from "../../app/utils/permissions";
import { DEMO, type DemoLogin, expect, keepScreenshot, signIn, test, RESET_SAFE_GET } from "./fixtures";
import { axeFindings } from "./axe";

/**
 * The header never hides an entry: at desktop, laptop and phone widths, in both languages, every entry the
 * user's role allows is either in the row (fully inside it) or in the "More" menu, or on phones in the menu
 * sheet. The expected entries come from the role's permissions through `navItems()`, so new entries are
 * checked without touching this file. Screenshots of the header land in the test's output folder.
 */
const WIDTHS = [1440, 1024, 390] as const;
const LANGS = ["en", "es"] as const;
const LOGINS: DemoLogin[] = ["acme", "root"];

async function expectedEntries(request: APIRequestContext, who: DemoLogin): Promise<Map<string, string>> {
  const login = await request.post("/api/admin/user/login", { data: DEMO[who] });
  expect(login.status()).toBe(200);
  const body = (await login.json()) as { token: string; payload: { role_id: number; company_type: string } };
  const res = await request.get(`/api/admin/user/getUserPermissions?roleId=${body.payload.role_id}`, { ...RESET_SAFE_GET, headers: { Authorization: body.token } });
  expect(res.status()).toBe(200);
  // The API answers in the spec's names; the console's Permissions use domain names.
  type WirePermissions = Record<ModuleKey, boolean> & Record<"permission_all" | "permission_add" | "permission_modifly" | "permission_delete" | "permission_view", boolean>;
  const { permission_all, permission_add, permission_modifly, permission_delete, permission_view, ...modules } = ((await res.json()) as { payload: WirePermissions }).payload;
  const permissions: Permissions = {
    ...modules,
    permissionAll: permission_all,
    permissionAdd: permission_add,
    permissionModify: permission_modifly,
    permissionDelete: permission_delete,
    permissionView: permission_view,
  };
  return new Map([["home", "/"], ...navItems(permissions, body.payload.company_type as CompanyType).map((i) => [i.key, i.to] as [string, string])]);
}

const keyOf = (testId: string | null, prefix: string) => (testId ?? "").slice(prefix.length);

/** Entries in the row that are wholly visible inside it, and the ones in the More menu. */
async function rowAndMore(page: Page): Promise<{ row: string[]; more: string[] }> {
  const nav = page.getByTestId("main-nav");
  await expect(nav).toBeVisible();
  // One reading of every entry's box against the row's, so a row still settling after a resize (it
  // measures, then hands entries to the More menu) is read whole; it must settle with none cut off.
  const read = () =>
    nav.evaluate((el) => {
      const row = el.getBoundingClientRect();
      return [...el.querySelectorAll(":scope > a[data-testid^='nav-']")].map((a) => {
        const box = a.getBoundingClientRect();
        return { key: a.getAttribute("data-testid")!.slice("nav-".length), inside: box.left >= row.left - 0.5 && box.right <= row.right + 0.5 };
      });
    });
  await expect.poll(async () => (await read()).filter((e) => !e.inside).map((e) => `${e.key} is cut off`)).toEqual([]);
  const row = (await read()).map((e) => e.key);
  const more: string[] = [];
  const trigger = page.getByTestId("nav-more");
  if (await trigger.count()) {
    await trigger.focus();
    await page.keyboard.press("Enter"); // the menu opens from the keyboard
    const items = page.getByRole("menuitem");
    await expect(items.first()).toBeFocused();
    for (const item of await items.all()) more.push(keyOf(await item.getAttribute("data-testid"), "nav-"));
    await page.keyboard.press("Escape");
    await expect(trigger).toBeFocused();
  }
  return { row, more };
}

for (const lang of LANGS) {
  for (const width of WIDTHS) {
    for (const who of LOGINS) {
      test(`${who} in ${lang} at ${width}px: every entry is in the header or its menu`, async ({ page }) => {
        const expected = await expectedEntries(page.request, who);
        await signIn(page, who, lang);
        await page.setViewportSize({ width, height: 800 });
        await page.goto("/");
        await expect(page.getByTestId("user-menu")).toBeInViewport({ ratio: 1 });
        await keepScreenshot(page.locator("header"), `header-${who}-${lang}-${width}`);

        let reached: string[];
        if (width >= 768) {
          await expect(page.getByTestId("nav-menu-button")).toBeHidden();
          const { row, more } = await rowAndMore(page);
          reached = [...row, ...more];
          // The last entry is reached by clicking, wherever it ended up.
          const [lastKey, lastTo] = [...expected].at(-1)!;
          if (more.includes(lastKey)) await page.getByTestId("nav-more").click();
          await page.getByTestId(`nav-${lastKey}`).click();
          await expect(page).toHaveURL(new RegExp(`${lastTo}$`));
        } else {
          await expect(page.getByTestId("main-nav")).toBeHidden();
          const button = page.getByTestId("nav-menu-button");
          await button.focus();
          await page.keyboard.press("Enter");
          const sheet = page.getByTestId("nav-sheet");
          await expect(sheet).toBeVisible();
          await keepScreenshot(page, `menu-sheet-${who}-${lang}-${width}`);
          expect(await axeFindings(page)).toEqual([]);
          reached = [];
          for (const link of await sheet.locator("a[data-testid^='sheet-nav-']").all()) {
            await expect(link).toBeInViewport();
            reached.push(keyOf(await link.getAttribute("data-testid"), "sheet-nav-"));
          }
          // Keyboard: Tab stays inside the sheet, Escape closes it and gives focus back to the button.
          for (let i = 0; i < reached.length + 2; i++) {
            await page.keyboard.press("Tab");
            expect(await sheet.evaluate((el) => el.contains(document.activeElement))).toBe(true);
          }
          await page.keyboard.press("Escape");
          await expect(sheet).toBeHidden();
          await expect(button).toBeFocused();
          // Following an entry closes the sheet.
          const [lastKey, lastTo] = [...expected].at(-1)!;
          await button.click();
          await expect(sheet).toBeVisible();
          await page.getByTestId(`sheet-nav-${lastKey}`).click();
          await expect(page).toHaveURL(new RegExp(`${lastTo}$`));
          await expect(sheet).toBeHidden();
        }
        expect(new Set(reached).size, `no entry twice: ${reached}`).toBe(reached.length);
        expect([...reached].sort()).toEqual([...expected.keys()].sort());
      });
    }
  }
}

test("the row gives entries back to the More menu and takes them again as the window changes", async ({ page }) => {
  await signIn(page, "acme", "es");
  await page.setViewportSize({ width: 1440, height: 800 });
  await page.goto("/");
  const wide = await rowAndMore(page);
  await page.setViewportSize({ width: 800, height: 800 });
  await expect(page.getByTestId("nav-more")).toBeVisible();
  const narrow = await rowAndMore(page);
  await page.getByTestId("nav-more").click();
  await expect(page.getByRole("menu")).toBeVisible();
  expect(await axeFindings(page)).toEqual([]);
  await page.keyboard.press("Escape");
  expect(narrow.row.length).toBeLessThan(wide.row.length);
  expect([...narrow.row, ...narrow.more].sort()).toEqual([...wide.row, ...wide.more].sort());
  await page.setViewportSize({ width: 1440, height: 800 });
  await expect.poll(async () => (await rowAndMore(page)).row).toEqual(wide.row);
});

test("a platform admin opens Account Details from the top-bar menu and reads their own record", async ({ page }) => {
  for (const [lang, label] of [
    ["en", "Account Details"],
    ["es", "Detalles de la cuenta"],
  ] as const) {
    await signIn(page, "root", lang);
    await page.goto("/");
    await page.getByTestId("user-menu").click();
    await page.getByRole("menuitem", { name: label }).click();
    await expect(page).toHaveURL(/\/modifyUser\?id=\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin, Root");
    await expect(page.locator("input[name=email]")).toHaveValue(DEMO.root.userName);
  }
});
