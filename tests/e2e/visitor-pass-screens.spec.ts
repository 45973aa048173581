import { axeFindings } from "./axe";
import { adminApi, clockOffsetMs, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, mailbox, test, textMessages, unique } from "./fixtures";
import { sidewaysScroll } from "./sideways-scroll";

const TEXT = {
  en: {
    title: "Visitor passes",
    rules: "Visitor rules",
    maxDays: "Longest visit (days)",
    save: "Save",
    rulesSaved: "Visitor rules saved",
    invite: "Invite a guest",
    name: "Name",
    email: "E-mail",
    doors: "Doors the guest may open",
    startDate: "First day",
    endDate: "Last day",
    send: "Send the invitation",
    tooLong: "The visit is longer than the company allows",
    created: "Visitor pass created",
    live: /^(Active|Upcoming)$/,
    revokeLabel: (name: string) => `Revoke the pass of ${name}`,
    revoke: "Revoke",
    revoked: "Visitor pass revoked",
    revokedState: "Revoked",
    state: "State",
    mailSubject: "Your visitor pass for",
    phone: "Phone",
    hostText: "Also text the host when the guest first comes in",
    textSays: "invited you to",
  },
  es: {
    title: "Pases de visitante",
    rules: "Normas de visitantes",
    maxDays: "Visita más larga (días)",
    save: "Guardar",
    rulesSaved: "Normas de visitantes guardadas",
    invite: "Invitar a un visitante",
    name: "Nombre",
    email: "Correo electrónico",
    doors: "Puertas que puede abrir el invitado",
    startDate: "Primer día",
    endDate: "Último día",
    send: "Enviar la invitación",
    tooLong: "La visita es más larga de lo que permite la empresa",
    created: "Pase de visitante creado",
    live: /^(Vigente|Próximo)$/,
    revokeLabel: (name: string) => `Revocar el pase de ${name}`,
    revoke: "Revocar",
    revoked: "Pase de visitante revocado",
    revokedState: "Revocado",
    state: "Estado",
    mailSubject: "Su pase de visitante para",
    phone: "Teléfono",
    hostText: "Avisar también al anfitrión por SMS cuando el invitado entre por primera vez",
    textSays: "le ha invitado a",
  },
} as const;

/** The demo company's zone (db/seed/demo.ts): the visit's dates and hours are read there. */
const ZONE = "Europe/Madrid";

/** The day of the visit, YYYY-MM-DD in the company's zone: today, or tomorrow once today's 17:00 is close. */
function visitDay(): string {
  const now = Date.now() + clockOffsetMs();
  const local = (ms: number) => new Intl.DateTimeFormat("sv-SE", { timeZone: ZONE, dateStyle: "short", timeStyle: "short" }).format(ms);
  const [day, time] = local(now).split(" ");
  return time < "16:50" ? day : local(now + 86_400_000).split(" ")[0];
}

const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

// A step that cannot happen fails at once with its own line, leaving time for the clean-up below.
test.use({ actionTimeout: 15_000 });

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  test(`visitor passes: rules set, a guest invited to two doors, a too long visit refused, the pass revoked (${lang}, ${width} px)`, async ({ loginAs, page }) => {
    const T = TEXT[lang];
    const api = await adminApi(page.request);
    const guest = `Gina Guest ${unique()}`;
    const email = `gina.${unique()}@guests.example`;
    await loginAs("acme", lang);
    await page.setViewportSize({ width, height });
    try {
      // The rules: a visit of at most three days.
      await page.goto("/visitorPasses");
      await expect(page.getByRole("heading", { name: T.title, level: 1 })).toBeVisible();
      await page.getByRole("link", { name: T.rules }).click();
      await expect(page).toHaveURL(/\/visitorPassRules$/);
      await page.getByRole("spinbutton", { name: T.maxDays }).fill("3");
      await keepScreenshot(page, `visitor-rules-${lang}-${width}`, { fullPage: true });
      expect(await axeFindings(page)).toEqual([]);
      await page.getByRole("button", { name: T.save, exact: true }).click();
      await expect(page.getByText(T.rulesSaved, { exact: true })).toBeVisible();
      await expect(page.getByRole("spinbutton", { name: T.maxDays })).toHaveValue("3");

      // The invite: two doors picked with the keyboard, today (or tomorrow) 09:00-17:00 by default.
      await page.goto("/visitorPasses");
      await page.getByRole("link", { name: T.invite }).click();
      await expect(page).toHaveURL(/\/addVisitorPass$/);
      await page.getByRole("textbox", { name: T.name, exact: true }).fill(guest);
      await page.getByRole("textbox", { name: T.email, exact: true }).fill(email);
      // A number typed in the company's country (the demo's: the US mask); the link is texted to it too.
      const digits = String(Math.floor(Math.random() * 1e4)).padStart(4, "0");
      const phone = `+1202555${digits}`;
      await page.getByRole("textbox", { name: T.phone, exact: true }).fill(`202555${digits}`);
      await page.getByRole("checkbox", { name: T.hostText }).check();
      const picker = page.getByRole("combobox", { name: T.doors });
      await picker.focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      const chips = page.getByRole("list", { name: T.doors }).locator("li span.truncate");
      await expect(chips).toHaveCount(2);
      const doors = await chips.allTextContents();
      const day = visitDay();
      await page.getByRole("textbox", { name: T.startDate, exact: true }).fill(day);

      // Five days: refused by the rules, with the message on the last day's field, in the page's language.
      await page.getByRole("textbox", { name: T.endDate, exact: true }).fill(plusDays(day, 4));
      await page.getByRole("button", { name: T.send }).click();
      await expect(page.locator("#pass-endDate-error")).toHaveText(T.tooLong);
      await expect(page.getByRole("textbox", { name: T.endDate, exact: true })).toHaveAttribute("aria-invalid", "true");
      await keepScreenshot(page, `visitor-pass-form-${lang}-${width}`, { fullPage: true });
      expect(await axeFindings(page)).toEqual([]);
      expect(await sidewaysScroll(page, { tables: false })).toEqual([]);

      // One day: created, back on the list with the toast.
      await page.getByRole("textbox", { name: T.endDate, exact: true }).fill(day);
      await page.getByRole("button", { name: T.send }).click();
      await expect(page).toHaveURL(/\/visitorPasses$/);
      await expect(page.getByText(T.created, { exact: true })).toBeVisible();
      const row = page.locator("tbody tr", { hasText: guest });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(email);
      for (const door of doors) await expect(row).toContainText(door);
      await expect(row).toContainText("09:00–17:00");
      await expect(row.locator("td").nth(4)).toHaveText(T.live);
      await keepScreenshot(page, `visitor-passes-list-${lang}-${width}`, { fullPage: true });
      expect(await sidewaysScroll(page, { tables: width > 800 })).toEqual([]);
      expect(await axeFindings(page)).toEqual([]);

      // The guest's mail is in the signed-in user's language (the form's default).
      await expect.poll(async () => (await mailbox()).find((m) => m.to.includes(email))?.subject ?? "", { timeout: 20_000 }).toContain(T.mailSubject);
      // And so is the text, with the same link; the host asked to be texted at the first entry.
      await expect.poll(async () => (await textMessages()).find((m) => m.to === phone)?.body ?? "", { timeout: 20_000 }).toContain(T.textSays);
      expect((await textMessages()).find((m) => m.to === phone)!.body).toMatch(/\/m#pass=[0-9]+\.[A-Za-z0-9_-]+$/);
      const listed = await api.call<{ payload: { rows: { guestName: string; guestPhone: string; hostText: boolean }[] } }>("GET", "/visitorPasses/getPasses?pageSize=100");
      expect(listed.payload.rows.find((r) => r.guestName === guest)).toMatchObject({ guestPhone: phone, hostText: true });

      // Revoking asks first, naming the guest; the pass then shows under Revoked.
      await row.getByRole("button", { name: T.revokeLabel(guest) }).click();
      const dialog = page.getByRole("alertdialog");
      await expect(dialog).toContainText(guest);
      await keepScreenshot(page, `visitor-pass-revoke-${lang}-${width}`);
      await dialog.getByRole("button", { name: T.revoke, exact: true }).click();
      await expect(page.getByText(T.revoked, { exact: true })).toBeVisible();
      await expect(row.getByRole("button", { name: T.revokeLabel(guest) })).toHaveCount(0);
      await page.getByLabel(T.state, { exact: true }).selectOption("revoked");
      await expect(page).toHaveURL(/[?&]state=revoked/);
      await expect(page.locator("tbody tr", { hasText: guest }).locator("td").nth(4)).toHaveText(T.revokedState);
      await keepScreenshot(page, `visitor-passes-revoked-${lang}-${width}`, { fullPage: true });
    } finally {
      // The rules are the company's: other specs' passes must not meet a three-day limit.
      await api.call("PUT", "/visitorPasses/modifyRules", { maxDays: 7, hostRoleIds: [], deviceGroupId: null });
    }
  });
}

test("visitor passes: a user of a hosting role sees the page and may invite; others are refused", async ({ loginAs, page }) => {
  const api = await adminApi(page.request);
  const { payload: roles } = await api.call<{ payload: { id: number; role_title: string }[] }>("GET", "/user/getRoles");
  const auditor = roles.find((r) => r.role_title === "Auditor")!;
  await loginAs("auditor");
  await page.setViewportSize({ width: 1440, height: 900 });
  try {
    // Neither a host nor a holder of the users module: both screens answer 403.
    expect((await page.goto("/visitorPasses"))?.status()).toBe(403);
    expect((await page.goto("/addVisitorPass"))?.status()).toBe(403);
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Visitor passes" })).toHaveCount(0);

    // Once the rules name the role, its users host: their own passes (none yet, so the empty state says
    // what a pass is) and the invite, without the rules, which are company settings'.
    await api.call("PUT", "/visitorPasses/modifyRules", { maxDays: 7, hostRoleIds: [auditor.id], deviceGroupId: null });
    // The way there: the header names the page (the users page, which links to it, is not theirs).
    await page.goto("/");
    await page.getByRole("navigation").getByRole("link", { name: "Visitor passes" }).first().click();
    await expect(page).toHaveURL(/\/visitorPasses$/);
    expect((await page.goto("/visitorPasses"))?.status()).toBe(200);
    await expect(page.getByText("A visitor pass is a link mailed to your guest")).toBeVisible();
    await expect(page.getByRole("link", { name: "Invite a guest" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Visitor rules" })).toHaveCount(0);
    await keepScreenshot(page, "visitor-passes-empty-en-1440", { fullPage: true });
    expect(await axeFindings(page)).toEqual([]);
    expect((await page.goto("/addVisitorPass"))?.status()).toBe(200);
    // Only whoever may add users names another host.
    await expect(page.getByRole("combobox", { name: "Host" })).toHaveCount(0);
  } finally {
    await api.call("PUT", "/visitorPasses/modifyRules", { maxDays: 7, hostRoleIds: [], deviceGroupId: null });
  }
});
