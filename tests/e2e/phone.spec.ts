import type { Page } from "@playwright/test";
import { createCore } from "~core";
import { credentialQr } from "../../app/phone/credential-qr";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { adminApi, awaitHydration, clockOffsetMs, clockTag, DEMO, expect, mailbox, runNow, test, textMessages, unique, workerConsole, RESET_SAFE_GET } from "./fixtures";
import { axeFindings } from "./axe";

/** The core in Node, to work out what the phone must say from the key's window and the page's clock. */
const core = createCore(readFileSync(new URL("../../core-wasm/pkg/core.wasm", import.meta.url)));

const DOOR = 2;
/** Monday to Friday 09:00-18:00 in Madrid: open at one of the suite's instants, closed at the other. */
const WEEKDAYS = [true, true, true, true, true, false, false];

/**
 * Gives the demo user (id 3) a never-ending key to DOOR in Madrid from 2026-01-01, on `days` (Monday first),
 * from 09:00 to 18:00 or all day; returns the key's entry id.
 */
/** The phone app's sign-in form, filled as a person does in `lang` (the page is already on /m in that language). */
async function signInOnPhone(page: Page, lang: "en" | "es", who: "acme" | "beta") {
  const es = lang === "es";
  await page.getByLabel(es ? "ID de empresa" : "Company ID").fill(DEMO[who].companyId);
  await page.getByLabel(es ? "Correo o número de teléfono" : "Email or phone number").fill(DEMO[who].userName);
  await page.getByRole("textbox", { name: es ? "Contraseña" : "Password" }).fill(DEMO[who].password);
  await page.getByRole("button", { name: es ? "Iniciar sesión" : "Sign in" }).click();
}

async function giveKey(admin: Awaited<ReturnType<typeof adminApi>>, days: boolean[], hours: "09:00-18:00" | "all day") {
  const allDay = hours === "all day";
  const assigned = await admin.call<{ payload: { entryId: number } }>("POST", "/user/assignKeyToUser", {
    userId: 3,
    eKey: DOOR,
    type: "device",
    status: "1",
    FOBDeviceId: null,
    accessType: "custom_access",
    startDate: "2026-01-01",
    endDate: "",
    isNeverEnd: "1",
    isAllDay: allDay ? "1" : "0",
    startTime: allDay ? "" : "09:00",
    endTime: allDay ? "" : "18:00",
    scheduleDays: days,
    zone: await admin.zoneId("Europe/Madrid"),
    entryId: null,
  });
  return assigned.payload.entryId;
}

test.describe("phone web app", () => {
  test("signs in, holds keys, and offline still shows them and decides 'open now' with the core", { tag: clockTag() }, async ({ page, context }) => {
    const admin = await adminApi(page.request);
    await giveKey(admin, WEEKDAYS, "09:00-18:00");
    // The page's clock, so the credential's expiry can be passed below (the run's clock when E2E_NOW is set).
    if (clockOffsetMs() === 0) await context.clock.install({ time: runNow() });

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

  test.describe("presenting a key to a simulated board", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    /** Every day 09:00-18:00 in Madrid: a credential's 24 hours always hold an open and a closed stretch. */
    const DAILY = [true, true, true, true, true, true, true];
    const TEXT = {
      en: {
        company: "Company ID",
        user: "Email or phone number",
        password: "Password",
        signIn: "Sign in",
        present: "Present to door",
        copy: "Copy credential",
        copied: "Copied",
        answer: "Board answer",
        record: "Record",
        opened: "The door opened.",
        refused: "The door refused: outside the key's hours",
        history: "History",
        unlocked: "Unlocked with the app",
        denied: "App access denied",
        qr: /QR code of the credential/,
      },
      es: {
        company: "ID de empresa",
        user: "Correo o número de teléfono",
        password: "Contraseña",
        signIn: "Iniciar sesión",
        present: "Presentar en la puerta",
        copy: "Copiar credencial",
        copied: "Copiada",
        answer: "Respuesta de la placa",
        record: "Registrar",
        opened: "La puerta se abrió.",
        refused: "La puerta lo rechazó: fuera del horario de la llave",
        history: "Historial",
        unlocked: "Desbloqueada con la app",
        denied: "Acceso con la app denegado",
        qr: /Código QR de la credencial/,
      },
    } as const;

    /** The board simulator's offline verify mode, a separate process with the published keys on disk and no console address. */
    function boardVerify(jwksFile: string, door: number, at: number, token: string): { allowed: boolean; reason: string } {
      const out = execFileSync(
        process.execPath,
        ["gateway/sim/board.js", "verify", "--jwks", jwksFile, "--door", String(door), "--at", new Date(at).toISOString(), "--credential", token],
        {
          encoding: "utf8",
          cwd: fileURLToPath(new URL("../..", import.meta.url)),
        },
      );
      return JSON.parse(out.trim());
    }

    for (const lang of ["en", "es"] as const) {
      test(`signs in at 390 px, presents a key by QR and copy, and a board decides it offline (${lang})`, { tag: clockTag(lang) }, async ({ page, context }) => {
        const x = TEXT[lang];
        const admin = await adminApi(page.request);
        const { payload: current } = await admin.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
        await admin.call("PUT", "/settings/modifyCompanySettings", { ...current, offline_reconect: 24, ekey_duration: 24, biometric_security: "0", require_2fa: "0" });
        await admin.call("DELETE", "/user/forgetDevice?id=3");
        const entryId = await giveKey(admin, DAILY, "09:00-18:00");
        const jwks = await (await page.request.get("/.well-known/keyless-credential-keys.json", RESET_SAFE_GET)).json();
        expect(jwks.keys.length).toBeGreaterThan(0);
        const dir = mkdtempSync(join(tmpdir(), "phone-present-"));
        const jwksFile = join(dir, "keys.json");
        writeFileSync(jwksFile, JSON.stringify(jwks));
        await context.grantPermissions(["clipboard-read", "clipboard-write"]);
        if (clockOffsetMs() !== 0) await context.clock.install({ time: runNow() });

        try {
          await page.goto("/m");
          if (lang === "es") await page.getByRole("button", { name: "Cambiar a español" }).click();
          await signInOnPhone(page, lang, "acme");
          const card = page.locator(`li[data-key-id="${entryId}"]`);
          await expect(card).toBeVisible();
          const held = await page.evaluate((id) => JSON.parse(localStorage.getItem("phone.keys")!).keys.find((k: { id: number }) => k.id === id), entryId);
          const token: string = held.credential.token;

          // Presenting works with the phone offline: the credential is all the door needs.
          await context.setOffline(true);
          await card.getByRole("button", { name: x.present }).click();
          const dialog = page.getByRole("dialog");
          await expect(dialog.getByRole("img", { name: x.qr })).toHaveAttribute("src", await credentialQr(token));
          await dialog.getByRole("button", { name: x.copy }).click();
          await expect(dialog.getByTestId("copy-status")).toHaveText(x.copied);
          const copied = await page.evaluate(() => navigator.clipboard.readText());
          expect(copied).toBe(token);

          // The board decides at its own clock: an instant inside the key's hours and one outside, both within the credential's life.
          const claims = JSON.parse(Buffer.from(copied.split(".")[1], "base64url").toString("utf8"));
          const from = Math.max(claims.iat * 1000, runNow());
          const instants = Array.from({ length: 24 * 6 }, (_, i) => from + i * 600_000).filter((t) => t <= claims.exp * 1000);
          const inside = instants.find((t) => core.isOpen(claims.win, t));
          const outside = instants.find((t) => !core.isOpen(claims.win, t));
          expect(inside, "an open instant within the credential's life").toBeDefined();
          expect(outside, "a closed instant within the credential's life").toBeDefined();
          const allowed = boardVerify(jwksFile, DOOR, inside!, copied);
          const denied = boardVerify(jwksFile, DOOR, outside!, copied);
          expect(allowed).toEqual({ allowed: true, reason: "ok" });
          expect(denied).toEqual({ allowed: false, reason: "outside_schedule" });
          // The same credential at another door, or past its expiry, is refused by the board too.
          expect(boardVerify(jwksFile, DOOR + 1, inside!, copied)).toEqual({ allowed: false, reason: "other_door" });
          expect(boardVerify(jwksFile, DOOR, claims.exp * 1000 + 180_000, copied)).toEqual({ allowed: false, reason: "credential_expired" });

          // The board's answers, given back to the phone, are shown and kept for the console.
          await dialog.getByLabel(x.answer).fill(JSON.stringify(allowed));
          await dialog.getByRole("button", { name: x.record }).click();
          await expect(card.getByTestId("present-result")).toHaveText(x.opened);
          await card.getByRole("button", { name: x.present }).click();
          await page.getByRole("dialog").getByLabel(x.answer).fill(JSON.stringify(denied));
          await page.getByRole("dialog").getByRole("button", { name: x.record }).click();
          await expect(card.getByTestId("present-result")).toHaveText(x.refused);
          expect(await page.evaluate(() => JSON.parse(localStorage.getItem("phone.pending")!).length)).toBe(2);

          // Back online, the phone reports both attempts and its history shows them.
          await context.setOffline(false);
          await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("phone.pending") ?? "[]").length)).toBe(0);
          await page.getByRole("tab", { name: x.history }).click();
          await expect(page.getByText(x.unlocked).first()).toBeVisible();
          await expect(page.getByText(x.denied).first()).toBeVisible();
        } finally {
          await context.setOffline(false);
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  });

  test.describe("accessibility of /m", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    /** Serious and critical axe findings on the page as it is now, one line each. */
    async function findingsAt(page: Page, where: string): Promise<string[]> {
      return (await axeFindings(page)).map((finding) => `${where} ${finding}`);
    }

    for (const lang of ["en", "es"] as const) {
      test(`sign-in, key list and presenting have no serious or critical axe findings (${lang})`, async ({ page, context }) => {
        const admin = await adminApi(page.request);
        await admin.call("DELETE", "/user/forgetDevice?id=3");
        if (clockOffsetMs() !== 0) await context.clock.install({ time: runNow() });
        await page.goto("/m");
        if (lang === "es") await page.getByRole("button", { name: "Cambiar a español" }).click();
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        const found = await findingsAt(page, "sign-in");
        await signInOnPhone(page, lang, "acme");
        const present = page.getByRole("button", { name: lang === "es" ? "Presentar en la puerta" : "Present to door" }).and(page.locator(":enabled"));
        await expect(present.first()).toBeVisible();
        found.push(...(await findingsAt(page, "keys")));
        await present.first().click();
        await expect(page.getByRole("dialog").getByRole("img")).toBeVisible();
        found.push(...(await findingsAt(page, "present")));
        await page.keyboard.press("Escape");
        await page.getByRole("tab", { name: lang === "es" ? "Historial" : "History" }).click();
        found.push(...(await findingsAt(page, "history")));
        expect(found).toEqual([]);
      });
    }
  });

  test.describe("biometric requirement", () => {
    test.use({ viewport: { width: 390, height: 844 } });
    const DAILY = [true, true, true, true, true, true, true];
    const TEXT = {
      en: {
        company: "Company ID",
        user: "Email or phone number",
        password: "Password",
        signIn: "Sign in",
        present: "Present to door",
        notice: /Your company requires/,
        refused: /did not verify you/,
      },
      es: {
        company: "ID de empresa",
        user: "Correo o número de teléfono",
        password: "Contraseña",
        signIn: "Iniciar sesión",
        present: "Presentar en la puerta",
        notice: /Su empresa exige/,
        refused: /no le ha verificado/,
      },
    } as const;

    for (const lang of ["en", "es"] as const) {
      test(
        `the phone registers its authenticator, the console signs after a verified assertion, and the board requiring biometrics opens (${lang})`,
        { tag: clockTag(lang) },
        async ({ page, context }) => {
          const x = TEXT[lang];
          const admin = await adminApi(page.request);
          const { payload: current } = await admin.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
          await admin.call("DELETE", "/user/forgetDevice?id=3");
          await admin.call("PUT", "/settings/modifyCompanySettings", { ...current, offline_reconect: 24, ekey_duration: 24, biometric_security: "1", require_2fa: "0" });
          const entryId = await giveKey(admin, DAILY, "all day");
          const dir = mkdtempSync(join(tmpdir(), "phone-bio-"));
          const jwksFile = join(dir, "keys.json");
          writeFileSync(jwksFile, JSON.stringify(await (await page.request.get("/.well-known/keyless-credential-keys.json", RESET_SAFE_GET)).json()));
          try {
            // WebAuthn needs a domain as its relying party: the same server under the name localhost.
            const cdp = await context.newCDPSession(page);
            await cdp.send("WebAuthn.enable");
            const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
              options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
            });
            if (clockOffsetMs() !== 0) await context.clock.install({ time: runNow() });
            await page.goto(`http://localhost:${workerConsole().port}/m`);
            if (lang === "es") await page.getByRole("button", { name: "Cambiar a español" }).click();
            await signInOnPhone(page, lang, "acme");
            await expect(page.getByText(x.notice)).toBeVisible();
            const card = page.locator(`li[data-key-id="${entryId}"]`);
            await expect(card).toBeVisible();

            // Registered once with the console, then asserted: the credentials the console signed carry the verification.
            const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
            expect(credentials).toHaveLength(1);
            const held = await page.evaluate((id) => JSON.parse(localStorage.getItem("phone.keys")!).keys.find((k: { id: number }) => k.id === id), entryId);
            const token: string = held.credential.token;
            const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
            expect(claims.uv).toBeGreaterThanOrEqual(claims.iat - 5);
            expect(claims.uv).toBeLessThanOrEqual(claims.iat);

            // Presenting asks the authenticator again on the phone; the board of a company requiring biometrics opens with this credential.
            await card.getByRole("button", { name: x.present }).click();
            await expect(page.getByRole("dialog").getByRole("img")).toBeVisible();
            await page.keyboard.press("Escape");
            const at = new Date(Math.max(claims.iat * 1000, runNow()) + 60_000).toISOString();
            const verify = (...extra: string[]) =>
              JSON.parse(
                execFileSync(process.execPath, ["gateway/sim/board.js", "verify", "--jwks", jwksFile, "--door", String(DOOR), "--at", at, "--credential", token, ...extra], {
                  encoding: "utf8",
                  cwd: fileURLToPath(new URL("../..", import.meta.url)),
                }).trim(),
              );
            expect(verify("--biometric-required")).toEqual({ allowed: true, reason: "ok" });

            // The user is not verified: nothing is presented, and a refresh signs nothing new; the keys held stay.
            await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
            await card.getByRole("button", { name: x.present }).click();
            await expect(card.getByTestId("verification-refused")).toHaveText(x.refused);
            await expect(page.getByRole("dialog")).toHaveCount(0);
            await context.setOffline(true);
            await context.setOffline(false);
            await expect(page.getByTestId("refresh-verification-refused")).toBeVisible();
            expect(await page.evaluate((id) => JSON.parse(localStorage.getItem("phone.keys")!).keys.find((k: { id: number }) => k.id === id).credential.token, entryId)).toBe(
              token,
            );
          } finally {
            await context.setOffline(false);
            await admin.call("PUT", "/settings/modifyCompanySettings", { ...current, biometric_security: "0" });
            rmSync(dir, { recursive: true, force: true });
          }
        },
      );
    }
  });
});

test.describe("two-factor sign-in on the phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  const TEXT = {
    en: {
      company: "Company ID",
      user: "Email or phone number",
      password: "Password",
      signIn: "Sign in",
      title: "Enter your sign-in code",
      byMail: `We sent a 6-digit code by e-mail to ${DEMO.beta.userName}`,
      code: "Code",
      verify: "Verify",
      wrong: "The code is invalid or has expired",
      byText: "Send the code by text message instead",
      texted: "A new code has been sent to your phone by text message",
      sentByText: /We sent a new 6-digit code by text message to \*\*\*-\*\*\*-\d{4}/,
      keys: "My keys",
    },
    es: {
      company: "ID de empresa",
      user: "Correo o número de teléfono",
      password: "Contraseña",
      signIn: "Iniciar sesión",
      title: "Introduzca su código de acceso",
      byMail: `Le hemos enviado un código de 6 cifras por correo electrónico a ${DEMO.beta.userName}`,
      code: "Código",
      verify: "Verificar",
      wrong: "El código no es válido o ha caducado",
      byText: "Enviar el código por SMS",
      texted: "Se ha enviado un código nuevo a su teléfono por SMS",
      sentByText: /Le hemos enviado un código nuevo de 6 cifras por SMS al \*\*\*-\*\*\*-\d{4}/,
      keys: "Mis llaves",
    },
  } as const;

  for (const lang of ["en", "es"] as const) {
    test(`after the password /m asks for the code, says where it went, refuses a wrong one and signs in with the texted one (${lang})`, async ({ page, request }) => {
      const x = TEXT[lang];
      // BETA (ACME's admin API token would need the code too); several phones, so no phone is bound by the test.
      const beta = await adminApi(request, "beta");
      const { payload: saved } = await beta.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
      await beta.call("PUT", "/settings/modifyCompanySettings", { ...saved, require_2fa: "1", is_multi_phone_login: "1" });
      try {
        await page.goto("/m");
        if (lang === "es") await page.getByRole("button", { name: "Cambiar a español" }).click();
        await signInOnPhone(page, lang, "beta");
        await expect(page.getByRole("heading", { name: x.title })).toBeVisible();
        await expect(page.getByTestId("code-sent-to")).toContainText(x.byMail);

        const textsBefore = (await textMessages()).length;
        await page.getByRole("button", { name: x.byText }).click();
        await expect(page.getByRole("status").filter({ hasText: x.texted })).toBeVisible();
        await expect(page.getByTestId("code-sent-to")).toHaveText(x.sentByText);
        const texted = async () =>
          (await textMessages())
            .slice(textsBefore)
            .map((m) => /(?:code is|código de acceso es) (\d{6})/.exec(m.body)?.[1])
            .find(Boolean);
        await expect.poll(texted, { timeout: 30_000 }).toBeTruthy();
        const code = (await texted())!;

        // A wrong code: the console's answer, in the page's language; the step stays.
        await page.getByRole("textbox", { name: x.code, exact: true }).fill(code === "000000" ? "111111" : "000000");
        await page.getByRole("button", { name: x.verify }).click();
        await expect(page.getByRole("alert")).toHaveText(x.wrong);
        await page.getByRole("textbox", { name: x.code, exact: true }).fill(code);
        await page.getByRole("button", { name: x.verify }).click();

        // Signed in: the phone fetched its keys (with their offline credentials) as after a password-only sign-in.
        await expect(page.getByRole("tab", { name: x.keys })).toBeVisible();
        await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("phone.keys") ?? "null")?.refreshBy ?? 0)).toBeGreaterThan(runNow());
        expect(await page.evaluate(() => sessionStorage.getItem("phone.codeStep"))).toBeNull();
      } finally {
        await beta.call("PUT", "/settings/modifyCompanySettings", saved);
      }
    });
  }
});

test.describe("firmware update from the phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  const zip = () => Buffer.concat([Buffer.from("PK\u0003\u0004"), Buffer.alloc(64 * 1024, 7)]);
  const TEXT = {
    en: {
      company: "Company ID",
      user: "Email or phone number",
      password: "Password",
      signIn: "Sign in",
      title: "Firmware updates",
      available: (v: string) => `Firmware ${v} is available`,
      update: "Update firmware",
      confirm: /Update the firmware of/,
      refused: "Only installers may update firmware in this company: ask an installer or your administrator to update these doors.",
      started: "Firmware update started",
      startedState: (v: string) => `Update started: the door's gateway offers it version ${v}.`,
    },
    es: {
      company: "ID de empresa",
      user: "Correo o número de teléfono",
      password: "Contraseña",
      signIn: "Iniciar sesión",
      title: "Actualizaciones de firmware",
      available: (v: string) => `Hay disponible el firmware ${v}`,
      update: "Actualizar firmware",
      confirm: /¿Actualizar el firmware de/,
      refused: "En esta empresa solo los instaladores pueden actualizar el firmware: pida a un instalador o a su administrador que actualice estas puertas.",
      started: "Actualización de firmware iniciada",
      startedState: (v: string) => `Actualización iniciada: la pasarela de la puerta le ofrece la versión ${v}.`,
    },
  } as const;

  for (const [i, lang] of (["en", "es"] as const).entries()) {
    test(`a door of the phone's keys shows a newer release; the start is confirmed, refused under Installer Only, started under All Users (${lang})`, async ({ page, request }) => {
      const x = TEXT[lang];
      const root = await adminApi(request, "root");
      const acme = await adminApi(request, "acme");
      const setAllowed = async (allowed: "All Users" | "Installer Only") => {
        const { payload } = await acme.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
        await acme.call("PUT", "/settings/modifyCompanySettings", { ...payload, allowed_firmware: allowed, is_force_firmware_update: "0" });
      };
      const version = `5${Date.now() % 100000}${i}`;
      const uploaded = await request.post("/api/admin/ota/addota", {
        headers: { Authorization: root.token },
        multipart: { version, device_type_id: "1", zip_file: { name: "fw.zip", mimeType: "application/zip", buffer: zip() } },
      });
      expect(uploaded.status()).toBe(200);
      const releaseId = (await uploaded.json()).payload.id as number;
      await root.call("POST", "/ota/activeota", { id: releaseId });
      try {
        await setAllowed("All Users");
        await acme.call("DELETE", "/user/forgetDevice?id=3");
        await giveKey(acme, WEEKDAYS, "all day");
        await page.goto("/m");
        if (lang === "es") await page.getByRole("button", { name: "Cambiar a español" }).click();
        await signInOnPhone(page, lang, "acme");
        const section = page.getByRole("region", { name: x.title });
        const door = section.locator(`li[data-door-id="${DOOR}"]`);
        await expect(door).toContainText(x.available(version));

        // The company switches to installers only while the screen is open: the console refuses, and the phone says why.
        await setAllowed("Installer Only");
        await door.getByRole("button", { name: x.update }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog.getByRole("heading", { name: x.confirm })).toBeVisible();
        await dialog.getByRole("button", { name: x.update }).click();
        await expect(door.getByRole("alert")).toHaveText(x.refused);

        await setAllowed("All Users");
        await door.getByRole("button", { name: x.update }).click();
        await page.getByRole("dialog").getByRole("button", { name: x.update }).click();
        await expect(door.getByRole("status")).toHaveText(x.started);
        await expect(door.getByTestId("firmware-started")).toHaveText(x.startedState(version));
        await expect(door.getByRole("button", { name: x.update })).toHaveCount(0);
      } finally {
        await setAllowed("All Users");
        await root.call("POST", "/ota/deleteota", { id: releaseId });
      }
    });
  }
});

test("forgot password from the phone app: the link lands signed in back on /m; on another phone /m says why it did not", async ({ browser, baseURL, page, request }) => {
  // BETA resets by e-mail (ACME's demo mode is admin approval).
  const acme = await adminApi(request, "beta");
  const last = `Phone${unique()}`;
  const { id } = await acme.createUser("Pia", last);
  const listed = await acme.call<{ payload: { id: number; e_mail: string }[] }>("GET", `/user/getAllUsers?q=${last}&status=all`);
  const email = listed.payload.find((u) => u.id === id)!.e_mail;
  await page.goto("/m");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgotPassword\?from=m$/);
  const sendReset = async () => {
    await page.getByLabel("Company ID").fill("BETA");
    await page.getByLabel("Email or phone").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("link", { name: "Back to the phone app" })).toHaveAttribute("href", "/m");
  };
  await sendReset();
  const resets = async () => (await mailbox()).filter((m) => m.to.includes(email) && m.subject === "Reset your password");
  const linkOf = (m: { text: string }) => new URL(m.text.match(/https?:\/\/\S+\/resetPassword\/[A-Za-z0-9_-]+/)![0]).pathname;
  await expect.poll(async () => (await resets()).length, { timeout: 30_000 }).toBe(1);
  await page.goto(linkOf((await resets())[0]));
  await expect(page.getByText("the Keyless Access phone app opens, signed in")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("Pia#Phone2026");
  await page.getByLabel("Confirm password", { exact: true }).fill("Pia#Phone2026");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/m$/);
  await expect(page.getByRole("tab", { name: "My keys" })).toBeVisible();

  // A second link opened on another phone, in Spanish: Pia is bound to the first, so /m says why it opens signed out and what to do.
  await page.goto("/forgotPassword?from=m");
  await sendReset();
  await expect.poll(async () => (await resets()).length, { timeout: 30_000 }).toBe(2);
  const other = await browser.newContext({ baseURL });
  try {
    // The console's language is the chosen one (cookie), never the browser's locale; and a form filled
    // before hydration would post without the phone's installation id.
    await other.request.post("/resources/language", { form: { lng: "es", redirectTo: "/" }, maxRedirects: 0 });
    const phone = await other.newPage();
    awaitHydration(phone);
    await phone.goto(linkOf((await resets())[1]));
    await phone.getByLabel("Nueva contraseña", { exact: true }).fill("Pia#Phone2027");
    await phone.getByLabel("Confirmar contraseña", { exact: true }).fill("Pia#Phone2027");
    await phone.getByRole("button", { name: "Enviar" }).click();
    await expect(phone).toHaveURL(/\/m$/);
    await expect(phone.getByRole("alert")).toHaveText(
      "Su contraseña está guardada, pero este teléfono no ha podido iniciar su sesión: Solo puede iniciar sesión con un único dispositivo " +
        "Abra la aplicación en el teléfono con el que inició sesión antes, o pida a su administrador que olvide ese teléfono (Usuarios, Olvidar dispositivo) e inicie sesión aquí de nuevo.",
    );
    // Said once: a reload is the plain sign-in.
    await phone.reload();
    await expect(phone.getByRole("button", { name: "Iniciar sesión" })).toBeVisible();
    await expect(phone.getByRole("alert")).toHaveCount(0);
  } finally {
    await other.close();
  }
});
