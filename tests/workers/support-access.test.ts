/**
 * Support access a customer grants (decision 0093): ACME's admin grants its reseller RSL1 access; RSL1's
 * staff open ACME's console as support (a banner, ACME's people, the granting admin's permissions), what
 * they change is logged in both companies; revoking or expiry ends it. Without a grant, RSL1 sees none of
 * ACME's people. A grant may name which of RSL1's staff may open it; ACME's granting admin is mailed when
 * a support session opens.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { supportCookie } from "../../app/utils/session.server";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, pageCookie, schema } from "./helpers";

const ACME = 3;
const RSL1 = 2;
let acme: string;
let reseller: string;
let resellerPage: string;

const page = (cookie: string, path: string, init: RequestInit = {}) =>
  consoleWorker.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init, headers: { Cookie: cookie, Origin: ORIGIN, ...(init.headers ?? {}) } });

/** Opens a support session from the fleet's button; returns the cookie header with both sessions, and the support token. */
async function openSupport(grantId: number) {
  const res = await page(resellerPage, "/resources/support-session", { method: "POST", body: new URLSearchParams({ intent: "open", grant: String(grantId) }) });
  expect(res.status).toBe(302);
  const set = res.headers.getSetCookie().find((c) => c.startsWith("__support="));
  if (!set) return null;
  const pair = set.split(";")[0];
  const token = (await supportCookie(env as never).parse(pair)) as string;
  return { cookie: `${resellerPage}; ${pair}`, token };
}

async function grant(body: Record<string, unknown>, token = acme) {
  return api(token, "POST", "/api/admin/support/grantSupportAccess", body);
}

beforeAll(async () => {
  acme = await login("acme");
  reseller = await login("var");
  resellerPage = await pageCookie("var");
  const [company] = await db().select({ parentId: schema.companies.parentId }).from(schema.companies).where(eq(schema.companies.id, ACME));
  expect(company.parentId).toBe(RSL1);
});

describe("support access", () => {
  it("without a grant the reseller sees no customer's people, and cannot open a console", async () => {
    expect((await api(reseller, "GET", "/api/admin/support/getReceivedSupportGrants")).body.payload).toEqual([]);
    const users = await api(reseller, "GET", "/api/admin/user/getUsers?page=1&page_size=100");
    expect(JSON.stringify(users.body)).not.toContain("admin@acme.example");
    expect(await openSupport(999_999)).toBeNull();
  });

  it("grants only to a company above, for 1 to 72 hours, with a reason", async () => {
    const bad = await grant({ grantee_company_id: 4, hours: 4, reason: "Not my reseller" });
    expect(bad.status).toBe(400);
    expect((await grant({ grantee_company_id: RSL1, hours: 0, reason: "x" })).status).toBe(400);
    expect((await grant({ grantee_company_id: RSL1, hours: 4, reason: " " })).status).toBe(400);
    expect((await grant({ grantee_company_id: RSL1, hours: 4, reason: "x" }, await login("auditor"))).status).toBe(403);
  });

  it("a grant opens the console as support: banner, the customer's people, audit on both sides; revoking ends it", async () => {
    const g = await grant({ grantee_company_id: RSL1, hours: 4, reason: "Door 3 will not open" });
    expect(g.status).toBe(200);
    const id = g.body.payload.id as number;
    const received = (await api(reseller, "GET", "/api/admin/support/getReceivedSupportGrants")).body.payload;
    expect(received).toMatchObject([{ id, company_id: ACME, reason: "Door 3 will not open" }]);

    const support = (await openSupport(id))!;
    const home = await page(support.cookie, "/users");
    const html = await home.text();
    expect(home.status).toBe(200);
    expect(html).toContain('data-testid="support-banner"');
    expect(html).toContain("admin@acme.example");

    // A change made as support: ACME's log names the support, RSL1's log has its copy.
    const made = await api(support.token, "POST", "/api/admin/holidays/addCalendar", { name: `Support ${id}` });
    expect(made.status).toBe(200);
    const [mine] = await auditsNamed("Holiday Calendar Created", eq(schema.activityLogs.companyId, ACME)).then((r) => r.filter((x) => x.summary.includes(`Support ${id}`)));
    expect(JSON.parse(mine.details).support).toMatchObject({ grantId: id, for: "Northwind Resellers" });
    const copies = (await auditsNamed("Support Action", eq(schema.activityLogs.companyId, RSL1))).filter((x) => x.summary.includes(`Support ${id}`));
    expect(copies).toHaveLength(1);
    expect(copies[0].summary).toMatch(/^Acme Corporation: Holiday Calendar Created/);

    // Support can neither grant more support nor act as a super admin.
    expect((await grant({ grantee_company_id: RSL1, hours: 72, reason: "more" }, support.token)).status).toBe(403);

    // ACME revokes: the support session is over; the staff member's own session is what answers now.
    expect((await api(acme, "POST", "/api/admin/support/revokeSupportAccess", { id })).status).toBe(200);
    const after = await page(support.cookie, "/users");
    const text = await after.text();
    expect(text).not.toContain('data-testid="support-banner"');
    expect(text).not.toContain("admin@acme.example");
    expect((await api(support.token, "GET", "/api/admin/user/getUsers?page=1&page_size=10")).status).toBe(401);
    expect(await openSupport(id)).toBeNull();
  });

  it("a grant naming staff opens only for them, and the granting admin is mailed when a session opens", async () => {
    // A second staff member of RSL1 (no sign-in needed: the grant only names them).
    const other = `other.staff.${Date.now()}@reseller.example`;
    const [vera] = await db().select().from(schema.users).where(eq(schema.users.email, "var@reseller.example"));
    await db()
      .insert(schema.users)
      .values({ companyId: RSL1, roleId: vera.roleId, firstName: "Otto", lastName: "Staff", displayName: "Otto Staff", email: other, passwordChangedAt: 0 });

    const unknown = await grant({ grantee_company_id: RSL1, hours: 4, reason: "Named", staff_emails: [other, "admin@acme.example", "nobody@reseller.example"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.payload.unknown_staff_emails).toEqual(["admin@acme.example", "nobody@reseller.example"]);
    expect((await grant({ grantee_company_id: RSL1, hours: 4, reason: "Named", staff_emails: "not an address" })).status).toBe(400);

    // Named to the other staff member only: Vera is not offered it and cannot open it.
    const theirs = (await grant({ grantee_company_id: RSL1, hours: 4, reason: "For Otto", staff_emails: other.toUpperCase() })).body.payload.id as number;
    const listed = (await api(acme, "GET", "/api/admin/support/getSupportGrants")).body.payload.find((r: { id: number }) => r.id === theirs);
    expect(listed.staff_emails).toEqual([other]);
    expect((await api(reseller, "GET", "/api/admin/support/getReceivedSupportGrants")).body.payload.map((r: { id: number }) => r.id)).not.toContain(theirs);
    expect(await openSupport(theirs)).toBeNull();
    // A support session under that grant (as if opened before) does not resolve for Vera either.
    const open = (await grant({ grantee_company_id: RSL1, hours: 4, reason: "Open" })).body.payload.id as number;
    const forged = (await openSupport(open))!;
    await db().update(schema.sessions).set({ supportGrantId: theirs }).where(eq(schema.sessions.supportGrantId, open));
    expect(await (await page(forged.cookie, "/users")).text()).not.toContain('data-testid="support-banner"');

    // Named to Vera (among others): she opens it, and ACME's granting admin is mailed.
    const hers = (await grant({ grantee_company_id: RSL1, hours: 4, reason: "For Vera", staff_emails: `${other}, var@reseller.example` })).body.payload.id as number;
    const opened = (await openSupport(hers))!;
    expect(await (await page(opened.cookie, "/users")).text()).toContain('data-testid="support-banner"');
    const mails = await db()
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.toAddress, "admin@acme.example"), eq(schema.mailOutbox.companyId, ACME)));
    const mail = mails.filter((m) => m.body.includes('"For Vera"'));
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe("Support session opened in your console: Reseller, Vera (Northwind Resellers)");
    expect(mail[0].body).toContain("/supportAccess");
  });

  it("a grant that expires ends its support session at the next request", async () => {
    const id = (await grant({ grantee_company_id: RSL1, hours: 1, reason: "Short look" })).body.payload.id as number;
    const support = (await openSupport(id))!;
    expect(await (await page(support.cookie, "/")).text()).toContain('data-testid="support-banner"');
    await db().update(schema.supportGrants).set({ expiresAt: 1 }).where(eq(schema.supportGrants.id, id));
    expect(await (await page(support.cookie, "/")).text()).not.toContain('data-testid="support-banner"');
    const ended = await api(acme, "GET", "/api/admin/support/getSupportGrants");
    expect(ended.body.payload.find((r: { id: number }) => r.id === id).status).toBe("expired");
  });

  it("signing out of a support session ends the staff member's own session too; a new sign-in clears a left-over support cookie", async () => {
    const id = (await grant({ grantee_company_id: RSL1, hours: 1, reason: "Sign-out check" })).body.payload.id as number;
    const own = await pageCookie("var");
    const opened = await page(own, "/resources/support-session", { method: "POST", body: new URLSearchParams({ intent: "open", grant: String(id) }) });
    const support = opened.headers
      .getSetCookie()
      .find((c) => c.startsWith("__support="))!
      .split(";")[0];
    const out = await page(`${own}; ${support}`, "/logout", { method: "POST" });
    expect(out.status).toBe(302);
    expect(out.headers.getSetCookie().some((c) => c.startsWith("__support=;"))).toBe(true);
    const left = await db().select({ id: schema.sessions.id }).from(schema.sessions).where(eq(schema.sessions.supportGrantId, id));
    expect(left).toEqual([]);
    // The own session is gone as well: its cookie alone signs no one in.
    expect((await page(own, "/users")).status).toBe(302);

    const signIn = await consoleWorker.fetch(`${ORIGIN}/login`, {
      method: "POST",
      body: new URLSearchParams({ companyId: "RSL1", userName: "var@reseller.example", password: "Var#Demo2026" }),
      headers: { Origin: ORIGIN, Cookie: support },
      redirect: "manual",
    });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.getSetCookie().some((c) => c.startsWith("__support=;"))).toBe(true);
  });
});
