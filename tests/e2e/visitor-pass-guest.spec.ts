import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCore } from "~core";
import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { adminApi, expect, mailbox, runNow, test, unique, RESET_SAFE_GET } from "./fixtures";

/**
 * A guest's visitor pass end to end (issue 32, decision 0096): the host invites, the guest's mail reaches
 * the run's SMTP server, the link opens in a second browser context as a phone (no account), the pass's
 * credential is presented (QR code and copy), and a board cut off from its gateway (the simulator's
 * verify mode: the published keys on disk, no network) lets the guest in inside the visit and refuses
 * after it; a one-entry pass is refused at its second use; the door's report reaches the console, the
 * host is mailed, and the phone shows the pass used.
 */
const core = createCore(readFileSync(new URL("../../core-wasm/pkg/core.wasm", import.meta.url)));
const ZONE = "Europe/Madrid"; // ACME's
const DOOR = 2;
const HOST = "admin@acme.example";

const TEXT = {
  en: {
    ...{ name: "Name", email: "E-mail", doors: "Doors the guest may open", startDate: "First day", endDate: "Last day", send: "Send the invitation" },
    ...{ title: "Visitor pass for", present: "Present to door", copy: "Copy credential", copied: "Copied", used: "Used" },
  },
  es: {
    ...{ name: "Nombre", email: "Correo electrónico", doors: "Puertas que puede abrir el invitado", startDate: "Primer día", endDate: "Último día" },
    ...{ send: "Enviar la invitación", title: "Pase de visitante para", present: "Presentar en la puerta", copy: "Copiar credencial", copied: "Copiada", used: "Usado" },
  },
} as const;

/** The board simulator's offline verify mode: a separate process, the published keys on disk, no console address. */
function boardVerify(jwksFile: string, at: number, token: string, ...extra: string[]): { allowed: boolean; reason: string } {
  const out = execFileSync(
    process.execPath,
    ["gateway/sim/board.js", "verify", "--jwks", jwksFile, "--door", String(DOOR), "--at", new Date(at).toISOString(), "--credential", token, ...extra],
    { encoding: "utf8", cwd: fileURLToPath(new URL("../..", import.meta.url)) },
  );
  return JSON.parse(out.trim());
}

/** Today in ACME's zone (tomorrow in the day's last minutes, so the visit has not ended when it is sent). */
function visitDay(): string {
  const local = core.formatLocal(runNow() + 15 * 60_000, ZONE);
  return local.slice(0, 10);
}

for (const lang of ["en", "es"] as const) {
  test(`a host invites a guest, who opens the pass on their phone; an offline door admits them inside the visit only, one entry is spent, the host is mailed (${lang})`, async ({
    browser,
    loginAs,
    page,
  }) => {
    test.setTimeout(120_000);
    const x = TEXT[lang];
    const admin = await adminApi(page.request);
    const day = visitDay();
    const guest = `Ana ${unique()}`;
    const email = `ana.${unique()}@guest.example`;
    const invite = (over: Record<string, unknown>) =>
      admin.call<{ payload: { id: number; link: string } }>("POST", "/visitorPasses/addPass", {
        guestName: guest,
        guestEmail: email,
        deviceIds: [DOOR],
        startDate: day,
        endDate: day,
        startTime: "00:00",
        endTime: "23:59",
        language: lang,
        ...over,
      });
    // The host invites through the console's form, in their language: the door, today, the whole day.
    const { payload: devices } = await admin.call<{ payload: { rows: { id: number; full_name: string }[] } }>("GET", "/device/getDevices?pageSize=100");
    const doorName = devices.rows.find((d) => d.id === DOOR)!.full_name;
    await loginAs("acme", lang);
    await page.goto("/addVisitorPass");
    await page.getByRole("textbox", { name: x.name, exact: true }).fill(guest);
    await page.getByRole("textbox", { name: x.email, exact: true }).fill(email);
    const picker = page.getByRole("combobox", { name: x.doors });
    await picker.fill(doorName);
    await page.getByRole("option", { name: doorName, exact: true }).click();
    await page.getByRole("textbox", { name: x.startDate, exact: true }).fill(day);
    await page.getByRole("textbox", { name: x.endDate, exact: true }).fill(day);
    await page.locator("#pass-startTime").fill("00:00");
    await page.locator("#pass-endTime").fill("23:59");
    await page.getByRole("button", { name: x.send }).click();
    await expect(page).toHaveURL(/\/visitorPasses$/);
    const { payload: listed } = await admin.call<{ payload: { rows: { id: number; guestName: string }[] } }>("GET", "/visitorPasses/getPasses?pageSize=100");
    const visit = listed.rows.find((r) => r.guestName === guest)!;

    // The guest's mail, at the run's SMTP server, carries the link.
    await expect.poll(async () => (await mailbox()).find((m) => m.to.includes(email))?.text ?? "", { timeout: 30_000 }).toContain("#pass=");
    const mail = (await mailbox()).find((m) => m.to.includes(email))!;
    const link = /https?:\/\/\S+#pass=[0-9]+\.[A-Za-z0-9_-]+/.exec(mail.text)![0];
    expect(link).toContain(`#pass=${visit.id}.`);

    const jwks = await (await page.request.get("/.well-known/keyless-credential-keys.json", RESET_SAFE_GET)).json();
    const dir = mkdtempSync(join(tmpdir(), "guest-pass-"));
    const jwksFile = join(dir, "keys.json");
    writeFileSync(jwksFile, JSON.stringify(jwks));
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: lang === "es" ? "es-ES" : "en-US",
      permissions: ["clipboard-read", "clipboard-write"],
    });
    // The phone stores the host's language as it opens the link; here that store is cut off (as when the
    // phone goes offline at once), and the next link it opens must store it again.
    await phone.route("**/resources/language", (r) => r.abort(), { times: 1 });
    try {
      const guestPage = await phone.newPage();
      await guestPage.goto(new URL(link).pathname + new URL(link).hash);
      // In the language the host invited in, whatever the phone's.
      const pass = guestPage.getByTestId("guest-pass");
      await expect(pass.getByRole("heading", { name: new RegExp(x.title) })).toBeVisible();
      await expect(pass).toContainText(guest);
      // The secret leaves the address bar once read.
      expect(new URL(guestPage.url()).hash).toBe("");

      // Presented offline: the credential is all the door needs.
      await phone.setOffline(true);
      await pass.getByRole("button", { name: x.present }).click();
      const dialog = guestPage.getByRole("dialog");
      await dialog.getByRole("button", { name: x.copy }).click();
      await expect(dialog.getByTestId("copy-status")).toHaveText(x.copied);
      const token = await guestPage.evaluate(() => navigator.clipboard.readText());
      const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
      expect(claims.key).toEqual({ id: `v${visit.id}`, kind: "pass" });

      const inside = Math.max(runNow(), claims.iat * 1000);
      expect(core.isOpen(claims.win, inside)).toBe(true);
      expect(boardVerify(jwksFile, inside, token)).toEqual({ allowed: true, reason: "ok" });
      // Just after the visit (within the credential's clock allowance): refused by the window itself.
      const after = boardVerify(jwksFile, claims.exp * 1000 + 60_000, token);
      expect(after.allowed).toBe(false);
      expect(["outside_schedule", "expired"]).toContain(after.reason);
      await phone.setOffline(false);
      await guestPage.keyboard.press("Escape");
      await expect(dialog).toBeHidden();

      // A second phone opening the same link is refused.
      const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const otherPage = await other.newPage();
      await otherPage.goto(new URL(link).pathname + new URL(link).hash);
      await expect(otherPage.getByTestId("guest-pass-refused")).toContainText(/already open on another phone/);
      await other.close();

      // One entry: the board admits it once, then refuses it as spent; the door's report reaches the console.
      const { payload: once } = await invite({ oneEntry: true });
      await guestPage.goto(new URL(once.link).pathname + new URL(once.link).hash);
      const heldPass = () => guestPage.evaluate(() => JSON.parse(localStorage.getItem("phone.guestPass") ?? "null")?.pass);
      await expect.poll(async () => (await heldPass())?.id).toBe(`v${once.id}`);
      const onceToken: string = (await heldPass()).credential.token;
      const onceClaims = JSON.parse(Buffer.from(onceToken.split(".")[1], "base64url").toString("utf8"));
      // The board's memory of what it spent (its non-volatile storage): the first use is written to it.
      const spent = join(dir, "spent.txt");
      expect(boardVerify(jwksFile, inside, onceToken, "--spent", spent)).toEqual({ allowed: true, reason: "ok" });
      expect(boardVerify(jwksFile, inside + 60_000, onceToken, "--spent", spent)).toEqual({ allowed: false, reason: "key_used" });
      const report = await page.request.post("/api/gateway/events", {
        headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` },
        data: {
          v: 1,
          events: [
            {
              id: `${DOOR}/gw/pass.e2e-${unique()}`,
              deviceId: String(DOOR),
              type: "access.granted",
              at: inside,
              data: { credential: { type: "signed", id: onceClaims.jti }, userId: `v${once.id}`, keyId: `v${once.id}`, keyKind: "pass", reason: "Visitor pass" },
            },
          ],
        },
      });
      expect(report.status()).toBe(200);
      await expect.poll(async () => (await mailbox()).some((m) => m.to.includes(HOST) && m.text.includes(guest)), { timeout: 30_000 }).toBe(true);
      // Refreshed online, the phone shows the pass spent and presents it no more.
      await guestPage.reload();
      await expect(pass.getByTestId("open-now")).toHaveText(x.used);
      await expect(pass.getByRole("button", { name: x.present })).toBeDisabled();
    } finally {
      await phone.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
