import { expect, test } from "./fixtures";

/**
 * Issue 10: after Log Out, the browser's Back button must not show the signed-in page from its
 * cache (names and e-mails). Signed-in pages are sent with `Cache-Control: no-store`, so Back asks
 * the server again, which sends the browser to /login. The page also runs under its nonce CSP
 * without a single violation.
 */
test("after Log Out, Back shows the sign-in page, not the users list", async ({ page, loginAs }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content[- ]Security[- ]Policy/i.test(m.text())) violations.push(m.text());
  });
  await loginAs("acme");
  await page.goto("/users");
  await expect(page.getByText("admin@acme.example").first()).toBeVisible();
  await page.getByTestId("user-menu").click();
  await page.getByTestId("logout").click();
  await expect(page).toHaveURL(/\/login$/);

  await page.goBack();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("admin@acme.example")).toHaveCount(0);
  expect(violations).toEqual([]);
});
