import type { APIRequestContext } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver } from "../../scripts/webhook-receiver.mjs";
import { axeFindings } from "./axe";
import { adminApi, expect, runNow, test, unique, RESET_SAFE_GET } from "./fixtures";

/**
 * The webhook console (decision 0078) end to end, through the browser: an admin adds an endpoint that
 * points at a real local receiver (scripts/webhook-receiver.mjs) scripted to fail three times; a user
 * change becomes a signed event; the back-off's retries (5 s, 5 min, 30 min) are made to fall due by
 * firing the console's cron an hour ahead (Miniflare's /cdn-cgi/handler/scheduled?time=, which only the
 * test consoles serve; the sweep takes the cron's instant), so the fourth attempt is delivered. The
 * receiver's requests are verified here with the `standardwebhooks` package and counted by webhook-id.
 * Then a replay from the log, the secret shown again, a rotation (both secrets sign for 24 h) and a
 * replay of a time range signed by both. A short Spanish run at 390 px walks the same screens and
 * dialogs without a receiver (the endpoint is disabled from the start).
 */
type Received = { headers: Record<string, string>; body: string; answered: number };

/** Every request the receiver got under `name`, once it has at least `n`. */
async function receivedAtLeast(request: APIRequestContext, url: string, n: number): Promise<Received[]> {
  let got: Received[] = [];
  await expect
    .poll(async () => (got = (await (await request.get(url, RESET_SAFE_GET)).json()) as Received[]).length, { message: `${n} requests at ${url}`, timeout: 20_000 })
    .toBeGreaterThanOrEqual(n);
  return got;
}

type DeliveryRow = { state: string; attempts: number; last_status: number | null; event_id: string };

test("webhooks: a failing receiver gets the event retried and delivered once by webhook-id; replay; rotate the secret", async ({ page, loginAs }) => {
  test.setTimeout(120_000);
  const { server, url: receiverUrl } = await startWebhookReceiver(0, { quiet: true });
  try {
    const name = `e2e-${unique()}`;
    const hook = `${receiverUrl}/hooks/${name}`;
    await page.setViewportSize({ width: 1440, height: 900 });
    await loginAs("acme");

    // Reached from Company Settings, like API keys.
    await page.goto("/companySettings");
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "Add endpoint" }).click();
    await page.getByRole("textbox", { name: "URL" }).fill(`${hook}?fail=3`);
    await page.getByRole("textbox", { name: "Description" }).fill("E2E receiver");
    // "All of Users" ticks the group; the other user types are then unticked again, leaving user.created.
    await page.getByRole("checkbox", { name: "All of Users" }).check();
    for (const other of ["User changed", "User deactivated", "User deleted"]) await page.getByRole("checkbox", { name: other }).uncheck();
    await expect(page.getByRole("checkbox", { name: "User created" })).toBeChecked();
    await expect(page.getByRole("switch", { name: "Send events to this endpoint" })).toBeChecked();
    await page.getByRole("button", { name: "Create endpoint" }).click();

    await expect(page.getByText("Copy the signing secret now")).toBeVisible();
    const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await page.getByRole("link", { name: "Delivery log" }).click();
    await expect(page.getByText("Nothing sent to this endpoint yet")).toBeVisible();
    const endpointId = Number(new URL(page.url()).searchParams.get("id"));
    expect(endpointId).toBeGreaterThan(0);

    // A user change: the alert engine writes the event, the queue's consumer makes attempt 1 (500).
    const api = await adminApi(page.request);
    await api.createUser("Hook", `Receiver${unique()}`);
    await receivedAtLeast(page.request, hook, 1);
    const delivery = async () => (await api.call<{ payload: { rows: DeliveryRow[] } }>("GET", `/webhooks/endpoints/${endpointId}/deliveries`)).payload.rows[0];
    for (let n = 1; n <= 3; n++) {
      // Attempt n is recorded (no longer in flight), then the cron an hour ahead finds the retry due.
      await expect.poll(async () => (await delivery())?.attempts, { timeout: 20_000 }).toBe(n);
      // The header names the console Worker: without it Miniflare hands the trigger to its static-assets router.
      const fired = await page.request.get(`/cdn-cgi/handler/scheduled?time=${runNow() + 3_600_000}`, {
        ...RESET_SAFE_GET,
        headers: { "MF-Route-Override": "keyless-access-console" },
      });
      expect(fired.status()).toBe(200);
      await receivedAtLeast(page.request, hook, n + 1);
    }
    await expect.poll(async () => (await delivery())?.state, { timeout: 20_000 }).toBe("delivered");
    const got = await receivedAtLeast(page.request, hook, 4);
    expect(got.map((m) => m.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(got.map((m) => m.headers["webhook-id"])).size).toBe(1);
    for (const m of got) new Webhook(secret).verify(m.body, m.headers);
    const webhookId = got[0].headers["webhook-id"];
    expect(JSON.parse(got[3].body)).toMatchObject({ version: 1, type: "user.created", id: webhookId });

    // The log shows it: delivered after 4 attempts, last code 200; filtered by status.
    await page.reload();
    const row = page.getByRole("row").filter({ hasText: webhookId });
    await expect(row).toContainText("Delivered");
    await expect(row.getByRole("cell", { name: "4", exact: true })).toBeVisible();
    await expect(row.getByRole("cell", { name: "200", exact: true })).toBeVisible();
    await page.getByRole("combobox", { name: "Status" }).selectOption("dead");
    await expect(page.getByText("No deliveries in this state")).toBeVisible();
    await page.getByRole("combobox", { name: "Status" }).selectOption("");
    await expect(row).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);

    // Replay from the log: the same event again, under the same webhook-id.
    await row.getByRole("button", { name: `Replay ${webhookId}` }).click();
    await expect(page.getByText("Deliveries queued again", { exact: true })).toBeVisible();
    const replayed = await receivedAtLeast(page.request, hook, 5);
    expect(replayed[4]).toMatchObject({ answered: 200, body: got[0].body });
    expect(replayed[4].headers["webhook-id"]).toBe(webhookId);
    new Webhook(secret).verify(replayed[4].body, replayed[4].headers);
    await expect.poll(async () => (await delivery())?.state, { timeout: 20_000 }).toBe("delivered");

    // The secret again, to one who may modify; then a rotation, after a dialog that explains the overlap.
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: "Modify webhook endpoint" })).toBeVisible();
    await page.getByRole("button", { name: "Show secret" }).click();
    await expect(page.getByTestId("webhook-secret")).toHaveText(secret);
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("For 24 hours every event is signed with both the new and the current secret");
    await dialog.getByRole("button", { name: "Rotate" }).click();
    await expect(page.getByText("Signing secret rotated")).toBeVisible();
    await expect(page.getByTestId("webhook-secret")).not.toHaveText(secret);
    const fresh = (await page.getByTestId("webhook-secret").textContent())!.trim();
    expect(fresh).toMatch(/^whsec_/);
    await expect(page.getByText(/The previous secret also signs until/)).toBeVisible();

    // A time range replayed from the log (the last day, as the dialog offers): signed by both secrets.
    await page.getByRole("link", { name: "Delivery log" }).click();
    await page.getByRole("button", { name: "Replay a time range" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Replay" }).click();
    await expect(page.getByText("Deliveries queued again", { exact: true })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const last = (await receivedAtLeast(page.request, hook, 6))[5];
    expect(last.headers["webhook-id"]).toBe(webhookId);
    expect(last.headers["webhook-signature"].split(" ")).toHaveLength(2);
    new Webhook(secret).verify(last.body, last.headers);
    new Webhook(fresh).verify(last.body, last.headers);
    expect(new Set((await receivedAtLeast(page.request, hook, 6)).map((m) => m.headers["webhook-id"])).size).toBe(1);

    // Disabled from its form, then deleted from the list after a confirmation.
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByRole("switch", { name: "Send events to this endpoint" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Webhook endpoint saved", { exact: true })).toBeVisible();
    const listRow = page.getByRole("row").filter({ hasText: `${hook}?fail=3` });
    await expect(listRow).toContainText("Disabled");
    await expect(listRow).toContainText("Delivered");
    await listRow.getByRole("button", { name: `Delete ${hook}?fail=3` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Webhook endpoint deleted", { exact: true })).toBeVisible();
    await expect(listRow).toHaveCount(0);
  } finally {
    server.close();
  }
});

test("webhooks in Spanish at 390 px: add a disabled endpoint, see its secret once, rotate it, delete it", async ({ page, loginAs }) => {
  const url = `https://hooks.example/e2e-${unique()}`;
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs("acme", "es");
  await page.goto("/webhooks");
  await page.getByRole("link", { name: "Añadir endpoint" }).click();
  await page.getByRole("textbox", { name: "URL" }).fill(url);
  await page.getByRole("checkbox", { name: "Seleccionar todos" }).check();
  await expect(page.getByRole("checkbox", { name: "Alerta disparada" })).toBeChecked();
  // Off from the start: nothing is ever sent to this address.
  await page.getByRole("switch", { name: "Enviar eventos a este endpoint" }).click();
  await page.getByRole("button", { name: "Crear endpoint" }).click();
  await expect(page.getByText("Copie ahora el secreto de firma")).toBeVisible();
  const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();

  await page.getByRole("link", { name: "Registro de entregas" }).click();
  await expect(page.getByText("Aún no se ha enviado nada a este endpoint")).toBeVisible();
  await page.getByRole("link", { name: "Editar" }).click();
  await expect(page.getByRole("switch", { name: "Enviar eventos a este endpoint" })).not.toBeChecked();
  await page.getByRole("button", { name: "Rotar secreto" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Durante 24 horas");
  await page.getByRole("alertdialog").getByRole("button", { name: "Rotar" }).click();
  await expect(page.getByText("Secreto de firma rotado")).toBeVisible();
  await expect(page.getByTestId("webhook-secret")).not.toHaveText(secret);

  await page.getByRole("button", { name: "Eliminar endpoint" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Eliminar" }).click();
  await expect(page.getByText("Webhook eliminado", { exact: true })).toBeVisible();
  await expect(page.getByText(url)).toHaveCount(0);
});
