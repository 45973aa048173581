import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_TILE_ORIGIN } from "../../playwright.config";
import { adminApi, expect, signIn, test, unique, RESET_SAFE_GET } from "./fixtures";
import { axeFindings } from "./axe";

/** Opens a ticket the way the phone app does: the user's session token and POST /api/user/support/createTicket. */
async function phoneTicket(
  request: APIRequestContext,
  latitude: number | null,
  longitude: number | null,
  over: Record<string, unknown> = {},
): Promise<{ id: number; number: string }> {
  const { token } = await adminApi(request, "acme");
  const res = await request.post("/api/user/support/createTicket", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      brand: "Motorola",
      phoneModel: `Edge ${unique()}`,
      softwareVersion: "Android 15",
      appVersion: "4.3.1",
      ticketMode: 1,
      bluetoothStatus: "On",
      bluetoothPermission: 1,
      locationPermission: 1,
      latitude,
      longitude,
      sentinelDateTime: Date.UTC(2026, 10, 23, 16, 0, 0),
      reportingDateTime: Date.UTC(2026, 10, 23, 16, 0, 42),
      devices: [
        { deviceId: 1, kind: "device", visible: true },
        { deviceId: 2, kind: "ekey", sentinel: true },
      ],
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { payload: { id: number; ticket_number: string } };
  return { id: body.payload.id, number: body.payload.ticket_number };
}

/** Every tile image of the map came from the local tile server and loaded. */
async function expectLocalTiles(page: Page, map: ReturnType<Page["getByTestId"]>) {
  const tiles = map.locator("img.leaflet-tile");
  await expect(tiles.first()).toBeVisible();
  await expect.poll(() => tiles.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length)).toBeGreaterThan(0);
  const sources = await tiles.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  for (const src of sources) expect(src.startsWith(`${E2E_TILE_ORIGIN}/`), src).toBe(true);
  const hits = (await (await page.request.get(`${E2E_TILE_ORIGIN}/hits`, RESET_SAFE_GET)).json()) as string[];
  expect(hits.some((h) => h.startsWith("/15/"))).toBe(true);
}

const TEXT = {
  en: {
    add: "Add",
    note: "Add a note",
    added: "Note added successfully",
    required: "Note is required",
    online: "Online",
    back: "Back",
    invalid: "Invalid latitude or longitude",
    ekey: "E-key",
    yes: "Yes",
    seconds: "42 seconds",
    unconfigured: "unconfigured",
    noDevices: "The phone reported no devices or e-keys",
    sentinelTime: "11/23/2026 17:00:00 CET",
    reportingTime: "11/23/2026 17:00:42 CET",
    // "November 28, 2026, 02:41:10 CET"
    created: "^(January|February|March|April|May|June|July|August|September|October|November|December) \\d{2}, \\d{4}, \\d{2}:\\d{2}:\\d{2} (CET|CEST)$",
  },
  es: {
    add: "Añadir",
    note: "Añadir una nota",
    added: "Nota añadida correctamente",
    required: "La nota es obligatoria",
    online: "En línea",
    back: "Volver",
    invalid: "Latitud o longitud no válida",
    ekey: "Llave electrónica",
    yes: "Sí",
    seconds: "42 segundos",
    unconfigured: "sin configurar",
    noDevices: "El teléfono no informó de dispositivos ni llaves electrónicas",
    sentinelTime: "23/11/2026 17:00:00 CET",
    reportingTime: "23/11/2026 17:00:42 CET",
    // "28 de noviembre de 2026, 02:41:10 CET", as Spanish readers write dates
    created: "^\\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \\d{4}, \\d{2}:\\d{2}:\\d{2} (CET|CEST)$",
  },
} as const;

for (const lang of ["en", "es"] as const) {
  const tx = TEXT[lang];

  test(`a ticket from the phone: details, a note and its map (${lang})`, async ({ page, loginAs }) => {
    const ticket = await phoneTicket(page.request, 40.4168, -3.7038);
    const outside: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.hostname !== "127.0.0.1") outside.push(r.url());
    });
    await loginAs("acme", lang);
    await page.goto("/");
    await page.getByTestId("tile-support").click();
    await expect(page).toHaveURL(/\/support$/);
    await page.locator("tbody tr", { hasText: ticket.number }).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/supportTicketDetails\\?id=${ticket.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(ticket.number);
    await expect(page.getByTestId("detail-brand")).toContainText("Motorola");
    await expect(page.getByTestId("detail-mode")).toContainText(tx.online);
    for (const key of ["bluetooth", "bluetoothPermission", "locationPermission"]) await expect(page.getByTestId(`detail-${key}`)).toContainText(tx.yes);
    await expect(page.getByTestId("detail-software")).toContainText("Android 15");
    await expect(page.getByTestId("detail-app")).toContainText("4.3.1");
    // MMMM DD, YYYY, HH:mm:ss with the month in the page's language, labelled with the company's zone (Madrid).
    await expect(page.getByTestId("detail-created").locator("dd")).toHaveText(new RegExp(tx.created));
    // The sentinel's clock beside the app's (16:00:00 and 16:00:42 UTC, shown in Madrid).
    await expect(page.getByTestId("detail-sentinelTime").locator("dd")).toHaveText(tx.sentinelTime);
    await expect(page.getByTestId("detail-reportingTime").locator("dd")).toHaveText(tx.reportingTime);
    await expect(page.getByTestId("detail-timeGap")).toContainText(tx.seconds);
    await expect(page.getByTestId("ticket-devices")).toContainText("Main Entrance");
    await expect(page.getByTestId("ticket-devices")).toContainText(tx.ekey);

    // The small map, with its marker, on local tiles.
    const small = page.getByTestId("small-map");
    await expect(small.locator(".leaflet-marker-icon")).toBeVisible();
    await expectLocalTiles(page, small);

    // Notes: an empty one is refused, a real one is listed.
    await page.getByRole("button", { name: tx.add, exact: true }).click();
    await expect(page.getByText(tx.required)).toBeVisible();
    const text = `Checked the phone ${unique()}`;
    await page.getByRole("textbox", { name: tx.note }).fill(text);
    await page.getByRole("button", { name: tx.add, exact: true }).click();
    await expect(page.getByText(tx.added, { exact: true })).toBeVisible();
    await expect(page.getByTestId("ticket-notes")).toContainText(text);
    await expect(page.getByTestId("ticket-notes")).toContainText("Admin, Alice");
    await expect(page.getByTestId("ticket-notes").locator("li").first().locator("time")).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);

    // The full map: marker at zoom 15, local tiles, Back.
    await page.getByTestId("gps-link").click();
    await expect(page).toHaveURL(new RegExp(`/supportTicketGPSDetails\\?id=${ticket.id}$`));
    const full = page.getByTestId("full-map");
    await expect(full).toHaveAttribute("data-zoom", "15");
    await expect(full.locator(".leaflet-marker-icon")).toBeVisible();
    await expectLocalTiles(page, full);
    await page.getByRole("link", { name: tx.back, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/supportTicketDetails\\?id=${ticket.id}$`));
    expect(outside).toEqual([]);
  });

  test(`invalid coordinates show the message and no map (${lang})`, async ({ page, loginAs }) => {
    // Seed ticket T-100002 was reported at latitude 200.
    await loginAs("acme", lang);
    await page.goto("/supportTicketDetails?id=2");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("T-100002");
    await expect(page.getByTestId("small-map")).toHaveCount(0);
    await page.getByTestId("gps-link").click();
    await expect(page.getByRole("alert").filter({ hasText: tx.invalid })).toBeVisible();
    await expect(page).toHaveURL(/\/supportTicketDetails\?id=2$/);
    await page.goto("/supportTicketGPSDetails?id=2");
    await expect(page).toHaveURL(/\/supportTicketDetails\?id=2$/);
    // Its second device has no name in the console yet.
    await expect(page.getByTestId("ticket-devices")).toContainText(tx.unconfigured);

    // A phone without a position fix and without devices: no map, the message, the empty devices text.
    const bare = await phoneTicket(page.request, null, null, { devices: [] });
    await page.goto(`/supportTicketDetails?id=${bare.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(bare.number);
    await expect(page.getByTestId("no-devices")).toHaveText(tx.noDevices);
    await expect(page.getByTestId("small-map")).toHaveCount(0);
    await page.getByTestId("gps-link").click();
    await expect(page.getByRole("alert").filter({ hasText: tx.invalid })).toBeVisible();
  });
}

test("root edits an FAQ and a company user reads it in Spanish", async ({ page, loginAs, browser, baseURL }) => {
  const answer = `Abra Usuarios y pulse Añadir usuario (${unique()}).`;
  await loginAs("root", "es");
  await page.goto("/");
  await page.getByTestId("tile-adminSupport").click();
  await expect(page).toHaveURL(/\/adminSupport$/);
  await page.getByRole("tab", { name: "Preguntas frecuentes" }).click();
  await page.getByRole("navigation", { name: "Idioma" }).getByRole("link", { name: "Español" }).click();
  await page.getByRole("link", { name: "Editar: ¿Cómo añado un usuario?" }).click();
  await expect(page.getByRole("heading", { name: "Modificar pregunta" })).toBeVisible();
  await page.getByRole("textbox", { name: "Respuesta" }).fill("");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("La respuesta es obligatoria")).toBeVisible();
  await page.getByRole("textbox", { name: "Respuesta" }).fill(answer);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Pregunta modificada correctamente", { exact: true })).toBeVisible();
  await expect(page.getByTestId("faq-editor")).toContainText(answer);

  const context = await browser.newContext({ baseURL });
  const reader = await context.newPage();
  await signIn(reader, "beta", "es");
  await reader.goto("/support?tab=faqs");
  await expect(reader.getByRole("tab", { name: "Preguntas frecuentes" })).toHaveAttribute("aria-selected", "true");
  await reader.getByText("¿Cómo añado un usuario?").click();
  await expect(reader.getByText(answer)).toBeVisible();
  await context.close();
});

test("the flagged-account banner opens the user's ticket; the privileges link opens the FAQs", async ({ page, loginAs }) => {
  const admin = await adminApi(page.request, "acme");
  const user = await admin.createUser("Flo", `Flagged${unique()}`);
  await admin.call("POST", "/user/flaggedUser", { userId: user.id, is_flagged: "1", support_ticket_id: 1 });
  await loginAs("acme");
  await page.goto(`/modifyUser?id=${user.id}`);
  await page.getByRole("link", { name: "Open ticket" }).click();
  await expect(page).toHaveURL(/\/supportTicketDetails\?id=1$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("T-100001");
  await page.goBack();
  // The link opens the FAQs in a new tab.
  const [faqs] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: "Learn more" }).first().click()]);
  await expect(faqs).toHaveURL(/\/support\?tab=faqs$/);
  await expect(faqs.getByRole("tab", { name: "FAQs" })).toHaveAttribute("aria-selected", "true");
  await expect(faqs.getByText("How do I add a user?")).toBeVisible();
});

test("root adds an FAQ, moves it up and deletes it after confirming", async ({ page, loginAs }) => {
  const question = `Can I open doors offline ${unique()}?`;
  await loginAs("root");
  await page.goto("/adminSupport?tab=faqs");
  await page.getByRole("link", { name: "Add FAQ" }).click();
  await expect(page).toHaveURL(/\/addFaq\?language=en$/);
  await page.getByRole("textbox", { name: "Question" }).fill(question);
  await page.getByRole("textbox", { name: "Answer" }).fill("Yes: the gateway decides at the door.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("FAQ created successfully", { exact: true })).toBeVisible();
  const items = page.getByTestId("faq-editor").locator("li");
  await expect(items.last()).toContainText(question);
  const count = await items.count();
  await page.getByRole("button", { name: `Move up: ${question}` }).click();
  await expect(page.getByText("FAQ order saved", { exact: true })).toBeVisible();
  await expect(items.nth(count - 2)).toContainText(question);

  await page.getByRole("button", { name: `Delete: ${question}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(question);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("FAQ deleted successfully", { exact: true })).toBeVisible();
  await expect(page.getByTestId("faq-editor")).not.toContainText(question);
});

test("the support screens have no accessibility violations", async ({ page, loginAs }) => {
  await loginAs("acme");
  for (const url of ["/support", "/support?tab=faqs", "/supportTicketDetails?id=1", "/supportTicketGPSDetails?id=1"]) {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect((await axeFindings(page, { allImpacts: true })).map((finding) => `${url}: ${finding}`)).toEqual([]);
  }
});

test("the support tabs, tickets and FAQs work from the keyboard", async ({ page, loginAs }) => {
  await loginAs("acme");
  await page.goto("/support");
  await page.getByRole("tab", { name: "Support tickets" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "FAQs" })).toHaveAttribute("aria-selected", "true");
  const question = page.getByText("How do I add a user?");
  await question.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Open Users, choose Add User, fill in the form and save.")).toBeVisible();

  await page.getByRole("tab", { name: "FAQs" }).focus();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Support tickets" })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("link", { name: "Open ticket T-100001" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/supportTicketDetails\?id=1$/);
  // The submitter links to their user page and their address opens a mail.
  await expect(page.getByTestId("detail-user").getByRole("link")).toHaveAttribute("href", "/modifyUser?id=12");
  await expect(page.getByTestId("detail-email").getByRole("link")).toHaveAttribute("href", /^mailto:/);
  await page.getByRole("textbox", { name: "Add a note" }).focus();
  await page.keyboard.type(`Typed from the keyboard ${unique()}`);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Add", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Note added successfully", { exact: true })).toBeVisible();
});
