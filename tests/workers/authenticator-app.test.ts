import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterEach, describe, expect, it } from "vitest";
import { api, auditsNamed, db, DEMO, login, resetThrottles, schema, workerNow, type DemoLogin } from "./helpers";

/** An authenticator app (TOTP) as the console's second factor, with one-time recovery codes (decision 0120). */
const LOGIN = "/api/admin/user/login";
const TFA = "/api/admin/user/twoFactorAuthenticate";
const START = "/api/admin/user/authenticator/start";
const CONFIRM = "/api/admin/user/authenticator/confirm";
const REMOVE = "/api/admin/user/authenticator/remove";
const RESET = "/api/admin/user/resetAuthenticator";

/** The code an authenticator app shows `offsetS` seconds from the Worker's clock. */
const codeAt = (secret: string, offsetS = 0) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: workerNow() + offsetS * 1000 });
/**
 * Waits out the last 5 s of a 30 s step, so the codes a test computes and the Worker checks a moment later
 * are of the same step whenever the test runs.
 */
async function awayFromStepEdge(): Promise<void> {
  const into = workerNow() % 30_000;
  if (into > 25_000) await new Promise((done) => setTimeout(done, 30_100 - into));
}
const signInWith = (who: DemoLogin, code: string) => api(null, "POST", TFA, { companyId: DEMO[who].companyId, userName: DEMO[who].userName, code });
const userId = async (who: DemoLogin) => (await db().query.users.findFirst({ where: eq(schema.users.email, DEMO[who].userName) }))!.id;
const mailsTo = async (who: DemoLogin) => (await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, DEMO[who].userName))).length;

/** Enrols `who` through the API with the previous step's code (so the current one is still unused): the secret and the recovery codes. */
async function enrol(who: DemoLogin): Promise<{ secret: string; recoveryCodes: string[]; token: string }> {
  const token = await login(who);
  const started = await api(token, "POST", START);
  expect(started.status).toBe(200);
  const { secret } = started.body.payload;
  await awayFromStepEdge();
  const confirmed = await api(token, "POST", CONFIRM, { code: codeAt(secret, -30) });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.payload.recoveryCodes, token };
}

afterEach(async () => {
  await db().delete(schema.authenticatorApps);
  await db().delete(schema.authenticatorRecoveryCodes);
  await db().update(schema.companySettings).set({ require2fa: false });
  await resetThrottles();
});

describe("enrolling an authenticator app", () => {
  it("shows a TOTP secret, keeps it sealed, and switches it on only with a right code, answering ten recovery codes once", async () => {
    const token = await login("var");
    const started = await api(token, "POST", START);
    expect(started.status).toBe(200);
    const { secret, uri } = started.body.payload;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Keyless%20Access:RSL1%3Avar%40reseller\.example\?/);
    expect(new URL(uri).searchParams.get("secret")).toBe(secret);
    expect(new URL(uri).searchParams.get("algorithm")).toBe("SHA1");
    expect(new URL(uri).searchParams.get("period")).toBe("30");
    await awayFromStepEdge();
    const row = (await db().query.authenticatorApps.findFirst({ where: eq(schema.authenticatorApps.userId, await userId("var")) }))!;
    expect(row.secret.startsWith("enc:v1:")).toBe(true);
    expect(row.secret).not.toContain(secret);

    // A wrong code: refused, and the app is not asked for at sign-in.
    const wrong = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, "0");
    expect(await api(token, "POST", CONFIRM, { code: wrong })).toMatchObject({ status: 400, body: { message: "The code is invalid or has expired" } });
    expect((await api(null, "POST", LOGIN, DEMO.var)).status).toBe(200);

    const confirmed = await api(token, "POST", CONFIRM, { code: codeAt(secret) });
    expect(confirmed).toMatchObject({ status: 200, body: { message: "Authenticator app switched on" } });
    const codes: string[] = confirmed.body.payload.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const stored = await db().query.authenticatorRecoveryCodes.findMany({ where: eq(schema.authenticatorRecoveryCodes.userId, await userId("var")) });
    expect(stored).toHaveLength(10);
    for (const s of stored) expect(s.codeHash).toMatch(/^hmac-sha256\$/);
    expect(stored.map((s) => s.codeHash).join()).not.toContain(codes[0]);
    // Confirmed once: a second confirmation has nothing waiting, and starting over is refused while it is on.
    expect((await api(token, "POST", CONFIRM, { code: codeAt(secret) })).status).toBe(409);
    expect((await api(token, "POST", START)).status).toBe(409);
    expect(await auditsNamed("Authenticator App Enrolled")).toHaveLength(1);
  });

  it("is switched off by its owner only with a current code", async () => {
    const { secret, token } = await enrol("var");
    expect((await api(token, "POST", REMOVE, { code: "000000" === codeAt(secret) ? "111111" : "000000" })).status).toBe(400);
    expect((await api(null, "POST", LOGIN, DEMO.var)).status).toBe(402);
    await awayFromStepEdge();
    expect(await api(token, "POST", REMOVE, { code: codeAt(secret) })).toMatchObject({ status: 200, body: { message: "Authenticator app switched off" } });
    expect((await api(null, "POST", LOGIN, DEMO.var)).status).toBe(200);
    expect(await auditsNamed("Authenticator App Removed")).toHaveLength(1);
  });
});

describe("signing in with an authenticator app", () => {
  it("asks for the app's code instead of mailing one, takes a code once, and refuses codes outside one step of now", async () => {
    const { secret } = await enrol("var");
    const mailed = await mailsTo("var");
    const asked = await api(null, "POST", LOGIN, DEMO.var);
    expect(asked).toMatchObject({ status: 402, body: { errorCode: "2fa-required", payload: { channel: "authenticator", preferredChannel: "authenticator", sentTo: "" } } });
    // The company requiring codes changes nothing: still the app, still nothing mailed.
    await db().update(schema.companySettings).set({ require2fa: true }).where(eq(schema.companySettings.companyId, 2));
    expect((await api(null, "POST", LOGIN, DEMO.var)).body.payload.channel).toBe("authenticator");
    expect(await mailsTo("var")).toBe(mailed);
    expect((await api(null, "POST", "/api/admin/user/sendTwoFactorCodeByEmail", { companyId: "RSL1", userName: DEMO.var.userName })).status).toBe(400);

    await awayFromStepEdge();
    expect((await signInWith("var", codeAt(secret, 90))).status).toBe(401);
    expect((await signInWith("var", codeAt(secret, -90))).status).toBe(401);
    const now = codeAt(secret);
    const ok = await signInWith("var", now);
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe("string");
    // Replayed: the same code, or one of an earlier step, is refused.
    expect(await signInWith("var", now)).toMatchObject({ status: 401, body: { errorCode: "bad-code" } });
    expect((await signInWith("var", codeAt(secret, -30))).status).toBe(401);
    // The next step's code (clock drift) is still taken.
    expect((await signInWith("var", codeAt(secret, 30))).status).toBe(200);
  });

  it("takes each recovery code once, in any case, and records its use", async () => {
    const { recoveryCodes } = await enrol("var");
    expect((await signInWith("var", recoveryCodes[3].toUpperCase())).status).toBe(200);
    expect((await signInWith("var", recoveryCodes[3])).status).toBe(401);
    expect((await signInWith("var", recoveryCodes[4].replace("-", ""))).status).toBe(200);
    expect((await signInWith("var", "abcde-fghij")).status).toBe(401);
    const used = await auditsNamed("Recovery Code Used");
    expect(used).toHaveLength(2);
    expect(used[0].targetUserId).toBe(await userId("var"));
  });

  it("counts wrong codes against the sign-in throttle", async () => {
    const { secret } = await enrol("var");
    await awayFromStepEdge();
    const right = codeAt(secret);
    const wrong = right === "123456" ? "654321" : "123456";
    for (let i = 0; i < 5; i++) expect((await signInWith("var", wrong)).status).toBe(401);
    expect((await signInWith("var", right)).status).toBe(429);
    await resetThrottles();
    expect((await signInWith("var", right)).status).toBe(200);
  });
});

describe("a super admin resetting someone's authenticator app", () => {
  it("removes it for a user of the same company, who gets mailed codes again; nobody else may", async () => {
    const { secret } = await enrol("auditor");
    const auditor = await userId("auditor");
    // Another company's super admin: not found. A user without the users right: refused.
    expect((await api(await login("var"), "POST", RESET, { userId: auditor })).status).toBe(404);
    expect((await api(await login("beta"), "POST", RESET, { userId: auditor })).status).toBe(404);
    expect((await api(null, "POST", LOGIN, DEMO.auditor)).status).toBe(402);
    await awayFromStepEdge();
    const signedIn = await signInWith("auditor", codeAt(secret));
    expect(signedIn.status).toBe(200);
    expect((await api(signedIn.body.token, "POST", RESET, { userId: auditor })).status).toBe(403);
    expect(await db().query.authenticatorApps.findFirst({ where: eq(schema.authenticatorApps.userId, auditor) })).toBeTruthy();

    const acme = await login("acme");
    expect(await api(acme, "POST", RESET, { userId: auditor })).toMatchObject({ status: 200, body: { message: "Authenticator app removed: sign-in codes go by e-mail again" } });
    expect(await db().query.authenticatorRecoveryCodes.findMany({ where: eq(schema.authenticatorRecoveryCodes.userId, auditor) })).toEqual([]);
    const [entry] = await auditsNamed("Authenticator App Reset", eq(schema.activityLogs.targetUserId, auditor));
    expect(entry).toMatchObject({ by: await userId("acme"), targetUserId: auditor, companyId: 3 });
    expect((await api(acme, "POST", RESET, { userId: auditor })).status).toBe(409);

    await db().update(schema.companySettings).set({ require2fa: true }).where(eq(schema.companySettings.companyId, 3));
    const mailed = await mailsTo("auditor");
    expect(await api(null, "POST", LOGIN, DEMO.auditor)).toMatchObject({ status: 402, body: { payload: { channel: "email" } } });
    expect(await mailsTo("auditor")).toBe(mailed + 1);
  });
});
