import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterEach, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, db, DEMO, login, ORIGIN, pageCookie, resetThrottles, schema, workerNow } from "./helpers";
import { SoftAuthenticator } from "./soft-authenticator";

/** A company's MFA policy (decision 0123): covered users without an authenticator app or a passkey enrol first. */
const POLICY = "/api/admin/company/mfaPolicy";
const LOGIN = "/api/admin/user/login";
const ACME_ADMIN_ROLE = 3;
const ACME_AUDITOR_ROLE = 4;

/** A console page request with the session cookie, as the browser sends it (same origin). */
const page = (cookie: string, path: string, init: { method?: string; body?: URLSearchParams } = {}) =>
  consoleWorker.fetch(ORIGIN + path, {
    method: init.method ?? "GET",
    body: init.body,
    headers: { Cookie: cookie, Host: new URL(ORIGIN).host, Origin: ORIGIN },
    redirect: "manual",
  });

afterEach(async () => {
  await db().update(schema.companySettings).set({ mfaPolicy: "none", mfaPolicyRoleIds: "[]", require2fa: false });
  await db().delete(schema.authenticatorApps);
  await db().delete(schema.authenticatorRecoveryCodes);
  await db().delete(schema.consolePasskeys);
  await db().delete(schema.passkeyChallenges);
  await resetThrottles();
});

describe("setting the policy", () => {
  it("is a super admin's, with roles of the company only, and audited", async () => {
    const acme = await login("acme");
    expect(await api(acme, "GET", POLICY)).toMatchObject({ status: 200, body: { payload: { policy: "none", roleIds: [] } } });
    // The auditor (no super admin, no settings modify right) cannot change it, for themselves or anyone.
    expect((await api(await login("auditor"), "POST", POLICY, { policy: "none" })).status).toBe(403);
    expect((await api(acme, "POST", POLICY, { policy: "roles", roleIds: [] })).status).toBe(400);
    // BETA's role is not ACME's.
    expect((await api(acme, "POST", POLICY, { policy: "roles", roleIds: [5] })).status).toBe(400);
    const set = await api(acme, "POST", POLICY, { policy: "roles", roleIds: [ACME_AUDITOR_ROLE] });
    expect(set).toMatchObject({ status: 200, body: { message: "Sign-in security policy saved", payload: { policy: "roles", roleIds: [ACME_AUDITOR_ROLE] } } });
    const [entry] = await auditsNamed("MFA Policy Changed");
    expect(entry).toMatchObject({ companyId: 3 });
    expect((await api(await login("beta"), "GET", POLICY)).body.payload.policy).toBe("none");
  });
});

describe("signing in under the policy", () => {
  it("holds a covered user without a strong factor to enrolment in the console, and refuses their admin API login", async () => {
    expect((await api(await login("acme"), "POST", POLICY, { policy: "roles", roleIds: [ACME_AUDITOR_ROLE] })).status).toBe(200);
    // The admin API: a clear refusal, no token.
    const refused = await api(null, "POST", LOGIN, DEMO.auditor);
    expect(refused).toMatchObject({
      status: 403,
      body: {
        errorCode: "mfa-enrolment-required",
        message: "Your company requires an authenticator app or a passkey for this account: set one up in the console, then sign in again",
      },
    });
    expect(refused.body.token).toBeUndefined();
    // An uncovered role is unaffected.
    expect((await api(null, "POST", LOGIN, DEMO.acme)).status).toBe(200);

    // The console: signed in, but every page sends the browser to enrolment, and other posts are refused.
    const cookie = await pageCookie("auditor");
    for (const path of ["/", "/users", "/activity", "/companySettings"]) {
      const r = await page(cookie, path);
      expect(r.status, path).toBe(302);
      expect(r.headers.get("Location"), path).toBe("/mfaEnrolment");
    }
    expect((await page(cookie, "/users", { method: "POST", body: new URLSearchParams({ intent: "delete" }) })).status).toBe(403);
    expect((await page(cookie, "/mfaEnrolment")).status).toBe(200);
    expect((await page(cookie, "/passkeys")).status).toBe(200);
    expect((await page(cookie, "/authenticatorApp")).status).toBe(200);

    // Enrolling an authenticator app from that session makes it a full one.
    expect((await page(cookie, "/authenticatorApp", { method: "POST", body: new URLSearchParams({ intent: "start" }) })).status).toBe(302);
    const html = await (await page(cookie, "/authenticatorApp")).text();
    const secret = /data-testid="authenticator-secret">([A-Z2-7]+)</.exec(html)![1];
    const code = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: workerNow() });
    expect((await page(cookie, "/authenticatorApp", { method: "POST", body: new URLSearchParams({ intent: "confirm", code }) })).status).toBe(200);
    expect((await page(cookie, "/")).status).toBe(200);
    // Now the role's own rights decide: the auditor's role has no users module (403), no more redirect.
    expect((await page(cookie, "/users")).status).toBe(403);
    // The admin API now asks for the app's code instead of refusing.
    expect(await api(null, "POST", LOGIN, DEMO.auditor)).toMatchObject({ status: 402, body: { errorCode: "2fa-required", payload: { channel: "authenticator" } } });
  });

  it("counts a passkey as a strong factor, but not e-mailed codes; 'all' covers every console user", async () => {
    const acme = await login("acme");
    // A passkey added before the policy: the admin still signs in (with it).
    const key = new SoftAuthenticator(ORIGIN);
    const options = (await api(acme, "POST", "/api/admin/user/passkeys/registrationOptions")).body.payload;
    expect((await api(acme, "POST", "/api/admin/user/passkeys/register", { name: "Laptop", response: await key.create(options) })).status).toBe(200);
    expect((await api(acme, "POST", POLICY, { policy: "all" })).status).toBe(200);
    await db().update(schema.companySettings).set({ require2fa: true }).where(eq(schema.companySettings.companyId, 3));
    const asked = await api(null, "POST", LOGIN, DEMO.acme);
    expect(asked.status).toBe(402);
    const ok = await api(null, "POST", "/api/admin/user/passkeyAuthenticate", {
      companyId: DEMO.acme.companyId,
      userName: DEMO.acme.userName,
      response: await key.get(asked.body.payload.passkey),
    });
    expect(ok.status).toBe(200);
    // The auditor, with e-mailed codes only (the company requires them): the code step, then still refused at the API.
    expect(await api(null, "POST", LOGIN, DEMO.auditor)).toMatchObject({ status: 402, body: { payload: { channel: "email" } } });
    const mails = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, DEMO.auditor.userName));
    const code = /sign-in code is (\d{6})/.exec(mails.at(-1)!.body)![1];
    const afterCode = await api(null, "POST", "/api/admin/user/twoFactorAuthenticate", { companyId: DEMO.auditor.companyId, userName: DEMO.auditor.userName, code });
    expect(afterCode).toMatchObject({ status: 403, body: { errorCode: "mfa-enrolment-required" } });
    // Role ACME_ADMIN_ROLE chosen alone: the auditor is uncovered again.
    expect((await api((ok.body as { token: string }).token, "POST", POLICY, { policy: "roles", roleIds: [ACME_ADMIN_ROLE] })).status).toBe(200);
    await db().update(schema.companySettings).set({ require2fa: false }).where(eq(schema.companySettings.companyId, 3));
    expect((await api(null, "POST", LOGIN, DEMO.auditor)).status).toBe(200);
  });
});
