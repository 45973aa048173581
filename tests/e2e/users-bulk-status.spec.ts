import type { APIRequestContext, Page } from "@playwright/test";
import { adminApi, DEMO, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, mailbox, runNow, test, unique } from "./fixtures";

/**
 * Bulk deactivate, reactivate and invite on /users (docs/decisions/0035-search-and-bulk-actions.md), in
 * English and Spanish, on a desktop and a phone: a selection across two pages, a confirmation naming
 * the count, a result per row (the signed-in admin is refused for their own row), one audit entry per
 * changed user, the keyboard path, and invitation mail delivered to the run's SMTP server with a link
 * that really leads to a password. Every user here is made by the test through the admin API.
 */
const TEXT = {
  en: {
    search: "Search",
    action: "Action",
    apply: "Apply",
    deactivate: "Deactivate",
    reactivate: "Reactivate",
    invite: "Send invite",
    hideInactive: "Hide inactive",
    next: "Next page",
    active: "Active",
    yes: "Yes",
    no: "No",
    selected: (n: number) => `${n} users selected`,
    confirmTitle: (n: number) => `Deactivate ${n} users?`,
    summary: (done: number, total: number) => `Done for ${done} of ${total}`,
    deactivated: "deactivated",
    reactivated: "reactivated",
    notSelf: "not changed: you cannot deactivate your own account",
    inviteSent: "invite sent",
    notPending: "has already completed account setup",
    userModified: "User Modified",
    range: (from: number, to: number, total: number) => `${from}–${to} of ${total}`,
  },
  es: {
    search: "Buscar",
    action: "Acción",
    apply: "Aplicar",
    deactivate: "Desactivar",
    reactivate: "Reactivar",
    invite: "Enviar invitación",
    hideInactive: "Ocultar inactivos",
    next: "Página siguiente",
    active: "Activo",
    yes: "Sí",
    no: "No",
    selected: (n: number) => `${n} usuarios seleccionados`,
    confirmTitle: (n: number) => `¿Desactivar ${n} usuarios?`,
    summary: (done: number, total: number) => `Hecho para ${done} de ${total}`,
    deactivated: "desactivado",
    reactivated: "reactivado",
    notSelf: "sin cambios: no puede desactivar su propia cuenta",
    inviteSent: "invitación enviada",
    notPending: "ya completó la configuración de su cuenta",
    userModified: "Usuario modificado",
    range: (from: number, to: number, total: number) => `${from}–${to} de ${total}`,
  },
} as const;

/** The demo admin every test signs in as (db/seed/demo.ts): a super admin whose own row is refused. */
const ADMIN_NAME = "Admin, Alice";

type ApiUser = { id: number; dispay_name: string; e_mail: string; is_inactive: string | boolean };
type Api = Awaited<ReturnType<typeof adminApi>>;

/** `count` new users whose last names start with `tag`, in display-name order; each is pending (never set a password). */
async function makeUsers(api: Api, tag: string, count: number) {
  const users = [];
  for (let i = 0; i < count; i++) users.push(await api.createUser(`F${i}`, `${tag}${i}`));
  const listed = await api.call<{ payload: ApiUser[] }>("GET", `/user/getAllUsers?q=${tag}&status=all`);
  return users.map((u) => ({ ...u, email: listed.payload.find((l) => l.id === u.id)!.e_mail }));
}

/** The user's audit entries named "User Modified" since `since`, newest first (through the admin API). */
async function userModified(api: Api, userId: number, since: number) {
  const r = await api.call<{ payload: { rows: { activity: { name: string }; summary: string; activity_timestamp: number; created_by_user_id: number | null }[] } }>(
    "POST",
    "/user/activityLogs",
    { id: userId, type: "User" },
  );
  return r.payload.rows.filter((row) => row.activity.name === "User Modified" && row.activity_timestamp >= since);
}

/** The row of the list that shows `name`. */
const rowOf = (page: Page, name: string) => page.locator("tbody tr").filter({ hasText: name });

/** The cell of `name`'s row under the column headed `header`. */
async function cellOf(page: Page, name: string, header: string) {
  const headers = (await page.locator("thead th").allInnerTexts()).map((h) => h.trim());
  const index = headers.indexOf(header);
  expect(index, `a column headed ${header} in ${headers.join(" | ")}`).toBeGreaterThan(-1);
  return rowOf(page, name).locator("td").nth(index);
}

const selectBox = (page: Page, name: string) => page.getByRole("checkbox", { name: new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) });

/** Searches the list through its own form (a client-side navigation, so the selection is kept). */
async function search(page: Page, label: string, text: string) {
  const form = page.getByRole("search");
  await form.getByLabel(label, { exact: true }).fill(text);
  await form.getByRole("button", { name: label }).click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(text).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
}

const shot = (name: string, run: { lang: string; width: number }) => `${name}-${run.lang}${run.width < 600 ? "-phone" : ""}`;

for (const run of LANGUAGE_AND_WIDTH_RUNS) {
  test(`bulk deactivate across two pages, hide them, then reactivate by keyboard (${run.lang}, ${run.width}px)`, async ({ page, request, loginAs }) => {
    test.setTimeout(120_000);
    const tx = TEXT[run.lang];
    const api = await adminApi(request);
    const tag = `Stat${unique()}`;
    const since = runNow() - 60_000;
    const users = await makeUsers(api, tag, 5);
    const chosen = [users[0], users[1], users[3], users[4]];

    await page.setViewportSize({ width: run.width, height: run.height });
    await loginAs("acme", run.lang);
    await page.goto(`/users?q=${tag}&pageSize=3`);
    const results = page.getByTestId("bulk-results");
    const bar = page.getByRole("form", { name: run.lang === "en" ? "Bulk actions" : "Acciones en bloque" });

    // Two on the first page, two on the second, and the admin's own row found by a second search.
    await expect(page.getByText(tx.range(1, 3, 5))).toBeVisible();
    await selectBox(page, users[0].displayName).click();
    await selectBox(page, users[1].displayName).click();
    await page.getByRole("link", { name: tx.next }).click();
    await expect(page.getByText(tx.range(4, 5, 5))).toBeVisible();
    await selectBox(page, users[3].displayName).click();
    await selectBox(page, users[4].displayName).click();
    await expect(bar.getByText(tx.selected(4))).toBeVisible();
    await search(page, tx.search, DEMO.acme.userName);
    await selectBox(page, ADMIN_NAME).click();
    await expect(bar.getByText(tx.selected(5))).toBeVisible();

    // Deactivate asks first, naming how many.
    await bar.getByLabel(tx.action, { exact: true }).selectOption({ label: tx.deactivate });
    await bar.getByRole("button", { name: tx.apply }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByRole("heading", { name: tx.confirmTitle(5) })).toBeVisible();
    await keepScreenshot(page, shot("users-bulk-deactivate-confirm", run));
    await dialog.getByRole("button", { name: tx.deactivate }).click();

    // One result per row, in the order selected: four changed, the admin's own row refused with its reason.
    await expect(results.locator("li")).toHaveText([...chosen.map((u) => `${u.displayName}: ${tx.deactivated}`), `${ADMIN_NAME}: ${tx.notSelf}`]);
    await expect(page.getByRole("heading", { name: tx.summary(4, 5) })).toBeVisible();
    await expect(page.getByTestId("bulk-results-section")).toBeFocused();
    await keepScreenshot(page, shot("users-bulk-deactivate-results", run), { fullPage: true });

    // With 'Hide inactive' (the default) only the one left out is listed; without it all five, four inactive.
    await page.goto(`/users?q=${tag}&pageSize=3`);
    await expect(page.getByRole("switch", { name: tx.hideInactive })).toBeChecked();
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(rowOf(page, users[2].displayName)).toBeVisible();
    await page.getByRole("switch", { name: tx.hideInactive }).click();
    await expect(page).toHaveURL(/hideInactive=0/);
    await expect(page.getByText(tx.range(1, 3, 5))).toBeVisible();
    await expect(await cellOf(page, users[0].displayName, tx.active)).toHaveText(tx.no);
    await expect(await cellOf(page, users[1].displayName, tx.active)).toHaveText(tx.no);
    await expect((await cellOf(page, users[2].displayName, tx.active)).getByLabel(tx.yes)).toBeVisible();

    // Read back through the API: exactly those four are inactive, the admin is not, and each changed user has one audit entry.
    const inactive = await api.call<{ payload: ApiUser[] }>("GET", `/user/getAllUsers?q=${tag}&status=inactive`);
    expect(inactive.payload.map((u) => u.id).sort()).toEqual(chosen.map((u) => u.id).sort());
    const admins = await api.call<{ payload: ApiUser[] }>("GET", `/user/getAllUsers?q=${DEMO.acme.userName}&status=inactive`);
    expect(admins.payload).toEqual([]);
    for (const u of chosen) {
      const entries = await userModified(api, u.id, since);
      expect(entries.map((e) => e.summary)).toEqual([`${u.displayName}: deactivated`]);
    }
    expect(await userModified(api, users[2].id, since)).toEqual([]);
    expect((await userModified(api, 3, since)).filter((e) => e.summary === `${ADMIN_NAME}: deactivated`)).toEqual([]);

    // The activity log shows the entry to the admin, event and summary in their language.
    await page.goto(`/activity?id=${users[0].id}&type=User`);
    const entry = page.locator("tbody tr").first();
    await expect(entry).toContainText(tx.userModified);
    await expect(entry).toContainText(`${users[0].displayName}: ${tx.deactivated}`);

    // Reactivate with the keyboard only: Space selects, Enter follows links and applies, the result takes the focus.
    await page.goto(`/users?q=${tag}&pageSize=3&hideInactive=0`);
    for (const u of [users[0], users[1]]) {
      await selectBox(page, u.displayName).focus();
      await page.keyboard.press("Space");
      await expect(selectBox(page, u.displayName)).toBeChecked();
    }
    await page.getByRole("link", { name: tx.next }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByText(tx.range(4, 5, 5))).toBeVisible();
    for (const u of [users[3], users[4]]) {
      await selectBox(page, u.displayName).focus();
      await page.keyboard.press("Space");
      await expect(selectBox(page, u.displayName)).toBeChecked();
    }
    await expect(bar.getByText(tx.selected(4))).toBeVisible();
    const action = bar.getByLabel(tx.action, { exact: true });
    await action.focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(action).toHaveValue("reactivate");
    await page.keyboard.press("Tab");
    await expect(bar.getByRole("button", { name: tx.apply })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(results.locator("li")).toHaveText(chosen.map((u) => `${u.displayName}: ${tx.reactivated}`));
    await expect(page.getByTestId("bulk-results-section")).toBeFocused();
    await keepScreenshot(page, shot("users-bulk-reactivate-results", run), { fullPage: true });

    // All five are active again, each changed user with its second audit entry.
    await page.goto(`/users?q=${tag}&pageSize=3`);
    await expect(page.getByText(tx.range(1, 3, 5))).toBeVisible();
    await expect((await cellOf(page, users[0].displayName, tx.active)).getByLabel(tx.yes)).toBeVisible();
    const stillInactive = await api.call<{ payload: ApiUser[] }>("GET", `/user/getAllUsers?q=${tag}&status=inactive`);
    expect(stillInactive.payload).toEqual([]);
    for (const u of chosen) {
      const entries = await userModified(api, u.id, since);
      expect(entries.map((e) => e.summary)).toEqual([`${u.displayName}: reactivated`, `${u.displayName}: deactivated`]);
    }
  });

  test(`bulk invites reach each pending user by mail with a working link; others are "not pending" (${run.lang}, ${run.width}px)`, async ({ page, request, browser, loginAs }) => {
    test.setTimeout(120_000);
    const tx = TEXT[run.lang];
    const api = await adminApi(request);
    const tag = `Inv${unique()}`;
    const users = await makeUsers(api, tag, 3);

    await page.setViewportSize({ width: run.width, height: run.height });
    await loginAs("acme", run.lang);
    await page.goto(`/users?q=${tag}&pageSize=2`);
    const results = page.getByTestId("bulk-results");
    const bar = page.getByRole("form", { name: run.lang === "en" ? "Bulk actions" : "Acciones en bloque" });

    // Three pending users over two pages, and the admin (who set their password long ago).
    await selectBox(page, users[0].displayName).click();
    await selectBox(page, users[1].displayName).click();
    await page.getByRole("link", { name: tx.next }).click();
    await selectBox(page, users[2].displayName).click();
    await search(page, tx.search, DEMO.acme.userName);
    await selectBox(page, ADMIN_NAME).click();
    await expect(bar.getByText(tx.selected(4))).toBeVisible();
    await bar.getByLabel(tx.action, { exact: true }).selectOption({ label: tx.invite });
    await bar.getByRole("button", { name: tx.apply }).click();
    await expect(results.locator("li")).toHaveText([...users.map((u) => `${u.displayName}: ${tx.inviteSent}`), `${ADMIN_NAME}: ${tx.notPending}`]);
    await expect(page.getByRole("heading", { name: tx.summary(3, 4) })).toBeVisible();
    await expect(page.getByTestId("bulk-results-section")).toBeFocused();
    await keepScreenshot(page, shot("users-bulk-invite-results", run), { fullPage: true });

    // Each of the three gets one invitation at the run's SMTP server; the admin gets none.
    const invitations = async (to: string) => (await mailbox()).filter((m) => m.to.includes(to) && m.subject === "Your key to Acme Corporation's doors");
    for (const u of users) await expect.poll(async () => (await invitations(u.email)).length, { timeout: 30_000 }).toBe(1);
    expect(await invitations(DEMO.acme.userName)).toEqual([]);
    const mail = (await invitations(users[0].email))[0];
    expect(mail.text).toContain("Company ID: ACME,");
    const link = mail.text.match(/https?:\/\/\S+\/resetPassword\/[A-Za-z0-9_-]+/)?.[0];
    expect(link, `a link in: ${mail.text}`).toBeTruthy();

    // The link works: from a browser with no session it sets the password and opens the phone app signed in.
    await setPasswordFromInvite(browser, request, link!, users[0].email);

    // Invited again, the first now says so while a still-pending one gets a second invitation.
    await page.goto(`/users?q=${tag}&pageSize=2`);
    await selectBox(page, users[0].displayName).click();
    await selectBox(page, users[1].displayName).click();
    await bar.getByLabel(tx.action, { exact: true }).selectOption({ label: tx.invite });
    await bar.getByRole("button", { name: tx.apply }).click();
    await expect(results.locator("li")).toHaveText([`${users[0].displayName}: ${tx.notPending}`, `${users[1].displayName}: ${tx.inviteSent}`]);
    await expect.poll(async () => (await invitations(users[1].email)).length, { timeout: 30_000 }).toBe(2);
    expect(await invitations(users[0].email)).toHaveLength(1);
  });
}

/** Follows an invitation link as the invited door user: chooses a password and lands signed in on the phone app. */
async function setPasswordFromInvite(browser: import("@playwright/test").Browser, request: APIRequestContext, link: string, email: string) {
  const context = await browser.newContext();
  try {
    const guest = await context.newPage();
    const opened = await guest.goto(link);
    expect(opened?.status()).toBe(200);
    await guest.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(guest.getByTestId("link-account")).toContainText(email);
    const password = `Invite#${unique()}9A`;
    await guest.locator('input[name="password"]').fill(password);
    await guest.locator('input[name="confirmPassword"]').fill(password);
    await guest.locator('button[type="submit"]').click();
    await expect(guest).toHaveURL(/\/m$/);
    expect(await guest.evaluate(() => JSON.parse(localStorage.getItem("phone.session") ?? "null")?.userName)).toBe(email);
    // The new password is the account's: the console answers that this user (no web access) may not use it, not that it is wrong.
    const login = await request.post("/api/admin/user/login", { data: { companyId: "ACME", userName: email, password } });
    expect(await login.text()).toContain("You do not have permission to log in to the console");
  } finally {
    await context.close();
  }
}
