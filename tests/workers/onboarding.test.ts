/**
 * The first hour (decision 0055): a company is never created without a zone; its first admin and every
 * new user get an invite whose set-password link works once and signs them in where they work (the
 * console, or the phone app for a door user). Mail goes through a real SMTP server of this file's own.
 */
import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ownMailServer, parseMail } from "./mail-server";
import type { ReceivedMail } from "./smtp-global-setup";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, schema } from "./helpers";

const BASE = "/api/admin";
const { smtpPort, inboxUrl } = await ownMailServer();
const inbox = async (): Promise<ReceivedMail[]> => (await fetch(inboxUrl)).json();

/** The first mail to `to`, once the SMTP server has it. */
async function mailTo(to: string) {
  for (let i = 0; i < 100; i++) {
    const mail = (await inbox()).find((m) => m.to.includes(to));
    if (mail) return parseMail(mail.raw);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail reached ${to}`);
}
/** The user's log entries of one activity: the first invite is part of 'User Created', later sends are 'Invite Resent'. */
const entriesFor = (name: string, userId: number) => auditsNamed(name, eq(schema.activityLogs.targetUserId, userId));
const linkIn = (body: string) => new URL(/https?:\/\/\S+\/resetPassword\/[A-Za-z0-9_-]+/.exec(body)![0]).pathname;

const company = (over: Record<string, unknown> = {}) => ({
  companyName: "Gamma Dental Clinic",
  companyType: "ec",
  parentCompanyId: "RSL1",
  discountPercentage: 15,
  POCFirstName: "Grace",
  POCLastName: "Gil",
  POCEmail: "grace@gamma.example",
  POCCountryCode: "034",
  POCPhoneNumber: "612 000 222",
  companyId: "GD01",
  ...over,
});

/** Posts the set-password form as a browser does. */
function setPassword(path: string, password: string, extra: Record<string, string> = {}) {
  return consoleWorker.fetch(ORIGIN + path, {
    method: "POST",
    body: new URLSearchParams({ password, confirmPassword: password, ...extra }),
    headers: { Host: new URL(ORIGIN).host, Origin: ORIGIN },
    redirect: "manual",
  });
}

const settingsOf = async (code: string) => {
  const c = await db().query.companies.findFirst({ where: eq(schema.companies.code, code) });
  const s = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, c!.id) });
  const zone = s?.defaultTimeZoneId ? await db().query.timeZones.findFirst({ where: eq(schema.timeZones.id, s.defaultTimeZoneId) }) : undefined;
  return { zone: zone?.name, country: s?.defaultCountryCode, language: s?.language };
};

let root: string;
let acme: string;

beforeAll(async () => {
  await db().update(schema.mailerConfigs).set({ hostName: "127.0.0.1", port: smtpPort }).where(isNull(schema.mailerConfigs.companyId));
  [root, acme] = await Promise.all([login("root"), login("acme")]);
});

beforeEach(async () => {
  await fetch(inboxUrl, { method: "DELETE" });
});

describe("a new company's zone, country and language", () => {
  it("refuses a company without a zone when no country says one (400, nothing created)", async () => {
    const r = await api(root, "POST", `${BASE}/company/addCompany`, company({ companyId: "NZ01" }));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Time zone is required");
    const blank = await api(root, "POST", `${BASE}/company/addCompany`, company({ companyId: "NZ01", timeZone: "", country: "ES" }));
    expect(blank.status).toBe(400);
    const unknown = await api(root, "POST", `${BASE}/company/addCompany`, company({ companyId: "NZ01", timeZone: "Mars/Olympus" }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("The time zone is not one the console knows");
    expect(await db().query.companies.findFirst({ where: eq(schema.companies.code, "NZ01") })).toBeUndefined();
  });

  it("derives the zone from a country the caller names (Spain: Madrid, Spanish; the US: New York)", async () => {
    const es = await api(root, "POST", `${BASE}/company/addCompany`, company({ companyId: "ES01", companyName: "Clinica", country: "ES", POCEmail: "es@clinica.example" }));
    expect(es.status, JSON.stringify(es.body)).toBe(200);
    expect(await settingsOf("ES01")).toEqual({ zone: "Europe/Madrid", country: "034", language: "es" });
    const us = await api(root, "POST", `${BASE}/company/addCompany`, company({ companyId: "US01", companyName: "Clinic US", country: "US", POCEmail: "u@us.example" }));
    expect(us.status, JSON.stringify(us.body)).toBe(200);
    expect(await settingsOf("US01")).toEqual({ zone: "America/New_York", country: "001", language: "en" });
  });

  it("keeps a zone the caller chose; its users' phones default to the company's country", async () => {
    const r = await api(root, "POST", `${BASE}/company/addCompany`, company({ companyId: "CN01", companyName: "Canarias", timeZone: "Atlantic/Canary", POCEmail: "c@c.example" }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await settingsOf("CN01")).toEqual({ zone: "Atlantic/Canary", country: "034", language: "es" });
  });
});

describe("the first admin's invite", () => {
  it("carries a set-password link naming the account, that works once and lands signed in on home", async () => {
    const r = await api(root, "POST", `${BASE}/company/addCompany`, company({ timeZone: "Europe/Madrid" }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const mail = await mailTo("grace@gamma.example");
    expect(mail.subject).toBe("Invitación a la consola de Gamma Dental Clinic");
    expect(mail.body).toContain("GD01");
    const path = linkIn(mail.body);
    const page = await consoleWorker.fetch(ORIGIN + path);
    const html = await page.text();
    expect(html).toContain("Gamma Dental Clinic (GD01)");
    expect(html).toContain("grace@gamma.example");
    const token = await db().query.passwordResetTokens.findFirst({ where: eq(schema.passwordResetTokens.companyId, r.body.payload.id) });
    expect(token!.expiresAt - token!.createdAt).toBe(7 * 24 * 3_600_000);

    const set = await setPassword(path, "Grace#Gamma2026");
    expect(set.status).toBe(302);
    expect(set.headers.get("Location")).toBe("/");
    const cookie = set.headers
      .getSetCookie()
      .find((c) => c.startsWith("__session="))!
      .split(";")[0];
    const home = await consoleWorker.fetch(`${ORIGIN}/`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(home.status).toBe(200);

    const again = await setPassword(path, "Other#Gamma2026");
    expect(again.status).toBe(400);
    expect(await api(null, "POST", `${BASE}/user/login`, { companyId: "GD01", userName: "grace@gamma.example", password: "Grace#Gamma2026" })).toMatchObject({ status: 200 });
  });
});

describe("creating a user", () => {
  const user = (over: Record<string, unknown> = {}) => ({ firstName: "Dan", lastName: "Molina", displayName: "Molina, Dan", countryCode: "034", phoneNumer: "612000111", ...over });

  it("invites a door user by default, to the phone app: the link signs the phone in", async () => {
    const r = await api(acme, "POST", `${BASE}/user/addUser`, user({ emailId: "dan@acme.example" }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.payload.invited).toBe(true);
    const [created] = await entriesFor("User Created", r.body.payload.id);
    expect(JSON.parse(created.details)).toEqual({ invite_sent: true });
    expect(await entriesFor("Invite Resent", r.body.payload.id)).toHaveLength(0);
    const mail = await mailTo("dan@acme.example");
    expect(mail.subject).toBe("Your key to Acme Corporation's doors");
    expect(mail.body).toMatch(/https?:\/\/\S+\/m\)/);
    const path = linkIn(mail.body);
    expect(await (await consoleWorker.fetch(ORIGIN + path)).text()).toContain("the Keyless Access phone app opens, signed in");
    const set = await setPassword(path, "Dan#Molina2026", { installationId: "web-onboarding-test-1" });
    expect(set.status).toBe(200);
    const sessions = await db().query.sessions.findMany({ where: and(eq(schema.sessions.userId, r.body.payload.id), eq(schema.sessions.kind, "mobile")) });
    expect(sessions).toHaveLength(1);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, r.body.payload.id) }))!.boundDeviceId).toBe("web-onboarding-test-1");
  });

  it("invites a console user to the console", async () => {
    const r = await api(acme, "POST", `${BASE}/user/addUser`, user({ emailId: "ana@acme.example", phoneNumer: "612000112", isSentinel: "1" }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const mail = await mailTo("ana@acme.example");
    expect(mail.subject).toBe("You are invited to the Acme Corporation console");
    const set = await setPassword(linkIn(mail.body), "Ana#Admin2026");
    expect(set.status).toBe(302);
    expect(set.headers.get("Location")).toBe("/");
  });

  it("sends nothing when the invite is unticked; Resend invite then sends the same link mail, logged as 'Invite Resent'", async () => {
    const r = await api(acme, "POST", `${BASE}/user/addUser`, user({ emailId: "quiet@acme.example", phoneNumer: "612000113", sendInvite: "0" }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.payload.invited).toBe(false);
    const queued = await db().query.mailOutbox.findMany({ where: eq(schema.mailOutbox.toAddress, "quiet@acme.example") });
    expect(queued).toHaveLength(0);
    expect(await db().query.passwordResetTokens.findFirst({ where: eq(schema.passwordResetTokens.userId, r.body.payload.id) })).toBeUndefined();
    expect(JSON.parse((await entriesFor("User Created", r.body.payload.id))[0].details)).toEqual({ invite_sent: false });
    const resent = await api(acme, "POST", `${BASE}/user/resendInviteMail`, { userId: r.body.payload.id });
    expect(resent.status).toBe(200);
    expect(await entriesFor("Invite Resent", r.body.payload.id)).toHaveLength(1);
    const mail = await mailTo("quiet@acme.example");
    expect(mail.subject).toBe("Your key to Acme Corporation's doors");
    expect(linkIn(mail.body)).toMatch(/^\/resetPassword\//);
  });
});

it("the OpenAPI document names the new fields of addCompany and addUser", async () => {
  const doc = (await api(null, "GET", "/api/openapi.json")).body;
  const body = (path: string) => doc.paths[`${BASE}${path}`].post.requestBody.content["application/json"].schema.properties;
  expect(Object.keys(body("/company/addCompany"))).toEqual(expect.arrayContaining(["timeZone", "country", "language"]));
  expect(body("/company/addCompany").timeZone.description).toContain("IANA");
  expect(Object.keys(body("/user/addUser"))).toContain("sendInvite");
});
