import type { Page } from "@playwright/test";
import { expect, keepScreenshot, test, unique } from "./fixtures";
import { runNode, startGateway, type RunningGateway } from "./gateway-fixture";

/**
 * Lockdown (issue 31, decision 0083) through the real gateway: BETA's admin adds a plan locking one door
 * with themself exempt, starts it with the two-step confirmation, sees the banner on every page, a
 * simulated board at that door refuses another BETA user (`lockdown`) and admits the admin; then the
 * admin ends it and the banner goes. BETA's seeded boards have the demo board password (db/seed/gateway.ts).
 */
const BOARD_PASSWORD = "Board#Demo2026";
const ADMIN = "4"; // admin@beta.example (db/seed/demo.ts)
const TEXT = {
  en: {
    add: "Add plan",
    name: "Name",
    scope: "Doors",
    exempt: "Admin, Bob",
    exemptUsers: "Exempt users",
    save: "Add plan",
    created: "Plan created",
    start: (n: string) => `Start ${n}`,
    continue: "Continue",
    confirm: (n: string) => `Type ${n} to confirm`,
    startNow: "Start now",
    started: "Lockdown started",
    banner: (n: string) => `Lockdown in force: ${n}`,
    end: "End",
    ended: "Lockdown ended",
  },
  es: {
    add: "Añadir plan",
    name: "Nombre",
    scope: "Puertas",
    exempt: "Admin, Bob",
    exemptUsers: "Usuarios exentos",
    save: "Añadir plan",
    created: "Plan creado",
    start: (n: string) => `Iniciar ${n}`,
    continue: "Continuar",
    confirm: (n: string) => `Escriba ${n} para confirmar`,
    startNow: "Iniciar ahora",
    started: "Confinamiento iniciado",
    banner: (n: string) => `Confinamiento en curso: ${n}`,
    end: "Terminar",
    ended: "Confinamiento terminado",
  },
} as const;

const CASES = [
  { lang: "en", width: 1440, height: 900, door: "Storage" },
  { lang: "es", width: 390, height: 844, door: "Back Door" },
] as const;

let gateway: RunningGateway | null = null;
test.beforeAll(async () => {
  gateway = await startGateway("lockdown-gw-");
});
test.afterAll(async () => {
  await gateway?.stop();
});

/** The id of a BETA device by its name, and of a BETA user other than the admin, from their lists. */
async function ids(page: Page, door: string) {
  await page.goto("/devices");
  const href = await page
    .getByRole("main")
    .getByRole("link", { name: new RegExp(door) })
    .first()
    .getAttribute("href");
  const doorId = new URL(href!, "http://x").searchParams.get("id")!;
  await page.goto("/users");
  const hrefs = await page
    .getByRole("main")
    .locator('a[href^="/modifyUser?id="]')
    .evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
  const other = hrefs.map((h) => new URL(h, "http://x").searchParams.get("id")!).find((id) => id !== ADMIN)!;
  return { doorId, other };
}

/** Asks the gateway through a simulated board until `done` holds for its answers (the gateway syncs every 500 ms). */
async function askBoard(doorId: string, users: string[], done: (lines: Record<string, unknown>[]) => boolean) {
  let lines: Record<string, unknown>[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await runNode(["gateway/sim/board.js", "--id", doorId, `--password=${BOARD_PASSWORD}`, "--url", gateway!.url, ...users.flatMap((u) => ["--access", `user:${u}`])]);
    lines = r.lines.filter((l) => "access" in l);
    if (done(lines)) return lines;
  }
  throw new Error(`board answers never matched: ${JSON.stringify(lines)}`);
}

for (const c of CASES) {
  test(`an admin starts a lockdown, a board refuses a non-exempt user and admits the exempt one, then it ends (${c.lang}, ${c.width} px)`, async ({ page, loginAs }) => {
    const tx = TEXT[c.lang];
    await page.setViewportSize({ width: c.width, height: c.height });
    await loginAs("beta", c.lang);
    const { doorId, other } = await ids(page, c.door);
    const name = `Drill ${unique()}`;

    await page.goto("/lockdown");
    await page.getByRole("link", { name: tx.add }).click();
    await page.waitForURL(/addLockdownPlan/);
    await page.getByRole("textbox", { name: tx.name }).fill(name);
    await page.getByRole("combobox", { name: tx.scope, exact: true }).selectOption("doors");
    await page.getByRole("group", { name: tx.scope }).getByLabel(c.door, { exact: true }).check();
    // The users' list is also the phone triggers': the exempt one is ticked in its own list.
    await page.getByRole("group", { name: tx.exemptUsers }).getByLabel(tx.exempt, { exact: true }).check();
    await page.getByRole("button", { name: tx.save }).click();
    await expect(page.getByText(tx.created).first()).toBeVisible();

    // Two steps: what it does, then the plan's name typed again.
    await page.getByRole("button", { name: tx.start(name) }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: tx.continue }).click();
    await dialog.getByLabel(tx.confirm(name)).fill(name);
    await dialog.getByRole("button", { name: tx.startNow }).click();
    await expect(page.getByText(tx.started).first()).toBeVisible();

    const banner = page.getByTestId("lockdown-banner");
    await expect(banner).toContainText(tx.banner(name));
    await page.goto("/devices");
    await expect(banner).toContainText(tx.banner(name));
    // The home dashboard counts the doors it holds (one, the plan's door) and opens the lockdown page.
    await page.goto("/");
    await expect(page.getByTestId("stat-lockdownDoors-value")).toHaveText("1");
    await keepScreenshot(page, `lockdown-home-${c.lang}-${c.width}`, { fullPage: true });

    const answers = await askBoard(doorId, [other, ADMIN], (l) => l[0]?.code === "lockdown");
    expect(answers[0]).toMatchObject({ allowed: false, code: "lockdown" });
    expect(answers[1]).toMatchObject({ allowed: true });

    await page.goto("/lockdown");
    await page.getByRole("button", { name: tx.end, exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: tx.end, exact: true }).click();
    await expect(page.getByText(tx.ended).first()).toBeVisible();
    await expect(banner).toHaveCount(0);
    const after = await askBoard(doorId, [other], (l) => l[0]?.code !== "lockdown");
    expect(after[0].code).not.toBe("lockdown");
  });
}
