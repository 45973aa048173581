import type { Browser, Locator, Page } from "@playwright/test";
import { axeFindings } from "./axe";
import { awaitHydration, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, mailbox, runNow, signIn, test, unique, useRunClock, workerConsole } from "./fixtures";
import { runNode, startGateway, type RunningGateway } from "./gateway-fixture";

/**
 * The first hour of a new customer (issue 26), walked as the customer walks it, in English at 1440 px
 * and Spanish at 390 px: root registers three boards into RSL1's stock and creates the company (zone,
 * country, language); RSL1 transfers two of them ("Transfer boards"); then the customer's side, counted
 * in CUSTOMER_STEPS: the new admin sets a password from the invite mail, lands on the first-run
 * checklist, configures a door, adds a person (invited by default) and gives them a key; the person sets
 * a password from their mail, lands on /m and presents the key to the door, a simulated board behind a
 * real gateway, which opens. Every page the walk visits is scanned by axe and must be in the run's language.
 *
 * It also holds what the board's lifecycle spec checked: a CSV file's registration, a future shipping
 * date's "will be activated on", the third board staying in stock, the secret shown once with its QR code
 * and download, and rotating the secret (the old one is refused, the new one opens).
 */

/**
 * The customer's side, from the admin's invite mail to the person's opened door. A step is one task on one
 * screen, as the customer walk of issue 26 counted them; its actions are every click, link followed and
 * form submitted that it takes (typing and choosing inside a form are part of its submit). Each action is
 * on the previous screen or a link in a mail: the walk never types an address (`guardAddresses`).
 */
const CUSTOMER_STEPS = [
  { step: "admin sets a password from the invite mail", actions: ["follow the mail's link", "submit the password"] },
  { step: "admin opens the door to configure from the checklist", actions: ["click 'Configure a door'", "click the board's row"] },
  { step: "admin configures the door (form prefilled)", actions: ["submit Configure"] },
  { step: "admin adds a person, invited by default", actions: ["click Home", "click 'Add people'", "submit Save"] },
  { step: "admin gives the person a key to the door", actions: ["submit Assign"] },
  { step: "person sets a password from the invite mail", actions: ["follow the mail's link", "submit the password"] },
  { step: "person presents the key and the door opens", actions: ["click 'Present to door'"] },
] as const;
const MAX_CUSTOMER_STEPS = 8;
/** Every action the steps list: a step that takes one more click fails the walk. */
const CUSTOMER_ACTIONS = CUSTOMER_STEPS.flatMap((s) => s.actions.map((a) => `${s.step}: ${a}`));

const TEXT = {
  en: {
    stockOf: "Stock of",
    csvFile: "CSV file",
    register: "Register",
    registered: "Registered",
    companyType: "Company Type",
    parent: "Parent Company",
    companyName: "Company Name",
    first: "First Name",
    last: "Last Name",
    email: "Email",
    telephone: "Telephone",
    country: null,
    zone: "Time zone",
    zoneValue: "America/New_York",
    defaultCountry: "Users' default country",
    defaultCountryValue: "United States (+1)",
    language: "Language",
    createCompany: "Create Company",
    companyCreated: "Company created successfully",
    transferBoards: "Transfer boards",
    customer: "Customer",
    next: "Next",
    select: (serial: string) => `Select ${serial}`,
    arrow: (name: string) => `Transfer 2 selected devices to ${name}`,
    shippingDate: "Shipping Date",
    term: "Subscription Term",
    transfer: "Transfer",
    transferred: "Stock transferred successfully",
    targetTable: (name: string) => `Devices of ${name}`,
    willActivate: (y: string, m: string, d: string) => `Device will be activated on ${m}/${d}/${y}`,
    adminSubject: (name: string) => `You are invited to the ${name} console`,
    personSubject: (name: string) => `Your key to ${name}'s doors`,
    newPassword: "New password",
    confirmPassword: "Confirm password",
    setPassword: "Set password and sign in",
    checklist: "Getting started",
    waiting: "2 waiting for their first connection: power them on",
    configureDoor: "Configure a door",
    addPeople: "Add people",
    home: "Keyless Access Console",
    fullName: "Full Name",
    displayName: "Display Name",
    lockType: "Lock Type",
    lockTypeValue: "Electric Strike",
    configure: "Configure",
    download: "Download secret",
    userFirst: "First name",
    userLast: "Last name",
    userEmail: "Email",
    cell: "Cell",
    sendInvite: "Send invite",
    save: "Save",
    created: "User Created; invite sent",
    ekeys: "E-keys",
    keyDevice: "Device",
    assign: "Assign",
    assigned: "E-key assigned successfully",
    myKeys: "My keys",
    present: "Present to door",
    rotate: "Rotate secret",
  },
  es: {
    stockOf: "Inventario de",
    csvFile: "Archivo CSV",
    register: "Registrar",
    registered: "Registrado",
    companyType: "Tipo de empresa",
    parent: "Empresa matriz",
    companyName: "Nombre de la empresa",
    first: "Nombre",
    last: "Apellido",
    email: "Correo",
    telephone: "Teléfono",
    country: "España",
    zone: "Zona horaria",
    zoneValue: "Europe/Madrid",
    defaultCountry: "País predeterminado de los usuarios",
    defaultCountryValue: "España (+34)",
    language: "Idioma",
    createCompany: "Crear empresa",
    companyCreated: "Empresa creada correctamente",
    transferBoards: "Transferir placas",
    customer: "Cliente",
    next: "Siguiente",
    select: (serial: string) => `Seleccionar ${serial}`,
    arrow: (name: string) => `Transferir 2 dispositivos seleccionados a ${name}`,
    shippingDate: "Fecha de envío",
    term: "Plazo de suscripción",
    transfer: "Transferir",
    transferred: "Inventario transferido correctamente",
    targetTable: (name: string) => `Dispositivos de ${name}`,
    willActivate: (y: string, m: string, d: string) => `El dispositivo se activará el ${d}/${m}/${y}`,
    adminSubject: (name: string) => `Invitación a la consola de ${name}`,
    personSubject: (name: string) => `Su llave para las puertas de ${name}`,
    newPassword: "Nueva contraseña",
    confirmPassword: "Confirmar contraseña",
    setPassword: "Guardar contraseña y entrar",
    checklist: "Primeros pasos",
    waiting: "2 esperando su primera conexión: enciéndalos",
    configureDoor: "Configurar una puerta",
    addPeople: "Añadir personas",
    home: "Consola de Acceso sin Llave",
    fullName: "Nombre completo",
    displayName: "Nombre para mostrar",
    lockType: "Tipo de cerradura",
    lockTypeValue: "Electric Strike",
    configure: "Configurar",
    download: "Descargar secreto",
    userFirst: "Nombre",
    userLast: "Apellido",
    userEmail: "Correo",
    cell: "Móvil",
    sendInvite: "Enviar invitación",
    save: "Guardar",
    created: "Usuario creado; invitación enviada",
    ekeys: "Llaves electrónicas",
    keyDevice: "Dispositivo",
    assign: "Asignar",
    assigned: "Llave electrónica asignada correctamente",
    myKeys: "Mis llaves",
    present: "Presentar en la puerta",
    rotate: "Rotar secreto",
  },
} as const;

const PASSWORD = "Walk#Door2026";

let gateway: RunningGateway | null = null;
test.beforeAll(async () => {
  gateway = await startGateway("onboarding-gw-");
});
test.afterAll(async () => {
  await gateway?.stop();
});

/** The customer's browser: a fresh one (nobody is signed in), at the run's width and clock. */
async function customerBrowser(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL: workerConsole().origin, viewport, reducedMotion: "reduce", timezoneId: "America/New_York" });
  await useRunClock(context);
  const page = await context.newPage();
  awaitHydration(page);
  return page;
}

/** The one address the customer is given, a link in a mail, polled from the run's SMTP sink. */
async function mailLink(to: string, subject: string): Promise<string> {
  const find = async () => (await mailbox()).find((m) => m.to.includes(to));
  await expect.poll(find, { timeout: 30_000 }).toBeTruthy();
  const mail = (await find())!;
  expect(mail.subject).toBe(subject);
  return mail.text.match(/https?:\/\/\S+\/resetPassword\/[A-Za-z0-9_-]+\S*/)![0];
}

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`a new customer goes from the company's creation to an opened door in at most ${MAX_CUSTOMER_STEPS} steps (${lang}, ${width} px)`, async ({ page, browser }) => {
    test.setTimeout(180_000);
    const tx = TEXT[lang];
    const viewport = { width, height };
    await page.setViewportSize(viewport);
    const tag = unique().toUpperCase();
    const serials = [1, 2, 3].map((n) => ({ front: `OW-${tag}-F${n}`, back: `OW-${tag}-B${n}` }));
    const companyName = lang === "es" ? `Clínica Dental ${tag}` : `Gamma Dental ${tag}`;
    const adminEmail = `grace.${tag.toLowerCase()}@gamma.example`;
    const personEmail = `dan.${tag.toLowerCase()}@gamma.example`;
    const shots: string[] = [];
    const findings: string[] = [];

    /** Every page of the walk: in the run's language, no serious or critical axe finding, a picture for review. */
    const visited = async (p: Page, name: string) => {
      await expect(p.locator("html")).toHaveAttribute("lang", lang);
      findings.push(...(await axeFindings(p)).map((f) => `${name}: ${f}`));
      const shot = `onboarding-${lang}-${String(shots.length + 1).padStart(2, "0")}-${name}`;
      shots.push(shot);
      // From the top: a full-page picture of a scrolled page draws the sticky header mid-page.
      if (process.env.E2E_SCREENSHOTS === "1") await p.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(p, shot, { fullPage: true });
    };

    // Root: three boards from a CSV file into RSL1's stock, then the company with its zone, country and language.
    await signIn(page, "root", lang);
    await page.goto("/registerDevices");
    const stockOf = page.getByLabel(tx.stockOf);
    await stockOf.selectOption((await stockOf.locator("option", { hasText: "(RSL1)" }).getAttribute("value"))!);
    const csv = ["serial_front,serial_back,device_type", ...serials.map((s) => `${s.front},${s.back},AB-100`)].join("\n");
    await page.getByLabel(tx.csvFile).setInputFiles({ name: "boards.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: tx.register, exact: true }).click();
    await expect(page.getByTestId("register-report").getByText(tx.registered, { exact: true })).toHaveCount(3);
    await visited(page, "root-registers-boards");

    await page.goto("/addCompany");
    await page.getByLabel(tx.companyType).selectOption("ec");
    await page.getByLabel(tx.parent).selectOption("RSL1");
    await page.getByLabel(tx.companyName).fill(companyName);
    await page.getByRole("textbox", { name: tx.first, exact: true }).fill("Grace");
    await page.getByLabel(tx.last).fill("Gamma");
    await page.getByLabel(tx.email).fill(adminEmail);
    if (tx.country) {
      await page.locator("#company-POCCountryCode").focus();
      await page.keyboard.type(tx.country);
      await page.keyboard.press("Enter");
    }
    await page.getByLabel(tx.telephone).fill(lang === "es" ? "612000111" : "5554443322");
    // The zone, the users' country and the language follow the contact's phone.
    await expect(page.getByLabel(tx.zone)).toHaveValue(tx.zoneValue);
    await expect(page.getByLabel(tx.defaultCountry)).toHaveValue(tx.defaultCountryValue);
    await expect(page.locator("#company-language")).toHaveValue(lang);
    const code = await page.locator("#company-companyId").inputValue();
    await visited(page, "root-creates-company");
    await page.getByRole("button", { name: tx.createCompany }).click();
    await expect(page.getByText(tx.companyCreated, { exact: true })).toBeVisible();

    // RSL1: "Transfer boards" on its stock, to the new customer; two boards with a shipping date two days ahead.
    await signIn(page, "var", lang);
    await page.goto("/viewDeviceStock");
    await page.getByRole("button", { name: tx.transferBoards, exact: true }).click();
    const choose = page.getByRole("dialog");
    await choose.getByLabel(tx.customer).selectOption({ label: `${companyName} (${code})` });
    await choose.getByRole("button", { name: tx.next }).click();
    for (const s of serials.slice(0, 2)) await page.getByRole("checkbox", { name: tx.select(s.front), exact: true }).click();
    await page.getByRole("button", { name: tx.arrow(companyName) }).click();
    const dialog = page.getByRole("dialog");
    const shipping = new Date(runNow() + 2 * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByLabel(tx.shippingDate).fill(shipping);
    await dialog.getByLabel(tx.term).selectOption("1");
    await visited(page, "reseller-transfers-boards");
    await dialog.getByRole("button", { name: tx.transfer, exact: true }).click();
    await expect(page.getByText(tx.transferred, { exact: true })).toBeVisible();
    const target = page.getByRole("table", { name: tx.targetTable(companyName) });
    await expect(target.getByRole("row", { name: new RegExp(serials[0].front) })).toContainText(tx.willActivate(...(shipping.split("-") as [string, string, string])));
    await expect(target.getByRole("row", { name: new RegExp(serials[1].front) })).toBeVisible();
    // The third board stays in RSL1's stock.
    await expect(page.getByRole("checkbox", { name: tx.select(serials[2].front), exact: true })).toBeVisible();

    // The customer's side: each action goes through `act`, which checks it against CUSTOMER_ACTIONS.
    const done: string[] = [];
    const act = async (action: string, run: () => Promise<unknown>) => {
      expect(CUSTOMER_ACTIONS[done.length], "the walk's next action is the one CUSTOMER_STEPS lists").toBe(action);
      done.push(action);
      await run();
    };
    const stepOf = (i: number) => CUSTOMER_STEPS[i].step;
    const follow = (p: Page, i: number, url: string) => act(`${stepOf(i)}: follow the mail's link`, () => p.goto(new URL(url).pathname + new URL(url).search));
    const click = (i: number, action: string, target: Locator) => act(`${stepOf(i)}: ${action}`, () => target.click());

    // 1. The admin's invite: a set-password link naming the account, landing signed in on the checklist.
    const admin = await customerBrowser(browser, viewport);
    const unguardAdmin = guardAddresses(admin);
    await follow(admin, 0, await mailLink(adminEmail, tx.adminSubject(companyName)));
    await expect(admin.getByTestId("link-account")).toContainText(adminEmail);
    await admin.getByLabel(tx.newPassword, { exact: true }).fill(PASSWORD);
    await admin.getByLabel(tx.confirmPassword, { exact: true }).fill(PASSWORD);
    await visited(admin, "admin-sets-password");
    await click(0, "submit the password", admin.getByRole("button", { name: tx.setPassword }));
    const checklist = admin.getByTestId("first-run-checklist");
    await expect(checklist.getByRole("heading", { name: tx.checklist })).toBeVisible();
    await expect(checklist.getByTestId("step-zone")).toHaveAttribute("data-done", "true");
    await expect(checklist.getByTestId("step-door")).toHaveAttribute("data-done", "false");
    // The two boards just transferred have never connected: new, not faulty, with what to do.
    await expect(admin.getByTestId("stat-neverSeen")).toHaveText(tx.waiting);
    await expect(admin.getByTestId("stat-offline-value")).toHaveText("0");
    await visited(admin, "admin-home-checklist");

    // 2. The checklist leads to the devices; the board's row opens its page with the configure form.
    await click(1, "click 'Configure a door'", checklist.getByRole("link", { name: tx.configureDoor }));
    await expect(admin.getByRole("link", { name: new RegExp(serials[0].front) })).toBeVisible();
    await visited(admin, "admin-devices");
    await click(1, "click the board's row", admin.getByRole("link", { name: new RegExp(serials[0].front) }));

    // 3. The form starts from the board's values; the admin names the door, chooses its lock type (a new
    // board has none, and the form asks for one) and configures it.
    await expect(admin.getByLabel(tx.lockType)).toHaveValue("");
    await admin.getByLabel(tx.lockType).selectOption(tx.lockTypeValue);
    const doorName = lang === "es" ? `Puerta principal ${tag}` : `Front Door ${tag}`;
    await admin.getByLabel(tx.fullName).fill(doorName);
    await admin.getByLabel(tx.displayName).fill(`FD${tag}`);
    await visited(admin, "admin-configures-door");
    await click(2, "submit Configure", admin.getByRole("button", { name: tx.configure, exact: true }));
    const card = admin.getByTestId("board-secret");
    await expect(card).toBeVisible();
    await expect(card.locator("[role=img] > svg")).toBeVisible();
    await expect(card.getByRole("link", { name: tx.download })).toHaveAttribute("download", /board-\d+-secret\.txt/);
    const boardId = (await admin.getByTestId("board-id").textContent())!.trim();
    const secret = (await admin.getByTestId("board-secret-value").textContent())!.trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await visited(admin, "admin-board-secret");
    const devicePage = admin.url();

    // 4. Back home, the checklist's next step: the add-user form, its invite ticked.
    await click(3, "click Home", admin.getByRole("banner").getByRole("link", { name: tx.home, exact: true }));
    await expect(checklist.getByTestId("step-door")).toHaveAttribute("data-done", "true");
    await click(3, "click 'Add people'", checklist.getByRole("link", { name: tx.addPeople }));
    await admin.getByRole("textbox", { name: tx.userFirst, exact: true }).fill("Dan");
    await admin.getByRole("textbox", { name: tx.userLast, exact: true }).fill(`Molina ${tag}`);
    await admin.getByRole("textbox", { name: tx.userEmail, exact: true }).fill(personEmail);
    await admin.getByRole("textbox", { name: tx.cell, exact: true }).fill(lang === "es" ? `6${String(Date.now()).slice(-8)}` : `555${String(Date.now()).slice(-7)}`);
    await expect(admin.getByRole("checkbox", { name: tx.sendInvite })).toBeChecked();
    await visited(admin, "admin-adds-person");
    await click(3, "submit Save", admin.getByRole("button", { name: tx.save, exact: true }));
    await expect(admin.getByText(tx.created, { exact: true }).first()).toBeVisible();

    // 5. On the person's page, a key to the new door (full access is the default).
    const panel = admin.getByRole("region", { name: tx.ekeys });
    await panel.getByRole("combobox", { name: tx.keyDevice, exact: true }).selectOption({ label: doorName });
    await visited(admin, "admin-gives-key");
    await click(4, "submit Assign", panel.getByRole("button", { name: tx.assign, exact: true }));
    await expect(admin.getByText(tx.assigned, { exact: true }).first()).toBeVisible();

    // 6. The person's invite points to the phone app; setting the password lands there, signed in, with the key.
    const phone = await customerBrowser(browser, viewport);
    guardAddresses(phone);
    await follow(phone, 5, await mailLink(personEmail, tx.personSubject(companyName)));
    await expect(phone.getByTestId("link-account")).toContainText(personEmail);
    await phone.getByLabel(tx.newPassword, { exact: true }).fill(PASSWORD);
    await phone.getByLabel(tx.confirmPassword, { exact: true }).fill(PASSWORD);
    await visited(phone, "person-sets-password");
    await click(5, "submit the password", phone.getByRole("button", { name: tx.setPassword }));
    await expect(phone).toHaveURL(/\/m$/);
    await expect(phone.getByRole("tab", { name: tx.myKeys })).toBeVisible();
    const keyCard = phone.locator("li[data-key-id]").filter({ hasText: `FD${tag}` });
    await expect(keyCard).toBeVisible();
    await visited(phone, "person-keys");

    // 7. Presenting the key: the board (the simulator, behind the real gateway, with the secret the
    // admin was shown) decides the phone's signed credential. Its first connection may come before the
    // gateway's sync has brought the board's secret: it waits for it.
    await click(6, "click 'Present to door'", keyCard.getByRole("button", { name: tx.present }));
    const presented = phone.getByRole("dialog");
    await expect(presented.getByRole("img")).toBeVisible();
    await visited(phone, "person-presents-key");
    const token = await phone.evaluate(() => JSON.parse(localStorage.getItem("phone.keys")!).keys[0].credential.token as string);
    const present = (password: string, wait: string) =>
      runNode(["gateway/sim/board.js", "--id", boardId, `--password=${password}`, "--url", gateway!.url, "--wait", wait, "--present", token]);
    let board = await present(secret, "30");
    const decision = () => board.lines.find((l) => "present" in l);
    expect(decision(), board.stderr + JSON.stringify(board.lines)).toMatchObject({ allowed: true });
    // The count: every action the steps list was taken, in order, and no more steps than the target.
    expect(done).toEqual(CUSTOMER_ACTIONS);
    expect(CUSTOMER_STEPS.length).toBeLessThanOrEqual(MAX_CUSTOMER_STEPS);
    expect(findings, findings.join("\n")).toEqual([]);

    // Rotating the secret (not a customer step): the old secret is refused once the gateway has synced, the new one opens.
    unguardAdmin();
    await admin.goto(devicePage);
    await admin.getByRole("button", { name: tx.rotate, exact: true }).click();
    await admin.getByRole("alertdialog").getByRole("button", { name: tx.rotate, exact: true }).click();
    await expect(admin.getByTestId("board-secret-value")).not.toHaveText(secret);
    const rotated = (await admin.getByTestId("board-secret-value").textContent())!.trim();
    await expect.poll(async () => (await present(secret, "1")).lines.some((l) => "connected" in l), { timeout: 20_000 }).toBe(false);
    board = await present(rotated, "30");
    expect(decision(), board.stderr + JSON.stringify(board.lines)).toMatchObject({ allowed: true });
    await admin.context().close();
    await phone.context().close();
  });
}

/**
 * The customer never types an address: on their pages `goto` takes only a mail's set-password link
 * (`act`'s `follow`) until the returned function lifts the guard.
 */
function guardAddresses(page: Page): () => void {
  const goto = page.goto.bind(page);
  let guarded = true;
  page.goto = ((url: string, options?: Parameters<Page["goto"]>[1]) => {
    if (guarded && !url.startsWith("/resetPassword/")) throw new Error(`the customer would have to type ${url}`);
    return goto(url, options);
  }) as Page["goto"];
  return () => {
    guarded = false;
  };
}
