import type { Page } from "@playwright/test";
import { adminApi, DEMO, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, test, unique } from "./fixtures";
import { axeFindings } from "./axe";

/**
 * Lockdown from the phone app (issue 31, decision 0083): ACME's admin adds a plan whose phone triggers name
 * the auditor (by user in English, by the Auditor role in Spanish), a user without the console's lockdown
 * rights; the auditor, signed in on /m, starts it in two steps (its button, then a dialog naming the plan and
 * what it does), sees who started it and when, the phone's signed lockdown state moves to the newer epoch, and
 * the auditor ends it (confirmed too). The auditor is user 5 (db/seed/demo.ts).
 */
const AUDITOR = { id: 5, name: "Auditor, Aldo" };
const TEXT = {
  en: {
    name: "Name",
    save: "Add plan",
    created: "Plan created",
    phoneUsers: "Users who may start it from the phone app",
    phoneRoles: "Roles whose users may start it from the phone app",
    company: "Company ID",
    user: "Email or phone number",
    password: "Password",
    signIn: "Sign in",
    title: "Lockdown and evacuation",
    start: (n: string) => `Start ${n}`,
    startTitle: (n: string) => `Start ${n}?`,
    startBody: (n: string) => `This starts the lockdown ${n}: every door in its scope refuses everyone but the exempt users and roles until it ends.`,
    startNow: "Start lockdown",
    started: "Lockdown started",
    inForce: (n: string) => `Lockdown in force: ${n}`,
    startedBy: (who: string) => `Started by ${who} on `,
    end: (n: string) => `End ${n}`,
    endTitle: (n: string) => `End ${n}?`,
    endNow: "End",
    ended: "Lockdown ended",
  },
  es: {
    name: "Nombre",
    save: "Añadir plan",
    created: "Plan creado",
    phoneUsers: "Usuarios que pueden iniciarlo desde la app del teléfono",
    phoneRoles: "Roles cuyos usuarios pueden iniciarlo desde la app del teléfono",
    company: "ID de empresa",
    user: "Correo o número de teléfono",
    password: "Contraseña",
    signIn: "Iniciar sesión",
    title: "Confinamiento y evacuación",
    start: (n: string) => `Iniciar ${n}`,
    startTitle: (n: string) => `¿Iniciar ${n}?`,
    startBody: (n: string) => `Se inicia el confinamiento ${n}: todas las puertas de su alcance rechazan a todos salvo a los usuarios y roles exentos hasta que termine.`,
    startNow: "Iniciar confinamiento",
    started: "Confinamiento iniciado",
    inForce: (n: string) => `Confinamiento en curso: ${n}`,
    startedBy: (who: string) => `Iniciado por ${who} el `,
    end: (n: string) => `Terminar ${n}`,
    endTitle: (n: string) => `¿Terminar ${n}?`,
    endNow: "Terminar",
    ended: "Confinamiento terminado",
  },
} as const;

/** The epoch and state of the signed lockdown state the phone holds (phone.keys' lockdownState), or epoch 0 without one. */
const heldLockdown = (page: Page) =>
  page.evaluate(() => {
    const jws = (JSON.parse(localStorage.getItem("phone.keys") ?? "{}") as { lockdownState?: string | null }).lockdownState;
    if (!jws) return { epoch: 0, active: false };
    const { epoch, active } = JSON.parse(atob(jws.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { epoch: number; active: boolean };
    return { epoch, active };
  });

for (const c of LANGUAGE_AND_WIDTH_RUNS) {
  test(`a user a plan allows starts it from /m in two steps, sees who started it, and ends it (${c.lang}, ${c.width} px)`, async ({ page, loginAs, request }) => {
    const tx = TEXT[c.lang];
    await page.setViewportSize({ width: c.width, height: c.height });
    const acme = await adminApi(request, "acme");
    await acme.call("DELETE", `/user/forgetDevice?id=${AUDITOR.id}`);
    const name = `Phone drill ${unique()}`;
    try {
      // The admin names who may start it from the phone: the auditor by name, or the auditor's role.
      await loginAs("acme", c.lang);
      await page.goto("/addLockdownPlan");
      await page.getByRole("textbox", { name: tx.name }).fill(name);
      if (c.lang === "en") await page.getByRole("group", { name: tx.phoneUsers }).getByLabel(AUDITOR.name, { exact: true }).check();
      else await page.getByRole("group", { name: tx.phoneRoles }).getByLabel("Auditor", { exact: true }).check();
      await page.getByRole("button", { name: tx.save }).click();
      await expect(page.getByText(tx.created).first()).toBeVisible();

      // The auditor's phone (the page keeps the console's language).
      await page.goto("/m");
      await expect(page.locator("html")).toHaveAttribute("lang", c.lang);
      await page.getByLabel(tx.company).fill(DEMO.auditor.companyId);
      await page.getByLabel(tx.user).fill(DEMO.auditor.userName);
      await page.getByRole("textbox", { name: tx.password }).fill(DEMO.auditor.password);
      await page.getByRole("button", { name: tx.signIn }).click();
      const section = page.getByRole("region", { name: tx.title });
      const start = section.getByRole("button", { name: tx.start(name) });
      await expect(start).toBeEnabled();
      await expect.poll(async () => (await page.evaluate(() => localStorage.getItem("phone.keys"))) !== null).toBe(true);
      const before = await heldLockdown(page);

      // Two steps: the plan's button, then the dialog naming the plan and what it does.
      await start.click();
      const dialog = page.getByRole("alertdialog");
      await expect(dialog.getByRole("heading", { name: tx.startTitle(name) })).toBeVisible();
      await expect(dialog).toContainText(tx.startBody(name));
      await keepScreenshot(page, `phone-lockdown-confirm-${c.lang}-${c.width}`);
      const found = (await axeFindings(page)).map((f) => `confirm ${f}`);
      await dialog.getByRole("button", { name: tx.startNow }).click();
      await expect(dialog).toHaveCount(0);
      await expect(section.getByRole("status")).toHaveText(tx.started);

      const inForce = section.getByTestId("lockdown-in-force");
      await expect(inForce).toContainText(tx.inForce(name));
      await expect(inForce).toContainText(tx.startedBy(AUDITOR.name));
      await expect(start).toBeDisabled();
      // The phone refetched its keys: it now carries the newer signed state to boards cut off from their gateway.
      await expect.poll(() => heldLockdown(page)).toEqual({ epoch: before.epoch + 1, active: true });
      await keepScreenshot(page, `phone-lockdown-in-force-${c.lang}-${c.width}`, { fullPage: true });
      found.push(...(await axeFindings(page)).map((f) => `in force ${f}`));
      expect(found).toEqual([]);
      expect((await acme.call("GET", "/lockdown/state")).payload).toMatchObject({ plan_name: name, started_by: AUDITOR.name });

      // Ended from the keyboard, confirmed too.
      await section.getByRole("button", { name: tx.end(name) }).focus();
      await page.keyboard.press("Enter");
      const endDialog = page.getByRole("alertdialog");
      await expect(endDialog.getByRole("heading", { name: tx.endTitle(name) })).toBeVisible();
      await endDialog.getByRole("button", { name: tx.endNow, exact: true }).click();
      await expect(section.getByRole("status")).toHaveText(tx.ended);
      await expect(inForce).toHaveCount(0);
      await expect(start).toBeEnabled();
      await expect.poll(() => heldLockdown(page)).toEqual({ epoch: before.epoch + 2, active: false });
      expect((await acme.call("GET", "/lockdown/state")).payload).toBeNull();
    } finally {
      // Never leave ACME in lockdown for the worker's next tests.
      await request.post("/api/admin/lockdown/end", { headers: { Authorization: acme.token } });
      const plans = await acme.call<{ payload: { rows: { id: number; name: string }[] } }>("GET", "/lockdown/plans?limit=500");
      for (const p of plans.payload.rows.filter((r) => r.name === name)) await acme.call("DELETE", `/lockdown/plans/${p.id}`);
    }
  });
}
