import http from "node:http";
import { expect, test, workerConsole } from "./fixtures";

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

/**
 * A refusal that leaves before the body is parsed (401 for a bad token, 413 for a body over the limit)
 * must still reach the client: workerd reset about one such connection in two while request bytes were
 * unread (an API call failed with ECONNRESET instead of its answer). Raw sockets, one per request as
 * the test clients send them (`Connection: close`), so nothing reuses or hides a reset connection.
 */
test("early refusals reach the client on every connection: 401 before the body, 413 over the limit", async () => {
  const { port } = workerConsole();
  const send = (bytes: number) =>
    new Promise<number | string>((resolve) => {
      const body = JSON.stringify({ note: "x".repeat(bytes) });
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "PUT",
          path: "/api/admin/settings/modifyCompanySettings",
          headers: { Connection: "close", Authorization: "not-a-token", "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        },
        (res) => res.resume().on("end", () => resolve(res.statusCode ?? 0)),
      );
      req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.end(body);
    });
  const answers: (number | string)[] = [];
  for (let i = 0; i < 30; i++) answers.push(await send(1_300));
  for (let i = 0; i < 6; i++) answers.push(await send(2 * 1024 * 1024));
  expect(answers).toEqual([...Array(30).fill(401), ...Array(6).fill(413)]);
});
