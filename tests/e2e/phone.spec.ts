import { E2E_CLOCK_OFFSET_MS } from "../../playwright.config";
import { createCore } from "../../core-wasm/pkg/index.js";
import { readFileSync } from "node:fs";
import { adminApi, DEMO, expect, runNow, test } from "./fixtures";

/** The core in Node, to work out what the phone must say from the key's window and the page's clock. */
const core = createCore(readFileSync(new URL("../../core-wasm/pkg/core.wasm", import.meta.url)));

const DOOR = 2;
/** Monday to Friday 09:00-18:00 in Madrid: open at one of the suite's instants, closed at the other. */
const WEEKDAYS = [true, true, true, true, true, false, false];

test.describe("phone web app", () => {
  test("signs in, holds keys, and offline still shows them and decides 'open now' with the core", async ({ page, context }) => {
    const admin = await adminApi(page.request);
    const zone = await admin.zoneId("Europe/Madrid");
    await admin.call("POST", "/user/assignKeyToUser", {
      userId: 3,
      eKey: DOOR,
      type: "device",
      status: "1",
      FOBDeviceId: null,
      accessType: "custom_access",
      startDate: "2026-01-01",
      endDate: "",
      isNeverEnd: "1",
      isAllDay: "0",
      startTime: "09:00",
      endTime: "18:00",
      scheduleDays: WEEKDAYS,
      zone,
      entryId: null,
    });
    // The page's clock, so the credential's expiry can be passed below (the run's clock when E2E_NOW is set).
    if (E2E_CLOCK_OFFSET_MS === 0) await context.clock.install({ time: runNow() });

    const res = await page.goto("/m");
    const csp = res!.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);

    await page.getByLabel("Company ID").fill("ACME");
    await page.getByLabel("Email or phone number").fill(DEMO.acme.userName);
    await page.getByRole("textbox", { name: "Password" }).fill(DEMO.acme.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const card = page
      .locator(`li[data-key-id]`)
      .filter({ has: page.getByRole("heading") })
      .first();
    await expect(card).toBeVisible();

    /** What the phone must show: the core's answer for the held key's window at the page's clock. */
    const expected = async () => {
      const { now, held } = await page.evaluate(() => ({ now: Date.now(), held: JSON.parse(localStorage.getItem("phone.keys")!) }));
      const key = held.keys.find((k: { doors: { id: number }[]; window: { startTime?: string } }) => k.doors.some((d) => d.id === 2) && k.window.startTime === "09:00");
      return { key, now, open: core.isOpen(key.window, now) };
    };
    const first = await expected();
    expect(first.key.credential.expiresAt).toBeGreaterThan(first.now);
    const keyCard = page.locator(`li[data-key-id="${first.key.id}"]`);
    await expect(keyCard.getByTestId("open-now")).toHaveText(first.open ? "Open now" : "Closed now");
    await expect(keyCard.getByTestId("needs-refresh")).toHaveCount(0);

    // The service worker keeps the page, its scripts and the core for the next visit without a network.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      for (let i = 0; i < 100; i++) {
        const cache = await caches.open("phone-app-v1");
        const keys = (await cache.keys()).map((r) => new URL(r.url).pathname);
        const loaded = [...document.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload], link[rel=stylesheet]")].map((e) => new URL(e.href).pathname);
        if (keys.includes("/m") && keys.some((k) => k.endsWith(".wasm")) && loaded.every((p) => keys.includes(p))) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("the app was not kept for offline use");
    });

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId("offline-banner")).toBeVisible();
    const offline = await expected();
    await expect(keyCard.getByTestId("open-now")).toHaveText(offline.open ? "Open now" : "Closed now");
    await expect(keyCard.getByTestId("next-open")).toContainText("Europe/Madrid");

    // Past the credential's expiry the key is still shown, decided by the core, and says it needs a refresh.
    await page.clock.setFixedTime(offline.key.credential.expiresAt + 60_000);
    await page.reload();
    const expired = await expected();
    await expect(keyCard.getByTestId("needs-refresh")).toBeVisible();
    await expect(keyCard.getByTestId("open-now")).toHaveText(expired.open ? "Open now" : "Closed now");
    await expect(keyCard.getByRole("button", { name: "Present to door" })).toBeDisabled();
    await context.setOffline(false);
  });

  test("answers in Spanish and shows the spec's texts", async ({ page }) => {
    await page.goto("/m");
    await page.getByRole("button", { name: "Cambiar a español" }).click();
    await expect(page.getByRole("heading", { name: "Iniciar sesión" })).toBeVisible();
    await page.getByLabel("ID de empresa").fill("ROOT");
    await page.getByLabel("Correo o número de teléfono").fill(DEMO.root.userName);
    await page.getByRole("textbox", { name: "Contraseña" }).fill(DEMO.root.password);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await expect(page.getByRole("alert")).toHaveText("No puede iniciar sesión en la empresa raíz desde la app móvil");
  });
});
