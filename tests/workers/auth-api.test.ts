import { afterEach, describe, expect, it } from "vitest";
import { THROTTLE } from "~/services/throttle.server";
import { api, db, DEMO, login, resetThrottles, schema, workerNow, textsTo } from "./helpers";

afterEach(resetThrottles);
import { eq } from "drizzle-orm";

const LOGIN = "/api/admin/user/login";

describe("POST /user/login", () => {
  it("returns token, payload and message in the envelope", async () => {
    const r = await api(null, "POST", LOGIN, { ...DEMO.acme, companyId: "acme", userName: "ADMIN@acme.example", language: "en" });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Login successful");
    expect(typeof r.body.token).toBe("string");
    expect(r.body.payload).toMatchObject({
      dispay_name: "Admin, Alice",
      role_id: 3,
      comp_id: 3,
      company_type: "ec",
      e_mail: "admin@acme.example",
      company: { company_name: "Acme Corporation", company_id: "ACME" },
    });
  });

  it("refuses bad credentials with 401 and the spec's message", async () => {
    const r = await api(null, "POST", LOGIN, { ...DEMO.acme, password: "wrong" });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe("Incorrect Company ID, Username, or Password");
    const unknownCompany = await api(null, "POST", LOGIN, { ...DEMO.acme, companyId: "ZZZZ" });
    expect(unknownCompany.status).toBe(401);
  });

  it("validates the body with 400 and field messages", async () => {
    const short = await api(null, "POST", LOGIN, { companyId: "AC", userName: "a", password: "b" });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain("Company ID is required to have 4 digits");
    const missing = await api(null, "POST", LOGIN, { companyId: "ACME", password: "b" });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.userName).toEqual(["Email or Phone Number is required"]);
  });

  it("answers malformed JSON with 400 and a message, never a 500", async () => {
    const r = await api(null, "POST", LOGIN, "{not json");
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Malformed JSON body");
  });

  it("reports a de-activated account and a flagged account", async () => {
    const d = db();
    await d.update(schema.users).set({ isInactive: true }).where(eq(schema.users.email, "auditor@acme.example"));
    const r = await api(null, "POST", LOGIN, DEMO.auditor);
    expect(r.status).toBe(401);
    expect(r.body.message).toBe("Your account has been de-activated");
    await d.update(schema.users).set({ isInactive: false, isFlagged: true }).where(eq(schema.users.email, "auditor@acme.example"));
    const flagged = await api(null, "POST", LOGIN, DEMO.auditor);
    expect(flagged.body.message).toBe("account has been locked due to suspicious activity");
    await d.update(schema.users).set({ isFlagged: false }).where(eq(schema.users.email, "auditor@acme.example"));
  });

  it("reports an expired password with its error code", async () => {
    await db().update(schema.companySettings).set({ passwordExpiryMonths: 1 }).where(eq(schema.companySettings.companyId, 4));
    await db()
      .update(schema.users)
      .set({ passwordChangedAt: workerNow() - 90 * 24 * 3600_000 })
      .where(eq(schema.users.email, "admin@beta.example"));
    const r = await api(null, "POST", LOGIN, DEMO.beta);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ message: "Your password has expired, please reset it", errorCode: "password-expired" });
    const reset = await api(null, "POST", "/api/admin/user/resetExpiredPassword", {
      companyId: "BETA",
      userName: DEMO.beta.userName,
      currentPassword: DEMO.beta.password,
      newPassword: "Beta#Fresh2026",
      confirmPassword: "Beta#Other2026",
    });
    expect(reset.status).toBe(400);
    expect(reset.body.message).toBe("The password confirmation does not match");
    const ok = await api(null, "POST", "/api/admin/user/resetExpiredPassword", {
      companyId: "BETA",
      userName: DEMO.beta.userName,
      currentPassword: DEMO.beta.password,
      newPassword: DEMO.beta.password,
      confirmPassword: DEMO.beta.password,
    });
    expect(ok.status).toBe(200);
    expect((await api(null, "POST", LOGIN, DEMO.beta)).status).toBe(200);
  });

  it("asks for the second factor with 402 when the company requires it", async () => {
    await db().update(schema.companySettings).set({ require2fa: true }).where(eq(schema.companySettings.companyId, 2));
    const r = await api(null, "POST", LOGIN, DEMO.var);
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ message: "Two Factor Authentication is required to login", errorCode: "2fa-required" });
    // The spec puts phoneNumber beside message and errorCode.
    expect(r.body.phoneNumber).toMatch(/^\*\*\*-\*\*\*-\d{4}$/);
    expect(r.body.payload.phoneNumber).toBe(r.body.phoneNumber);
    const mail = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, "var@reseller.example"));
    const code = mail.at(-1)!.body.match(/\b(\d{6})\b/)![1];
    const wrong = await api(null, "POST", "/api/admin/user/twoFactorAuthenticate", {
      companyId: "RSL1",
      userName: DEMO.var.userName,
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(401);
    const ok = await api(null, "POST", "/api/admin/user/twoFactorAuthenticate", { companyId: "RSL1", userName: DEMO.var.userName, code });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe("string");
    await db().update(schema.companySettings).set({ require2fa: false }).where(eq(schema.companySettings.companyId, 2));
  });

  it("counts sign-in codes sent at once one by one, and a code signs in once", async () => {
    await db().update(schema.companySettings).set({ require2fa: true }).where(eq(schema.companySettings.companyId, 2));
    const code2fa = async () => {
      expect((await api(null, "POST", LOGIN, DEMO.var)).status).toBe(402);
      const mail = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, "var@reseller.example"));
      return mail.at(-1)!.body.match(/\b(\d{6})\b/)![1];
    };
    const TFA = "/api/admin/user/twoFactorAuthenticate";
    const submit = (code: string) => api(null, "POST", TFA, { companyId: "RSL1", userName: DEMO.var.userName, code });
    // Twenty wrong guesses at once spend the code's five attempts: the right code is refused after them.
    let code = await code2fa();
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    await Promise.all(guesses.map(submit));
    await resetThrottles();
    expect((await submit(code)).status).toBe(401);
    // The right code sent twice at once signs in once.
    code = await code2fa();
    expect((await Promise.all([submit(code), submit(code)])).map((r) => r.status).sort()).toEqual([200, 401]);
    await resetThrottles();
    await db().update(schema.companySettings).set({ require2fa: false }).where(eq(schema.companySettings.companyId, 2));
  });

  it("sends the waiting sign-in code by text message instead, only after the password, and the texted code signs in", async () => {
    const TEXT = "/api/admin/user/sendTwoFactorCodeByText";
    const who = { companyId: "RSL1", userName: DEMO.var.userName };
    const refused = { status: 400, body: { message: "Sign in with your password first; then the code can be sent by text message" } };
    const vera = (await db().query.users.findFirst({ where: eq(schema.users.email, "var@reseller.example") }))!;
    await db().delete(schema.twoFactorCodes).where(eq(schema.twoFactorCodes.userId, vera.id));
    // No code waiting, or no such account: one answer, and nothing is texted.
    expect(await api(null, "POST", TEXT, who)).toMatchObject(refused);
    expect(await api(null, "POST", TEXT, { ...who, userName: "nobody@reseller.example" })).toMatchObject(refused);
    await db().update(schema.companySettings).set({ require2fa: true }).where(eq(schema.companySettings.companyId, 2));
    expect((await api(null, "POST", LOGIN, DEMO.var)).status).toBe(402);
    const mailed = (await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, "var@reseller.example"))).at(-1)!.body.match(/\b(\d{6})\b/)![1];
    const phone = vera.phoneNumber;
    const r = await api(null, "POST", TEXT, who);
    expect(r).toMatchObject({ status: 200, body: { message: "A new code has been sent to your phone by text message", payload: { channel: "text" } } });
    const texts = await textsTo(phone);
    const texted = /code is (\d{6})/.exec(texts.at(-1)!.body)![1];
    const TFA = "/api/admin/user/twoFactorAuthenticate";
    // The new code replaces the mailed one.
    if (mailed !== texted) expect((await api(null, "POST", TFA, { ...who, code: mailed })).status).toBe(401);
    expect((await api(null, "POST", TFA, { ...who, code: texted })).status).toBe(200);
    await db().update(schema.companySettings).set({ require2fa: false }).where(eq(schema.companySettings.companyId, 2));
  });

  it("throttles repeated failures of one client against one account with 429 and a clear message", async () => {
    for (let i = 0; i < THROTTLE.maxAccountClientFailures; i++) {
      expect((await api(null, "POST", LOGIN, { ...DEMO.acme, password: `bad-${i}` })).status).toBe(401);
    }
    const locked = await api(null, "POST", LOGIN, DEMO.acme);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/Too many failed sign-in attempts\. Try again in \d+ minutes?\./);
    // Another account from another client is not affected.
    const other = await api(null, "POST", LOGIN, DEMO.beta, { "CF-Connecting-IP": "203.0.113.9" });
    expect(other.status).toBe(200);
  });

  it("throttles a client that sprays many accounts", async () => {
    const ip = { "CF-Connecting-IP": "198.51.100.7" };
    for (let i = 0; i < THROTTLE.maxClientFailures; i++) {
      await api(null, "POST", LOGIN, { companyId: "ACME", userName: `nobody${i}@acme.example`, password: "x" }, ip);
    }
    const r = await api(null, "POST", LOGIN, DEMO.beta, ip);
    expect(r.status).toBe(429);
  });
});

describe("token use", () => {
  it("accepts the token bare and as Bearer", async () => {
    const token = await login("acme");
    const bare = await api(token, "GET", "/api/admin/user/getAllTimeZone");
    expect(bare.status).toBe(200);
    expect(bare.body.payload.length).toBeGreaterThan(400);
    expect(bare.body.payload[0]).toHaveProperty("full_time_zone");
    const bearer = await api(`Bearer ${token}`, "GET", "/api/admin/user/getUserPermissions?roleId=3");
    expect(bearer.status).toBe(200);
    expect(bearer.body.payload).toMatchObject({ permission_all: true, users: true, company: false });
  });

  it("refuses a missing, wrong or logged-out token with 401", async () => {
    expect((await api(null, "GET", "/api/admin/user/getAllTimeZone")).status).toBe(401);
    const wrong = await api("nope", "GET", "/api/admin/user/getAllTimeZone");
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("Access Denied. Error Code 90");
    const token = await login("acme");
    expect((await api(token, "POST", "/api/admin/user/logout")).status).toBe(200);
    expect((await api(token, "GET", "/api/admin/user/getAllTimeZone")).status).toBe(401);
  });

  it("refuses an id header that does not match the token's user", async () => {
    const token = await login("acme");
    expect((await api(token, "GET", "/api/admin/user/getAllTimeZone", undefined, { id: "3" })).status).toBe(200);
    expect((await api(token, "GET", "/api/admin/user/getAllTimeZone", undefined, { id: "4" })).status).toBe(401);
  });

  it("hides other companies' roles (404) and checks permissions (403)", async () => {
    const token = await login("acme");
    expect((await api(token, "GET", "/api/admin/user/getUserPermissions?roleId=5")).status).toBe(404);
    // BETA's admin role has no change_password-less variant; take the module away to see the 403.
    await db().delete(schema.roleModules).where(eq(schema.roleModules.roleId, 5));
    const beta = await login("beta");
    const r = await api(beta, "PUT", "/api/admin/user/resetPassword", { currentPassword: "x", newPassword: "y", confirmPassword: "y" });
    expect(r.status).toBe(403);
  });

  it("answers unknown paths with JSON 404 and wrong methods with 405", async () => {
    const r = await api(null, "GET", "/api/admin/user/noSuchCall");
    expect(r.status).toBe(404);
    expect(r.body.message).toContain("/api/admin/user/noSuchCall");
    expect((await api(null, "GET", "/api/admin/user/login")).status).toBe(405);
    expect((await api(null, "GET", "/api/elsewhere")).status).toBe(404);
  });
});

describe("audit calls", () => {
  it("records 'User Logs Out' through /api/user/createActivityLog", async () => {
    const token = await login("acme");
    const r = await api(token, "POST", "/api/user/createActivityLog", { operation_type: "Admin", summary: "idle", activity_description: "User Logs Out" });
    expect(r.status).toBe(200);
    const bad = await api(token, "POST", "/api/user/createActivityLog", { activity_description: "Not An Activity" });
    expect(bad.status).toBe(400);
    const foreignDevice = await api(token, "POST", "/api/user/createActivityLog", { activity_description: "User Logs Out", device_id: 13 });
    expect(foreignDevice.status).toBe(404);
  });
});

describe("OpenAPI", () => {
  it("publishes every registered call", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    expect(r.body.paths["/api/admin/user/login"].post).toBeDefined();
    expect(r.body.paths["/api/user/createActivityLog"].post).toBeDefined();
  });
});
