import { DEMO, expect, runNow, signIn, test, unique } from "./fixtures";
import { runNode, startGateway, type RunningGateway } from "./gateway-fixture";

/**
 * A board from registration to an open door, with no seed board involved (decision 0022): root
 * registers three boards from a CSV into RSL1's stock; RSL1 transfers two to ACME as unconfigured
 * with a shipping date; ACME's admin configures one and gets its secret; the board simulator
 * connects to a real gateway (pointed at this run's Worker) with that secret, and a user's key opens it.
 *
 * It adds devices to ACME; devices.spec.ts checks the seed devices by name and order, so the two run in any order.
 */
const TEXT = {
  en: {
    register: "Register",
    csvFile: "CSV file",
    stockOf: "Stock of",
    registered: "Registered",
    transferred: "Stock transferred successfully",
    shippingDate: "Shipping Date",
    term: "Subscription Term",
    transfer: "Transfer",
    willActivate: "Device will be activated on",
    fullName: "Full Name",
    displayName: "Display Name",
    configure: "Configure",
    download: "Download secret",
    rotate: "Rotate secret",
  },
  es: {
    register: "Registrar",
    csvFile: "Archivo CSV",
    stockOf: "Inventario de",
    registered: "Registrado",
    transferred: "Inventario transferido correctamente",
    shippingDate: "Fecha de envío",
    term: "Plazo de suscripción",
    transfer: "Transferir",
    willActivate: "El dispositivo se activará el",
    fullName: "Nombre completo",
    displayName: "Nombre para mostrar",
    configure: "Configurar",
    download: "Descargar secreto",
    rotate: "Rotar secreto",
  },
} as const;

let gateway: RunningGateway | null = null;
let mqttPort = 0;

test.beforeAll(async () => {
  gateway = await startGateway("lifecycle-gw-");
  mqttPort = gateway.mqttPort;
});

test.afterAll(async () => {
  await gateway?.stop();
});

for (const lang of ["en", "es"] as const) {
  test(`a board goes from registration to an open door (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    const tx = TEXT[lang];
    const tag = unique().toUpperCase();
    const serials = [1, 2, 3].map((n) => ({ front: `E2E-${tag}-F${n}`, back: `E2E-${tag}-B${n}` }));

    // Root registers three boards from a CSV into RSL1's stock.
    await signIn(page, "root", lang);
    await page.goto("/registerDevices");
    const stockOf = page.getByLabel(tx.stockOf);
    await stockOf.selectOption((await stockOf.locator("option", { hasText: "(RSL1)" }).getAttribute("value"))!);
    const csv = ["serial_front,serial_back,device_type", ...serials.map((s) => `${s.front},${s.back},AB-100`)].join("\n");
    await page.getByLabel(tx.csvFile).setInputFiles({ name: "boards.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect(page.locator("textarea")).toHaveValue(/E2E-/);
    await page.getByRole("button", { name: tx.register, exact: true }).click();
    const report = page.getByTestId("register-report");
    await expect(report.locator("tbody tr")).toHaveCount(3);
    await expect(report.getByText(tx.registered, { exact: true })).toHaveCount(3);

    // RSL1 transfers two of them to ACME as unconfigured, with a shipping date two days ahead.
    await signIn(page, "var", lang);
    await page.goto("/varPanel");
    await page.getByRole("link", { name: /^(Transfer boards to|Transferir placas a) Acme/ }).click();
    await expect(page).toHaveURL(/\/deviceTransfer\?company_id=3/);
    for (const s of serials.slice(0, 2)) await page.getByRole("checkbox", { name: new RegExp(s.front) }).click();
    await page.getByRole("button", { name: /ACME|Acme/ }).click();
    const dialog = page.getByRole("dialog");
    const shipping = new Date(runNow() + 2 * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByLabel(tx.shippingDate).fill(shipping);
    await dialog.getByLabel(tx.term).selectOption("1");
    await dialog.getByRole("button", { name: tx.transfer, exact: true }).click();
    await expect(page.getByText(tx.transferred, { exact: true })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: new RegExp(serials[0].front) })).toHaveCount(0);
    const [y, m, d] = shipping.split("-");
    const target = page.getByRole("table", { name: /ACME|Acme/ });
    await expect(target.getByRole("row", { name: new RegExp(serials[0].front) })).toContainText(`${tx.willActivate} ${m}/${d}/${y}`);
    await expect(target.getByRole("row", { name: new RegExp(serials[1].front) })).toBeVisible();
    // The third board stays in RSL1's stock.
    await expect(page.getByRole("checkbox", { name: new RegExp(serials[2].front) })).toBeVisible();

    // ACME's admin configures one and gets its secret (shown once, with a QR code and a download).
    await signIn(page, "acme", lang);
    await page.goto("/devices?sort=fullName");
    await page.getByRole("link", { name: new RegExp(serials[0].front) }).click();
    const fullName = `Side Door ${tag}`;
    await page.getByLabel(tx.fullName).fill(fullName);
    await page.getByLabel(tx.displayName).fill(`SD${tag}`.slice(0, 20));
    await page.getByRole("button", { name: tx.configure, exact: true }).click();
    const card = page.getByTestId("board-secret");
    await expect(card).toBeVisible();
    await expect(card.locator("[role=img] > svg")).toBeVisible();
    await expect(card.getByRole("link", { name: tx.download })).toHaveAttribute("download", /board-\d+-secret\.txt/);
    const boardId = (await page.getByTestId("board-id").textContent())!.trim();
    const secret = (await page.getByTestId("board-secret-value").textContent())!.trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // A user's key on the new door (the API, as the console's key screen would).
    const login = await page.request.post("/api/admin/user/login", { data: DEMO.acme });
    const { token, payload } = (await login.json()) as { token: string; payload: { id: number } };
    const assign = await page.request.post("/api/admin/user/assignKeyToUser", {
      headers: { Authorization: token },
      data: { userId: payload.id, eKey: Number(boardId), type: "device", status: "1", FOBDeviceId: null, accessType: "full_access", isNeverEnd: "1", isAllDay: "1", entryId: null },
    });
    expect(assign.status(), await assign.text()).toBe(200);

    // The simulated board connects to the real gateway with that secret, and the key opens it. The board's
    // secret and the key reach the gateway at its syncs (every few seconds), possibly at two different
    // ones: ask again until the gateway has the key; a lasting disagreement still fails at the timeout.
    /** The simulated board on the real gateway with `password`, waiting up to `wait` seconds to connect. */
    const simBoard = (password: string, wait: string, ...more: string[]) =>
      runNode(["gateway/sim/board.js", "--id", boardId, `--password=${password}`, "--url", `mqtt://127.0.0.1:${mqttPort}`, "--wait", wait, ...more]);
    let board = { lines: [] as Record<string, unknown>[], stderr: "" };
    await expect
      .poll(
        async () => {
          board = await simBoard(secret, "40", "--access", `user:${payload.id}`);
          return board.lines.find((l) => "access" in l)?.allowed;
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBe(true);
    expect(
      board.lines.find((l) => "connected" in l),
      board.stderr + JSON.stringify(board.lines),
    ).toBeTruthy();
    expect(board.lines.find((l) => "access" in l)).toMatchObject({ access: `user:${payload.id}`, allowed: true });

    // Rotating the secret: the old one is refused once the gateway has synced, the new one opens.
    await page.getByRole("button", { name: tx.rotate, exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: tx.rotate, exact: true }).click();
    await expect(page.getByTestId("board-secret-value")).not.toHaveText(secret);
    const rotated = (await page.getByTestId("board-secret-value").textContent())!.trim();
    await expect
      .poll(async () => (await simBoard(secret, "1")).lines.some((l) => "connected" in l), {
        timeout: 20_000,
      })
      .toBe(false);
    const again = await simBoard(rotated, "40", "--access", `user:${payload.id}`);
    expect(
      again.lines.find((l) => "access" in l),
      again.stderr + JSON.stringify(again.lines),
    ).toMatchObject({ allowed: true });
  });
}
