// @clock: a credential ends at the end of today's key; scripts/test.sh runs this file again half an hour before the DST switch.
import { desc, eq } from "drizzle-orm";
import { compactVerify, createLocalJWKSet, decodeJwt } from "jose";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import coreModule from "~core/core.wasm";
import { createCore, type AccessWindow } from "~core";
import { api, consoleWorker, db, fromEveryLog, login, ORIGIN, resetThrottles, schema, workerNow, textsTo } from "./helpers";

// Demo ids (db/seed/demo.ts): ACME is company 3 (admin user 3), staff user 6, devices 1–12, groups 1–4;
// BETA device 13; the root company's admin signs in as ROOT / root@example.com.
const ACME = 3;
const STAFF = 6;
const BETA_DEVICE = 13;
const PASSWORD = "Acme#Demo2026";
const phone = (over: Record<string, unknown> = {}) => ({
  companyId: "ACME",
  userName: "staff.phone@acme.example",
  password: PASSWORD,
  installationId: "inst-phone-A-0001",
  appVersion: "1.4.0",
  language: "es",
  ...over,
});
const M = "/api/mobile";
const users = schema.users;
const settings = schema.companySettings;

async function setSettings(values: Partial<typeof settings.$inferInsert>) {
  await db().update(settings).set(values).where(eq(settings.companyId, ACME));
}

beforeAll(async () => {
  // The staff user gets the admin's password and an address of its own (a phone user with no console rights).
  const admin = await db().query.users.findFirst({ where: eq(users.id, 3) });
  await db().update(users).set({ passwordHash: admin!.passwordHash, email: "staff.phone@acme.example", isSentinel: false, isSuperAdmin: false }).where(eq(users.id, STAFF));
});

beforeEach(async () => {
  await resetThrottles();
  await setSettings({ isMultiPhoneLogin: false, require2fa: false, passwordExpiryMonths: 0, offlineReconnectHours: 24, ekeyDurationHours: 24, biometricSecurity: false });
  await db().update(users).set({ boundDeviceId: null, isInactive: false, passwordChangedAt: workerNow() }).where(eq(users.id, STAFF));
  await db().delete(schema.sessions).where(eq(schema.sessions.userId, STAFF));
});

describe("mobile sign-in", () => {
  it("answers the spec's texts: update required, root company, de-activated, expired password", async () => {
    let r = await api(null, "POST", `${M}/login`, phone({ appVersion: "0.9.9" }));
    expect([r.status, r.body.message]).toEqual([426, "App update required, check the store"]);

    r = await api(null, "POST", `${M}/login`, phone({ companyId: "ROOT", userName: "root@example.com", password: "Root#Demo2026" }));
    expect([r.status, r.body.message]).toEqual([403, "You cannot log into the root company from the mobile app"]);

    await db().update(users).set({ isInactive: true }).where(eq(users.id, STAFF));
    r = await api(null, "POST", `${M}/login`, phone());
    expect([r.status, r.body.message]).toEqual([401, "Your account has been de-activated"]);
    await db().update(users).set({ isInactive: false }).where(eq(users.id, STAFF));

    await setSettings({ passwordExpiryMonths: 1 });
    await db()
      .update(users)
      .set({ passwordChangedAt: workerNow() - 40 * 86_400_000 })
      .where(eq(users.id, STAFF));
    r = await api(null, "POST", `${M}/login`, phone());
    expect([r.status, r.body.message]).toEqual([401, "Your password has expired, please reset it"]);

    r = await api(null, "POST", `${M}/login`, phone({ password: "wrong password" }));
    expect([r.status, r.body.message]).toEqual([401, "Incorrect Company ID, Username, or Password"]);
    r = await api(null, "POST", `${M}/login`, phone({ installationId: "x" }));
    expect(r.status).toBe(400);
  });

  it("binds one phone when multi-phone login is off; forget device releases it and ends that phone's session", async () => {
    const a = await api(null, "POST", `${M}/login`, phone());
    expect(a.status).toBe(200);
    expect(a.body.payload.settings).toMatchObject({ multiPhoneLogin: false, biometricRequired: false });
    expect((await db().query.users.findFirst({ where: eq(users.id, STAFF) }))!.boundDeviceId).toBe("inst-phone-A-0001");

    const b = await api(null, "POST", `${M}/login`, phone({ installationId: "inst-phone-B-0002" }));
    expect([b.status, b.body.message]).toEqual([409, "You can only log in with a single device"]);
    expect((await api(null, "POST", `${M}/login`, phone())).status).toBe(200); // the bound phone again

    const admin = await login("acme");
    expect((await api(admin, "DELETE", `/api/admin/user/forgetDevice?id=${STAFF}`)).status).toBe(200);
    expect((await api(a.body.token, "GET", `${M}/keys`)).status).toBe(401);
    const b2 = await api(null, "POST", `${M}/login`, phone({ installationId: "inst-phone-B-0002" }));
    expect(b2.status).toBe(200);
  });

  it("lets several phones in when multi-phone login is on, and reports the biometric requirement", async () => {
    await setSettings({ isMultiPhoneLogin: true, biometricSecurity: true });
    const a = await api(null, "POST", `${M}/login`, phone());
    const b = await api(null, "POST", `${M}/login`, phone({ installationId: "inst-phone-B-0002" }));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.payload.settings).toMatchObject({ multiPhoneLogin: true, biometricRequired: true });
    expect((await db().query.users.findFirst({ where: eq(users.id, STAFF) }))!.boundDeviceId).toBeNull();
  });

  it("asks for the second factor as the console does, then signs the phone in with the mailed code", async () => {
    await setSettings({ require2fa: true });
    const r = await api(null, "POST", `${M}/login`, phone());
    expect([r.status, r.body.message]).toEqual([402, "Two Factor Authentication is required to login"]);
    const [mail] = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, "staff.phone@acme.example")).orderBy(desc(schema.mailOutbox.id)).limit(1);
    const code = /(\d{6})/.exec(mail.body)![1];
    const { password: _, ...rest } = phone();
    const ok = await api(null, "POST", `${M}/twoFactorAuthenticate`, { ...rest, code });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe("string");
  });

  it("sends the phone's waiting code by text message instead; the texted code signs the phone in, the mailed one no longer does", async () => {
    const TEXT = `${M}/sendTwoFactorCodeByText`;
    const who = { companyId: "ACME", userName: "staff.phone@acme.example" };
    const staff = (await db().query.users.findFirst({ where: eq(users.id, STAFF) }))!;
    await db().delete(schema.twoFactorCodes).where(eq(schema.twoFactorCodes.userId, STAFF));
    const refused = { status: 400, body: { message: "Sign in with your password first; then the code can be sent by text message" } };
    expect(await api(null, "POST", TEXT, who)).toMatchObject(refused);
    await setSettings({ require2fa: true });
    const r = await api(null, "POST", `${M}/login`, phone());
    // The 402 names where the code went, for the phone's code screen.
    expect(r.body).toMatchObject({ errorCode: "2fa-required", payload: { e_mail: "staff.phone@acme.example", phoneNumber: `***-***-${staff.phoneNumber!.slice(-4)}` } });
    const [mail] = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, "staff.phone@acme.example")).orderBy(desc(schema.mailOutbox.id)).limit(1);
    const mailed = /(\d{6})/.exec(mail.body)![1];
    const sent = await api(null, "POST", TEXT, who);
    expect(sent).toMatchObject({ status: 200, body: { message: "A new code has been sent to your phone by text message", payload: { channel: "text" } } });
    const texts = await textsTo(staff.phoneNumber);
    // The text is written in the company's language.
    const texted = /(?:code is|código de acceso es) (\d{6})/.exec(texts.at(-1)!.body)![1];
    const { password: _, ...rest } = phone();
    if (mailed !== texted) expect((await api(null, "POST", `${M}/twoFactorAuthenticate`, { ...rest, code: mailed })).body.errorCode).toBe("bad-code");
    const ok = await api(null, "POST", `${M}/twoFactorAuthenticate`, { ...rest, code: texted });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe("string");
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await api(null, "GET", "/api/openapi.json")).body;
    for (const path of [
      "/api/mobile/login",
      "/api/mobile/twoFactorAuthenticate",
      "/api/mobile/sendTwoFactorCodeByText",
      "/api/mobile/keys",
      "/api/mobile/activity",
      "/api/mobile/logout",
    ])
      expect(doc.paths[path]).toBeDefined();
  });

  it("keeps phone tokens and console tokens apart", async () => {
    const mobile = (await api(null, "POST", `${M}/login`, phone())).body.token;
    const admin = await login("acme");
    expect((await api(admin, "GET", `${M}/keys`)).status).toBe(401);
    expect((await api(mobile, "GET", "/api/admin/user/getUserPermissions?roleId=3")).status).toBe(401);
    expect((await api(`Bearer ${mobile}`, "GET", `${M}/keys`)).status).toBe(200);
  });

  it("opens a support ticket with the phone's own session", async () => {
    const mobile = (await api(null, "POST", `${M}/login`, phone())).body.token;
    const ticket = {
      brand: "Google",
      phoneModel: "Pixel 9",
      softwareVersion: "Android 15",
      appVersion: "1.4.0",
      latitude: 40.4168,
      longitude: -3.7038,
      devices: [{ deviceId: 1, kind: "device", visible: true }],
    };
    const r = await api(mobile, "POST", `${M}/support/createTicket`, ticket);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = await db().query.supportTickets.findFirst({ where: eq(schema.supportTickets.id, r.body.payload.id) });
    expect(row).toMatchObject({ companyId: ACME, userId: STAFF, phoneModel: "Pixel 9" });
    expect((await api(mobile, "POST", `${M}/support/createTicket`, { ...ticket, devices: [{ deviceId: BETA_DEVICE, kind: "device" }] })).body.message).toBe(
      "This device does not belong to your company",
    );
  });
});

describe("keys and offline credentials", () => {
  async function addKey(values: Partial<typeof schema.ekeyAssignments.$inferInsert>) {
    const [row] = await db()
      .insert(schema.ekeyAssignments)
      .values({ companyId: ACME, userId: STAFF, isGroup: false, deviceId: 2, accessType: "full_access", scheduleDays: "1111111", isNeverEnd: true, isAllDay: true, ...values })
      .returning();
    return row.id;
  }

  it("issues a signed credential per key, verifiable with the published keys, bounded by the phone settings and the key's end", async () => {
    await setSettings({ offlineReconnectHours: 3, ekeyDurationHours: 5 });
    const full = await addKey({});
    const token = (await api(null, "POST", `${M}/login`, phone())).body.token;
    const r = await api(token, "GET", `${M}/keys`);
    expect(r.status).toBe(200);
    const key = r.body.payload.keys.find((k: { id: number }) => k.id === full);
    expect(key).toMatchObject({ kind: "ekey", openNow: true, doors: [{ id: 2 }] });

    const jwks = await (await consoleWorker.fetch(`${ORIGIN}/.well-known/keyless-credential-keys.json`)).json<{ keys: { kid: string; d?: string }[] }>();
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
    const verified = await compactVerify(key.credential.token, createLocalJWKSet(jwks as never));
    expect(verified.protectedHeader).toMatchObject({ alg: "EdDSA", typ: "kac+jws" });
    const claims = decodeJwt(key.credential.token) as Record<string, any>;
    expect(claims).toMatchObject({ v: 1, sub: String(STAFF), cid: "ACME", key: { id: String(full), kind: "ekey" }, doors: ["2"], pid: "inst-phone-A-0001" });
    expect(claims.win).toEqual(key.window);
    // The shorter of offline reconnect (3 h) and temporary e-key duration (5 h).
    expect(claims.exp - claims.iat).toBe(3 * 3600);
    expect(r.body.payload.refreshBy - r.body.payload.now).toBe(3 * 3_600_000);

    await setSettings({ offlineReconnectHours: 24, ekeyDurationHours: 2 });
    const again = (await api(token, "GET", `${M}/keys`)).body.payload.keys.find((k: { id: number }) => k.id === full);
    const c2 = decodeJwt(again.credential.token) as { iat: number; exp: number };
    expect(c2.exp - c2.iat).toBe(2 * 3600);
  });

  it("bounds a credential by the key's own end and issues none for a key that never opens again", async () => {
    const now = workerNow();
    const today = new Date(now).toISOString().slice(0, 10);
    const utc = (await db().query.timeZones.findFirst({ where: eq(schema.timeZones.name, "UTC") }))!.id;
    // Open the whole of today (UTC) and never after: the credential ends at midnight UTC at the latest.
    const endsToday = await addKey({ accessType: "custom_access", startDate: today, endDate: today, isNeverEnd: false, isAllDay: true, timeZoneId: utc, deviceId: 3 });
    const over = await addKey({ accessType: "custom_access", startDate: "2020-01-01", endDate: "2020-01-31", isNeverEnd: false, isAllDay: true, timeZoneId: utc, deviceId: 4 });
    const token = (await api(null, "POST", `${M}/login`, phone())).body.token;
    const keys = (await api(token, "GET", `${M}/keys`)).body.payload.keys;
    const a = keys.find((k: { id: number }) => k.id === endsToday);
    const midnight = Date.parse(`${today}T00:00:00Z`) + 86_400_000;
    expect(a.openNow).toBe(true);
    expect(a.credential.expiresAt).toBeLessThanOrEqual(midnight);
    expect(a.credential.expiresAt).toBe(Math.min(midnight, Math.floor((now + 24 * 3_600_000) / 1000) * 1000));
    const b = keys.find((k: { id: number }) => k.id === over);
    expect([b.openNow, b.nextOpen, b.credential]).toEqual([false, null, null]);
  });

  it("carries the calendar's closed holiday inside the credential's life: the signed window refuses on that date and opens the day before", async () => {
    // A 72-hour credential; the holiday is the UTC date two days from now, so it and the day before lie wholly inside it.
    await setSettings({ offlineReconnectHours: 72, ekeyDurationHours: 72 });
    const now = workerNow();
    const DAY = 86_400_000;
    const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10);
    const holiday = dateOf(now + 2 * DAY);
    const dayBefore = dateOf(now + DAY);
    const admin = await login("acme");
    const calendar = (await api(admin, "POST", "/api/admin/holidays/addCalendar", { name: `Phone holidays ${now}` })).body.payload.id as number;
    expect((await api(admin, "POST", "/api/admin/holidays/saveDate", { calendarId: calendar, date: holiday, name: "Closing day" })).status).toBe(200);
    const utc = (await db().query.timeZones.findFirst({ where: eq(schema.timeZones.name, "UTC") }))!.id;
    // Every day, all day, from today, never ending; shut on the calendar's holidays ("not on holidays").
    const key = await addKey({
      accessType: "custom_access",
      startDate: dateOf(now),
      isNeverEnd: true,
      isAllDay: true,
      timeZoneId: utc,
      deviceId: 7,
      onHolidays: "closed",
      holidayCalendarId: calendar,
    });
    const token = (await api(null, "POST", `${M}/login`, phone())).body.token;
    const issued = (await api(token, "GET", `${M}/keys`)).body.payload.keys.find((k: { id: number }) => k.id === key);
    expect(issued.credential).not.toBeNull();

    // The signature holds (the published keys), and the claims carry the date and the choice.
    const jwks = await (await consoleWorker.fetch(`${ORIGIN}/.well-known/keyless-credential-keys.json`)).json();
    const claims = JSON.parse(new TextDecoder().decode((await compactVerify(issued.credential.token, createLocalJWKSet(jwks as never))).payload)) as {
      iat: number;
      exp: number;
      win: AccessWindow;
      key: { id: string };
    };
    expect(claims.win).toMatchObject({ onHolidays: "closed", holidays: [{ date: holiday, name: "Closing day" }] });
    const noonBefore = Date.parse(`${dayBefore}T12:00:00Z`);
    const noonOn = Date.parse(`${holiday}T12:00:00Z`);
    expect(claims.iat * 1000).toBeLessThan(Date.parse(`${dayBefore}T00:00:00Z`));
    expect(claims.exp * 1000).toBeGreaterThanOrEqual(Date.parse(`${holiday}T00:00:00Z`) + DAY);

    // A board decides the signed window with the same core (gateway/src/access/credential.js verifyCredential):
    // it opens at noon the day before and refuses at noon on the holiday, naming it.
    const core = createCore(coreModule);
    const decide = (at: number) => core.decide([{ id: claims.key.id, label: "key", window: claims.win }], at);
    expect(decide(noonBefore).allowed).toBe(true);
    const refused = decide(noonOn);
    expect(refused.allowed).toBe(false);
    expect(refused.reason).toContain("Closing day");
    // The next opening is the holiday's end: midnight UTC after it.
    expect(refused.nextOpen).toBe(Date.parse(`${holiday}T00:00:00Z`) + DAY);
  });

  it("lists group keys with the group's doors", async () => {
    const group = await addKey({ isGroup: true, deviceId: null, groupId: 1 });
    const token = (await api(null, "POST", `${M}/login`, phone())).body.token;
    const key = (await api(token, "GET", `${M}/keys`)).body.payload.keys.find((k: { id: number }) => k.id === group);
    const members = await db().select().from(schema.deviceGroupMembers).where(eq(schema.deviceGroupMembers.groupId, 1));
    expect(key.kind).toBe("group");
    expect(key.doors.map((d: { id: number }) => d.id).sort()).toEqual(members.map((m) => m.deviceId).sort());
    if (key.credential) expect((decodeJwt(key.credential.token) as { grp: string }).grp).toBe("1");
  });
});

describe("app activity", () => {
  it("stores each reported unlock once, rejects other companies' doors, marks a one-time key used and shows the caller's history", async () => {
    const [oneTime] = await db()
      .insert(schema.ekeyAssignments)
      .values({
        companyId: ACME,
        userId: STAFF,
        isGroup: false,
        deviceId: 5,
        accessType: "one_time_access",
        status: "2",
        scheduleDays: "1111111",
        isNeverEnd: true,
        isAllDay: true,
        startDate: "2026-01-01",
      })
      .returning();
    const token = (await api(null, "POST", `${M}/login`, phone())).body.token;
    const at = workerNow();
    const events = [
      { eventId: "ev-1", type: "unlock", deviceId: 5, keyId: oneTime.id, allowed: true, reason: "ok", at },
      { eventId: "ev-2", type: "unlock", deviceId: 5, allowed: false, reason: "outside_schedule", at: new Date(at + 1000).toISOString() },
      { eventId: "ev-3", type: "unlock", deviceId: BETA_DEVICE, allowed: true, at },
    ];
    const r = await api(token, "POST", `${M}/activity`, { events });
    expect(r.status).toBe(200);
    expect(r.body.payload).toEqual({ accepted: 2, duplicates: 0, rejected: [{ eventId: "ev-3", reason: "unknown device" }] });
    const again = await api(token, "POST", `${M}/activity`, { events: events.slice(0, 2) });
    expect(again.body.payload).toEqual({ accepted: 0, duplicates: 2, rejected: [] });

    const stored = await fromEveryLog((log) => log.select().from(schema.activityLogs).where(eq(schema.activityLogs.createdByUserId, STAFF)));
    const app = stored.filter((s) => s.eventId?.startsWith(`app/${STAFF}/`));
    expect(app.map((s) => [s.eventId, s.operationType]).sort()).toEqual([
      [`app/${STAFF}/ev-1`, "App"],
      [`app/${STAFF}/ev-2`, "App"],
    ]);
    expect((await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.id, oneTime.id) }))!.usedAt).toBe(at);
    expect(stored.some((s) => s.targetDeviceId === BETA_DEVICE)).toBe(false);

    const mine = await api(token, "GET", `${M}/activity?page=1&pageSize=10`);
    expect(mine.status).toBe(200);
    const names = mine.body.payload.rows.map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining(["Unlocked With App", "App Access Denied", "User Logs In"]));

    const bad = await api(token, "POST", `${M}/activity`, { events: [{ ...events[0], eventId: "has space" }] });
    expect(bad.status).toBe(400);
  });

  it("signs out: the token stops working", async () => {
    const token = (await api(null, "POST", `${M}/login`, phone())).body.token;
    expect((await api(token, "POST", `${M}/logout`)).status).toBe(200);
    expect((await api(token, "GET", `${M}/keys`)).status).toBe(401);
  });
});
