import { and, eq, inArray } from "drizzle-orm";
import { exportJWK, generateKeyPair, SignJWT, createLocalJWKSet, UnsecuredJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { completeSsoSignIn, roleForGroups } from "~/services/sso/complete-sign-in.server";
import { safeRedirect } from "~/utils/redirect";
import { spendAttempt, verifyIdToken } from "~/services/sso/oidc.server";
import { sha256Hex } from "~/utils/tokens.server";
import { api, auditsNamed, consoleWorker, db, DEMO, login, ORIGIN, pageCookie, resetThrottles, schema, workerNow } from "./helpers";

/** Console single sign-on (decision 0121): the completion every protocol shares, the SSO-required policy, the ID token's checks. */
const LOGIN = "/api/admin/user/login";
const ACME = 3;
const BETA = 4;
const request = () => new Request("https://console.test/sso/oidc/callback", { headers: { "User-Agent": "sso-test" } });
const identity = (over: Partial<Parameters<typeof completeSsoSignIn>[2]> = {}): Parameters<typeof completeSsoSignIn>[2] => ({
  companyId: ACME,
  protocol: "oidc",
  subject: `sub-${crypto.randomUUID()}`,
  email: DEMO.acme.userName,
  groups: [],
  replayId: crypto.randomUUID(),
  replayExpiresAt: workerNow() + 5 * 60_000,
  returnTo: "/users",
  ...over,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { status?: number; message: string; details?: { errorCode?: string } }) => ({ status: e.status, code: e.details?.errorCode, message: e.message }),
  );

const madeRoles: number[] = [];
async function role(
  companyId: number,
  title: string,
  modules: string[],
  flags: Partial<Record<"permissionAll" | "permissionAdd" | "permissionModify" | "permissionView" | "permissionDelete", boolean>> = {},
) {
  const [r] = await db()
    .insert(schema.roles)
    .values({ companyId, title: `${title} ${crypto.randomUUID().slice(0, 6)}`, ...flags })
    .returning();
  if (modules.length)
    await db()
      .insert(schema.roleModules)
      .values(modules.map((moduleKey) => ({ roleId: r.id, companyId, moduleKey })));
  madeRoles.push(r.id);
  return r.id;
}

beforeEach(async () => {
  await db()
    .insert(schema.ssoSettings)
    .values({ companyId: ACME, protocol: "oidc", enabled: true, oidcIssuer: "https://idp.test", oidcClientId: "console" })
    .onConflictDoUpdate({
      target: schema.ssoSettings.companyId,
      set: { enabled: true, protocol: "oidc", ssoRequired: false, breakGlassUserId: null, jitEnabled: false, jitDefaultRoleId: null },
    });
});

afterEach(async () => {
  await db().delete(schema.ssoSettings);
  await db().delete(schema.ssoGroupRoles);
  await db().delete(schema.ssoIdentities);
  await db().delete(schema.ssoUsedIds);
  await db().delete(schema.ssoSignInAttempts);
  await db().delete(schema.users).where(eq(schema.users.email, "second@acme.example"));
  await db()
    .delete(schema.users)
    .where(inArray(schema.users.email, ["new.person@acme.example", "both@acme.example", "nogroup@acme.example"]));
  if (madeRoles.length) {
    await db().delete(schema.roleModules).where(inArray(schema.roleModules.roleId, madeRoles));
    await db()
      .delete(schema.roles)
      .where(inArray(schema.roles.id, madeRoles.splice(0)));
  }
  await resetThrottles();
});

describe("completeSsoSignIn", () => {
  it("opens the password sign-in's session for the user with the e-mail, logs it, and returns the console path asked for", async () => {
    const r = await completeSsoSignIn(db(), { request: request(), now: workerNow() }, identity({ email: "ADMIN@acme.example", returnTo: "/users?page=2" }));
    expect(r.redirectTo).toBe("/users?page=2");
    const session = await db().query.sessions.findFirst({ where: eq(schema.sessions.id, r.sessionId) });
    expect(session).toMatchObject({ kind: "web", companyId: ACME });
    expect(r.sessionId).toBe(await sha256Hex(r.token));
    const entries = await auditsNamed("Single Sign-On Login", eq(schema.activityLogs.targetUserId, r.userId));
    expect(entries.map((e) => e.summary)).toContain("Admin, Alice signed in through single sign-on");
    expect(r.createdByJit).toBe(false);
  });

  it("refuses an id token or assertion used before (replay)", async () => {
    const once = identity();
    await completeSsoSignIn(db(), { request: request(), now: workerNow() }, once);
    expect(await refusal(completeSsoSignIn(db(), { request: request(), now: workerNow() }, once))).toMatchObject({ status: 401, code: "sso-replayed" });
    // The same id for another company is its own.
    await db().insert(schema.ssoSettings).values({ companyId: BETA, protocol: "oidc", enabled: true, oidcIssuer: "https://idp.test", oidcClientId: "c" });
    expect(await refusal(completeSsoSignIn(db(), { request: request(), now: workerNow() }, { ...once, companyId: BETA, email: DEMO.beta.userName }))).toBeNull();
  });

  it("keeps the way back inside the console", () => {
    for (const ok of ["/", "/users", "/users?page=2#top", "/devices/12"]) expect(safeRedirect(ok)).toBe(ok);
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "/%2F%2Fevil.example",
      "users",
      `/${"a".repeat(2001)}`,
      "",
      null,
      undefined,
      "/a\nb",
      "/%5Cevil",
    ]) {
      expect(safeRedirect(bad)).toBe("/");
    }
  });

  it("refuses an unknown e-mail without JIT, a user with no console access, and a company without single sign-on", async () => {
    expect(await refusal(completeSsoSignIn(db(), { request: request(), now: workerNow() }, identity({ email: "new.person@acme.example" })))).toMatchObject({
      code: "sso-no-account",
    });
    await db().update(schema.ssoSettings).set({ enabled: false });
    expect(await refusal(completeSsoSignIn(db(), { request: request(), now: workerNow() }, identity()))).toMatchObject({ code: "sso-not-enabled" });
  });
});

describe("just-in-time creation and group roles", () => {
  it("creates a sentinel with the mapped role, never a super admin, and never a role no group of theirs maps", async () => {
    const doors = await role(ACME, "Doors", ["devices"], { permissionView: true });
    const doorsPlus = await role(ACME, "Doors plus", ["devices", "activity"], { permissionView: true, permissionModify: true });
    const billing = await role(ACME, "Billing", ["billing_portal"], { permissionView: true });
    const betaRole = await role(BETA, "Beta all", ["devices", "activity", "users"], { permissionAll: true });
    await db().update(schema.ssoSettings).set({ jitEnabled: true, jitDefaultRoleId: doors });
    await db()
      .insert(schema.ssoGroupRoles)
      .values([
        { companyId: ACME, groupName: "door-staff", roleId: doors },
        { companyId: ACME, groupName: "door-leads", roleId: doorsPlus },
        { companyId: ACME, groupName: "finance", roleId: billing },
        // A row naming another company's role (written around the settings' check) is never followed.
        { companyId: ACME, groupName: "beta-admins", roleId: betaRole },
      ]);

    // Nested grants: the including role.
    expect(await roleForGroups(db(), ACME, ["door-staff", "door-leads"], null)).toBe(doorsPlus);
    // Incomparable grants: the smaller one, never their union.
    const pick = await roleForGroups(db(), ACME, ["door-staff", "finance"], null);
    expect([doors, billing]).toContain(pick);
    expect(await roleForGroups(db(), ACME, ["door-leads", "finance"], null)).toBe(billing);
    // Another company's role is not a candidate; unknown groups get the default, or nothing.
    expect(await roleForGroups(db(), ACME, ["beta-admins"], null)).toBeNull();
    expect(await roleForGroups(db(), ACME, ["nobody"], doors)).toBe(doors);
    expect(await roleForGroups(db(), ACME, ["nobody"], betaRole)).toBeNull();

    const made = await completeSsoSignIn(
      db(),
      { request: request(), now: workerNow() },
      identity({ email: "New.Person@acme.example", firstName: "New", lastName: "Person", groups: ["door-leads", "beta-admins"] }),
    );
    expect(made).toMatchObject({ createdByJit: true, roleId: doorsPlus });
    const user = (await db().query.users.findFirst({ where: eq(schema.users.id, made.userId) }))!;
    expect(user).toMatchObject({ companyId: ACME, email: "new.person@acme.example", isSentinel: true, isSuperAdmin: false, roleId: doorsPlus });

    // Taken out of door-leads at the provider: the next sign-in has the smaller role.
    const again = await completeSsoSignIn(
      db(),
      { request: request(), now: workerNow() },
      identity({ subject: (await subjectOf(made.userId))!, email: "new.person@acme.example", groups: ["door-staff"] }),
    );
    expect(again.roleId).toBe(doors);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, made.userId) }))!.roleId).toBe(doors);

    // No group maps and no default: refused, nobody created.
    await db().update(schema.ssoSettings).set({ jitDefaultRoleId: null });
    expect(await refusal(completeSsoSignIn(db(), { request: request(), now: workerNow() }, identity({ email: "nogroup@acme.example", groups: ["nobody"] })))).toMatchObject({
      code: "sso-no-role",
    });
    expect(await db().query.users.findFirst({ where: eq(schema.users.email, "nogroup@acme.example") })).toBeUndefined();
  });

  it("leaves the role an admin gave to a user it did not create", async () => {
    const doors = await role(ACME, "Doors", ["devices"], { permissionView: true });
    await db().update(schema.ssoSettings).set({ jitEnabled: true, jitDefaultRoleId: doors });
    const r = await completeSsoSignIn(db(), { request: request(), now: workerNow() }, identity({ email: DEMO.auditor.userName, groups: [] }));
    expect(r.createdByJit).toBe(false);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, r.userId) }))!.roleId).toBe(4);
  });
});

async function subjectOf(userId: number) {
  return (await db().query.ssoIdentities.findFirst({ where: eq(schema.ssoIdentities.userId, userId) }))?.subject;
}

describe("single sign-on required", () => {
  it("refuses passwords for the company's admins, at the admin API and the sign-in form, except the break-glass admin's, whose sign-in is logged and mailed", async () => {
    const admin = (await db().query.users.findFirst({ where: eq(schema.users.email, DEMO.acme.userName) }))!;
    await db()
      .insert(schema.users)
      .values({ companyId: ACME, firstName: "Second", lastName: "Admin", displayName: "Admin, Second", email: "second@acme.example", isSentinel: true, isSuperAdmin: true });
    await db().update(schema.ssoSettings).set({ ssoRequired: true, breakGlassUserId: admin.id });

    const refused = await api(null, "POST", LOGIN, DEMO.auditor);
    expect(refused).toMatchObject({ status: 403, body: { message: "This company signs in through single sign-on; use “Continue with single sign-on”" } });
    const form = await fetchForm(DEMO.auditor);
    expect(form.status).not.toBe(302);
    expect(await form.text()).toContain("This company signs in through single sign-on");
    // Another company is not affected.
    expect((await api(null, "POST", LOGIN, DEMO.beta)).status).toBe(200);

    const before = workerNow();
    const breakGlass = await api(null, "POST", LOGIN, DEMO.acme);
    expect(breakGlass.status).toBe(200);
    expect((await fetchForm(DEMO.acme)).status).toBe(302);
    const entries = await auditsNamed("Break-Glass Sign-In", eq(schema.activityLogs.targetUserId, admin.id));
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(entries[0].summary).toBe("Admin, Alice signed in with a password as the break-glass admin");
    const mails = await db()
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.companyId, ACME), eq(schema.mailOutbox.subject, "Break-glass sign-in to Acme Corporation (ACME)")));
    const recent = mails.filter((m) => m.createdAt >= before - 1000);
    expect(recent.map((m) => m.toAddress)).toContain("second@acme.example");
    expect(recent.map((m) => m.toAddress)).not.toContain(DEMO.acme.userName);

    // A break-glass user who is not a super admin is no exception.
    const auditor = (await db().query.users.findFirst({ where: eq(schema.users.email, DEMO.auditor.userName) }))!;
    await db().update(schema.ssoSettings).set({ breakGlassUserId: auditor.id });
    expect((await api(null, "POST", LOGIN, DEMO.auditor)).status).toBe(403);
    // Required but switched off: passwords work again.
    await db().update(schema.ssoSettings).set({ enabled: false });
    expect((await api(null, "POST", LOGIN, DEMO.auditor)).status).toBe(200);
  });
});

/** A sign-in through the console's form (not the API): a 302 when a session opened. */
function fetchForm(who: { companyId: string; userName: string; password: string }) {
  return consoleWorker.fetch(`${ORIGIN}/login`, {
    method: "POST",
    body: new URLSearchParams({ companyId: who.companyId, userName: who.userName, password: who.password, language: "en" }),
    headers: { Origin: ORIGIN },
    redirect: "manual",
  });
}

describe("OpenID Connect ID token checks (hand-made tokens for attacks, against a local JWKS)", () => {
  const ISSUER = "https://idp.test";
  const CLIENT = "console";
  const SECRET = "client-secret-of-the-console";
  async function keys() {
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    return { privateKey, jwks: createLocalJWKSet({ keys: [jwk] }), jwk };
  }
  const sign = (key: CryptoKey | Uint8Array, claims: Record<string, unknown>, alg = "RS256", over: { iat?: number; exp?: number } = {}) => {
    const now = Math.floor(workerNow() / 1000);
    return new SignJWT({ nonce: "n-1", ...claims })
      .setProtectedHeader({ alg, kid: "k1" })
      .setIssuer(ISSUER)
      .setAudience(CLIENT)
      .setSubject("alice")
      .setIssuedAt(over.iat ?? now)
      .setExpirationTime(over.exp ?? now + 300)
      .sign(key);
  };
  const check = (token: string, jwks: Parameters<typeof verifyIdToken>[1]["keys"], nonce = "n-1") =>
    refusal(verifyIdToken(token, { keys: jwks, issuer: ISSUER, clientId: CLIENT, nonce, now: workerNow() }));

  it("accepts a right token and refuses wrong audience, issuer, expiry, alg none, HS256 with the client secret, azp and nonce", async () => {
    const { privateKey, jwks } = await keys();
    expect(await check(await sign(privateKey, {}), jwks)).toBeNull();
    const now = Math.floor(workerNow() / 1000);

    const wrongAudience = await new SignJWT({ nonce: "n-1" })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(ISSUER)
      .setAudience("another-client")
      .setSubject("alice")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    expect(await check(wrongAudience, jwks)).toMatchObject({ status: 401, code: "sso-bad-token" });
    const wrongIssuer = await new SignJWT({ nonce: "n-1" })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer("https://evil.test")
      .setAudience(CLIENT)
      .setSubject("alice")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    expect(await check(wrongIssuer, jwks)).toMatchObject({ code: "sso-bad-token" });
    // Expired beyond the 60 s tolerance; within it, accepted.
    expect(await check(await sign(privateKey, {}, "RS256", { iat: now - 600, exp: now - 120 }), jwks)).toMatchObject({ code: "sso-bad-token" });
    expect(await check(await sign(privateKey, {}, "RS256", { iat: now - 600, exp: now - 30 }), jwks)).toBeNull();
    // alg none.
    const none = new UnsecuredJWT({ nonce: "n-1" }).setIssuer(ISSUER).setAudience(CLIENT).setSubject("alice").setIssuedAt().setExpirationTime("5m").encode();
    expect(await check(none, jwks)).toMatchObject({ code: "sso-bad-token" });
    // HS256 keyed with the client secret, claiming the RSA key's kid.
    expect(await check(await sign(new TextEncoder().encode(SECRET), {}, "HS256"), jwks)).toMatchObject({ code: "sso-bad-token" });
    // Signed by another key.
    const other = await keys();
    expect(await check(await sign(other.privateKey, {}), jwks)).toMatchObject({ code: "sso-bad-token" });
    // azp naming another client; several audiences without azp.
    expect(await check(await sign(privateKey, { azp: "another-client" }), jwks)).toMatchObject({ code: "sso-bad-token" });
    const twoAudiences = await new SignJWT({ nonce: "n-1" })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(ISSUER)
      .setAudience([CLIENT, "x"])
      .setSubject("alice")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    expect(await check(twoAudiences, jwks)).toMatchObject({ code: "sso-bad-token" });
    // The nonce of another sign-in, or none.
    expect(await check(await sign(privateKey, {}), jwks, "n-2")).toMatchObject({ code: "sso-bad-nonce" });
    expect(await check(await sign(privateKey, { nonce: undefined }), jwks)).toMatchObject({ code: "sso-bad-nonce" });
  });

  it("spends a sign-in's state once, and refuses an unknown or expired one", async () => {
    const now = workerNow();
    await db()
      .insert(schema.ssoSignInAttempts)
      .values([
        { stateHash: await sha256Hex("state-1"), companyId: ACME, protocol: "oidc", nonce: "n", pkceVerifier: "v", returnTo: "/", expiresAt: now + 60_000, createdAt: now },
        { stateHash: await sha256Hex("state-old"), companyId: ACME, protocol: "oidc", nonce: "n", pkceVerifier: "v", returnTo: "/", expiresAt: now - 1, createdAt: now - 700_000 },
      ]);
    expect(await spendAttempt(db(), "state-1", now)).toMatchObject({ companyId: ACME, nonce: "n" });
    expect(await refusal(spendAttempt(db(), "state-1", now))).toMatchObject({ status: 401, code: "sso-bad-state" });
    expect(await refusal(spendAttempt(db(), "state-old", now))).toMatchObject({ code: "sso-bad-state" });
    expect(await refusal(spendAttempt(db(), "never-issued", now))).toMatchObject({ code: "sso-bad-state" });
    expect(await refusal(spendAttempt(db(), null, now))).toMatchObject({ code: "sso-bad-state" });
  });
});

describe("settings through the admin API", () => {
  const SSO = "/api/admin/company/sso";
  const base = { enabled: true, protocol: "oidc", oidcIssuer: "https://idp.example", oidcClientId: "console" };

  it("is a super admin's: the secret is write-only and sealed, SSO required needs a break-glass super admin, roles must be the company's", async () => {
    const auditor = await login("auditor");
    expect((await api(auditor, "GET", SSO)).status).toBe(403);
    expect((await api(auditor, "POST", SSO, "not json")).status).toBe(403);

    const admin = await login("acme");
    expect(await api(admin, "POST", SSO, { ...base, oidcClientSecret: "s3cret-value" })).toMatchObject({ status: 200, body: { message: "Single sign-on settings saved" } });
    const read = await api(admin, "GET", SSO);
    expect(read.body.payload).toMatchObject({ enabled: true, oidcIssuer: "https://idp.example", clientSecretSet: true });
    expect(JSON.stringify(read.body)).not.toContain("s3cret-value");
    const row = (await db().query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, ACME) }))!;
    expect(row.oidcClientSecret).toMatch(/^enc:v1:/);
    // Saved again without a secret: kept.
    await api(admin, "POST", SSO, base);
    expect((await api(admin, "GET", SSO)).body.payload.clientSecretSet).toBe(true);

    expect(await api(admin, "POST", SSO, { ...base, ssoRequired: true })).toMatchObject({ status: 422 });
    const auditorId = (await db().query.users.findFirst({ where: eq(schema.users.email, DEMO.auditor.userName) }))!.id;
    expect(await api(admin, "POST", SSO, { ...base, ssoRequired: true, breakGlassUserId: auditorId })).toMatchObject({ status: 422 });
    const betaAdminId = (await db().query.users.findFirst({ where: eq(schema.users.email, DEMO.beta.userName) }))!.id;
    expect(await api(admin, "POST", SSO, { ...base, ssoRequired: true, breakGlassUserId: betaAdminId })).toMatchObject({ status: 422 });
    expect(await api(admin, "POST", SSO, { ...base, groupRoles: [{ groupName: "x", roleId: 5 }] })).toMatchObject({ status: 422 });
    expect(await api(admin, "POST", SSO, { ...base, groupRoles: [{ groupName: "auditors", roleId: 4 }], jitEnabled: true, jitDefaultRoleId: 4 })).toMatchObject({ status: 200 });
    expect((await api(admin, "GET", SSO)).body.payload.groupRoles).toEqual([{ groupName: "auditors", roleId: 4 }]);
  });
});

describe("the settings page", () => {
  it("is shown to a super admin with the secret as set or not, and saved from its form", async () => {
    const cookie = await pageCookie("acme");
    const page = await consoleWorker.fetch(`${ORIGIN}/singleSignOn`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Require single sign-on");
    expect(html).toContain("No secret stored.");
    const form = new URLSearchParams({
      protocol: "oidc",
      enabled: "1",
      oidcIssuer: "https://idp.example",
      oidcClientId: "console",
      oidcClientSecret: "from-the-page",
      "groupRoles[0].groupName": "auditors",
      "groupRoles[0].roleId": "4",
      "groupRoles[1].groupName": "",
      "groupRoles[1].roleId": "",
    });
    const saved = await consoleWorker.fetch(`${ORIGIN}/singleSignOn`, { method: "POST", body: form, headers: { Cookie: cookie, Origin: ORIGIN }, redirect: "manual" });
    expect(saved.status).toBe(302);
    const row = (await db().query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, ACME) }))!;
    expect(row).toMatchObject({ enabled: true, oidcIssuer: "https://idp.example" });
    expect(row.oidcClientSecret).toMatch(/^enc:v1:/);
    expect(await db().select().from(schema.ssoGroupRoles)).toMatchObject([{ companyId: ACME, groupName: "auditors", roleId: 4 }]);
    expect(await (await consoleWorker.fetch(`${ORIGIN}/singleSignOn`, { headers: { Cookie: cookie } })).text()).toContain("A secret is stored and never shown.");
    const auditor = await consoleWorker.fetch(`${ORIGIN}/singleSignOn`, { headers: { Cookie: await pageCookie("auditor") }, redirect: "manual" });
    expect(auditor.status).not.toBe(200);
  });
});
