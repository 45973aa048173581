import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { api, auditsNamed, db, DEMO, login, ORIGIN, resetThrottles, schema, type DemoLogin } from "./helpers";
import { SoftAuthenticator } from "./soft-authenticator";

/**
 * Console passkeys as a second factor (decision 0123). The responses come from a software authenticator
 * (soft-authenticator.ts, a client); the console verifies them with @simplewebauthn/server.
 */
const LOGIN = "/api/admin/user/login";
const OPTIONS = "/api/admin/user/passkeys/registrationOptions";
const REGISTER = "/api/admin/user/passkeys/register";
const LIST = "/api/admin/user/passkeys";
const REMOVE = "/api/admin/user/passkeys/remove";
const RESET = "/api/admin/user/resetPasskeys";
const OF_USER = "/api/admin/user/passkeysOfUser";
const ASSERT = "/api/admin/user/passkeyAuthenticate";

const userId = async (who: DemoLogin) => (await db().query.users.findFirst({ where: eq(schema.users.email, DEMO[who].userName) }))!.id;
const who = (w: DemoLogin) => ({ companyId: DEMO[w].companyId, userName: DEMO[w].userName });

/** Adds a passkey for `w` through the API (signed in with the password while it has none). */
async function enrol(w: DemoLogin, token: string, name = "Laptop"): Promise<SoftAuthenticator> {
  const key = new SoftAuthenticator(ORIGIN);
  const options = await api(token, "POST", OPTIONS);
  expect(options.status).toBe(200);
  const added = await api(token, "POST", REGISTER, { name, response: await key.create(options.body.payload) });
  expect(added).toMatchObject({ status: 200, body: { message: "Passkey added", payload: { name } } });
  return key;
}

/** The password step: 402 with the passkey's request options (a challenge issued now). */
async function passwordStep(w: DemoLogin): Promise<{ challenge: string; allowCredentials: { id: string }[] }> {
  const r = await api(null, "POST", LOGIN, DEMO[w]);
  expect(r).toMatchObject({ status: 402, body: { errorCode: "2fa-required" } });
  return r.body.payload.passkey;
}

afterEach(async () => {
  await db().delete(schema.consolePasskeys);
  await db().delete(schema.passkeyChallenges);
  await db().delete(schema.authenticatorApps);
  await db().update(schema.companySettings).set({ require2fa: false });
  await resetThrottles();
});

describe("adding a passkey", () => {
  it("verifies the registration (challenge once, origin, user verification) and lists it without key material", async () => {
    const token = await login("var");
    const options = (await api(token, "POST", OPTIONS)).body.payload;
    expect(options).toMatchObject({ rp: { id: "console.test", name: "Keyless Access" }, authenticatorSelection: { userVerification: "required" } });
    // A wrong origin, or no user verification: refused (and the challenge is spent).
    const wrongOrigin = new SoftAuthenticator("https://evil.test", "console.test");
    expect(await api(token, "POST", REGISTER, { name: "X", response: await wrongOrigin.create(options) })).toMatchObject({ status: 400, body: { errorCode: "passkey-failed" } });
    const noUv = await api(token, "POST", OPTIONS);
    expect((await api(token, "POST", REGISTER, { name: "X", response: await new SoftAuthenticator(ORIGIN).create(noUv.body.payload, { userVerified: false }) })).status).toBe(400);

    const key = new SoftAuthenticator(ORIGIN);
    const fresh = (await api(token, "POST", OPTIONS)).body.payload;
    const response = await key.create(fresh);
    expect((await api(token, "POST", REGISTER, { name: "YubiKey", response })).status).toBe(200);
    // The same response again: its challenge is spent.
    expect(await api(token, "POST", REGISTER, { name: "YubiKey", response })).toMatchObject({ status: 400, body: { errorCode: "passkey-challenge" } });
    const listed = await api(token, "GET", LIST);
    expect(listed.body.payload).toEqual([{ id: expect.any(Number), name: "YubiKey", createdAt: expect.any(Number), lastUsedAt: null }]);
    expect(JSON.stringify(listed.body)).not.toContain(key.id);
    expect(await auditsNamed("Passkey Added")).toHaveLength(1);
  });
});

describe("signing in with a passkey", () => {
  it("asks for the passkey after the password, signs in with it once, and records its use", async () => {
    const key = await enrol("var", await login("var"));
    const options = await passwordStep("var");
    expect(options.allowCredentials.map((c) => c.id)).toEqual([key.id]);
    const assertion = await key.get(options);
    const ok = await api(null, "POST", ASSERT, { ...who("var"), response: assertion });
    expect(ok).toMatchObject({ status: 200, body: { message: "Login successful" } });
    expect(typeof ok.body.token).toBe("string");
    expect((await api(ok.body.token, "GET", LIST)).body.payload[0].lastUsedAt).toEqual(expect.any(Number));
    expect(await auditsNamed("Passkey Used")).toHaveLength(1);
    // Replayed: the same assertion (its challenge is spent) is refused.
    expect(await api(null, "POST", ASSERT, { ...who("var"), response: assertion })).toMatchObject({ status: 401, body: { errorCode: "passkey-failed" } });
  });

  it("offers the passkey beside the authenticator app's code and the mailed code", async () => {
    await enrol("var", await login("var"));
    const r = await api(null, "POST", LOGIN, DEMO.var);
    expect(r.body.payload).toMatchObject({ channel: "passkey", sentTo: "" });
    // Nothing was sent; a code by e-mail may be asked for instead while the passkey's challenge waits.
    expect((await api(null, "POST", "/api/admin/user/sendTwoFactorCodeByEmail", who("var"))).status).toBe(200);
  });

  it("refuses an assertion from another origin, for another RP id, without user verification, or never challenged", async () => {
    const key = await enrol("var", await login("var"));
    const refused = async (o: Parameters<SoftAuthenticator["get"]>[1]) => {
      const options = await passwordStep("var");
      return api(null, "POST", ASSERT, { ...who("var"), response: await key.get(options, o) });
    };
    expect(await refused({ origin: "https://evil.test" })).toMatchObject({ status: 401, body: { errorCode: "passkey-failed" } });
    expect((await refused({ rpID: "evil.test" })).status).toBe(401);
    expect((await refused({ userVerified: false })).status).toBe(401);
    expect((await refused({ challenge: "bm90LWlzc3VlZC1ieS10aGUtY29uc29sZQ" })).status).toBe(401);
    await resetThrottles();
    const options = await passwordStep("var");
    expect((await api(null, "POST", ASSERT, { ...who("var"), response: await key.get(options) })).status).toBe(200);
  });

  it("refuses a counter that did not move forward", async () => {
    const key = await enrol("var", await login("var"));
    key.counter = 10;
    expect((await api(null, "POST", ASSERT, { ...who("var"), response: await key.get(await passwordStep("var")) })).status).toBe(200);
    const stored = await db().query.consolePasskeys.findFirst({ where: eq(schema.consolePasskeys.userId, await userId("var")) });
    expect(stored!.counter).toBe(11);
    const regressed = await api(null, "POST", ASSERT, { ...who("var"), response: await key.get(await passwordStep("var"), { counter: 5 }) });
    expect(regressed).toMatchObject({ status: 401, body: { errorCode: "passkey-failed" } });
    expect(regressed.body.payload.reason).toMatch(/counter/i);
    expect((await api(null, "POST", ASSERT, { ...who("var"), response: await key.get(await passwordStep("var"), { counter: 11 }) })).status).toBe(401);
  });

  it("refuses a removed passkey, and another user's passkey", async () => {
    const token = await login("var");
    const phone = await enrol("var", token, "Phone");
    const laptop = await enrol("var", token, "Laptop");
    const listed = (await api(token, "GET", LIST)).body.payload as { id: number; name: string }[];
    expect(listed.map((k) => k.name).sort()).toEqual(["Laptop", "Phone"]);
    const phoneId = listed.find((k) => k.name === "Phone")!.id;
    // Another user's passkey id cannot be removed by this caller.
    expect((await api(await login("beta"), "POST", REMOVE, { id: phoneId })).status).toBe(404);
    expect(await api(token, "POST", REMOVE, { id: phoneId })).toMatchObject({ status: 200, body: { message: "Passkey removed" } });
    expect(await auditsNamed("Passkey Removed")).toHaveLength(1);
    const options = await passwordStep("var");
    expect(options.allowCredentials.map((c) => c.id)).toEqual([laptop.id]);
    expect(await api(null, "POST", ASSERT, { ...who("var"), response: await phone.get(options) })).toMatchObject({ status: 401, body: { errorCode: "passkey-failed" } });
    // BETA's admin has no such credential: refused too.
    const beta = await enrol("beta", await login("beta"));
    const betaOptions = await passwordStep("beta");
    expect((await api(null, "POST", ASSERT, { ...who("var"), response: await beta.get(betaOptions) })).status).toBe(401);
  });
});

describe("a super admin resetting someone's passkeys", () => {
  it("removes them for a user of the same company, audited; nobody else may", async () => {
    const auditorToken = await login("auditor");
    const key = await enrol("auditor", auditorToken);
    const auditor = await userId("auditor");
    expect((await api(await login("var"), "POST", RESET, { userId: auditor })).status).toBe(404);
    expect((await api(await login("beta"), "POST", RESET, { userId: auditor })).status).toBe(404);
    // The auditor signs in with the passkey and is no super admin: refused.
    const signedIn = await api(null, "POST", ASSERT, { ...who("auditor"), response: await key.get(await passwordStep("auditor")) });
    expect(signedIn.status).toBe(200);
    expect((await api(signedIn.body.token, "POST", RESET, { userId: auditor })).status).toBe(403);

    const acme = await login("acme");
    expect((await api(acme, "POST", OF_USER, { userId: auditor })).body.payload).toHaveLength(1);
    expect(await api(acme, "POST", RESET, { userId: auditor })).toMatchObject({ status: 200, body: { message: "Passkeys removed: the user signs in without them" } });
    const [entry] = await auditsNamed("Passkeys Reset", eq(schema.activityLogs.targetUserId, auditor));
    expect(entry).toMatchObject({ by: await userId("acme"), targetUserId: auditor, companyId: 3 });
    expect((await api(acme, "POST", RESET, { userId: auditor })).status).toBe(409);
    // No passkey left: the password alone signs in again (the company requires no codes).
    expect((await api(null, "POST", LOGIN, DEMO.auditor)).status).toBe(200);
  });
});
