/**
 * The biometric requirement, enforced by the console (docs/decisions/0039-biometric-claim.md): a phone
 * registers its platform authenticator's key, and a company that requires biometrics gets credentials
 * only with a fresh, verified WebAuthn assertion, which they then carry as `uv`. The authenticator here
 * is WebCrypto keys producing the same bytes a platform authenticator does.
 */
import { env } from "cloudflare:test";
import { and, eq, max } from "drizzle-orm";
import { decodeJwt } from "jose";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { consoleWorker, api, db, login, ORIGIN, resetThrottles, schema, workerNow } from "./helpers";

const ACME = 3;
const ADMIN = 3;
const STAFF = 6;
const PASSWORD = "Acme#Demo2026";
const M = "/api/mobile";
const RP_ID = new URL(ORIGIN).hostname;
const users = schema.users;
const authenticators = schema.phoneAuthenticators;
const GATEWAY_SECRET = String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET);

const b64url = (b: Uint8Array | ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(b)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const utf8 = (s: string) => new TextEncoder().encode(s);
const sha256 = async (b: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(b)));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** WebCrypto's ECDSA signature is r||s; WebAuthn's is DER. */
function rawToDer(raw: Uint8Array): Uint8Array {
  const int = (x: Uint8Array) => {
    let i = 0;
    while (i < x.length - 1 && x[i] === 0) i++;
    const v = x.slice(i);
    return v[0] & 0x80 ? concat(new Uint8Array([0x02, v.length + 1, 0]), v) : concat(new Uint8Array([0x02, v.length]), v);
  };
  const body = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

/** A platform authenticator: an ES256 key pair, its credential id and a sign counter. */
async function authenticator() {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const id = crypto.getRandomValues(new Uint8Array(32));
  return { keys, id, count: 0 };
}
type Authenticator = Awaited<ReturnType<typeof authenticator>>;

type Over = { type?: string; origin?: string; challenge?: string; flags?: number; rpId?: string; count?: number; tamper?: boolean };

async function registration(a: Authenticator, challenge: string, o: Over = {}) {
  const clientData = utf8(JSON.stringify({ type: o.type ?? "webauthn.create", challenge: o.challenge ?? challenge, origin: o.origin ?? ORIGIN, crossOrigin: false }));
  const attested = concat(new Uint8Array(16), new Uint8Array([0, a.id.length]), a.id, new Uint8Array([0xa0]));
  const authData = concat(await sha256(utf8(o.rpId ?? RP_ID)), new Uint8Array([o.flags ?? 0x45]), u32(0), attested);
  return {
    credentialId: b64url(a.id),
    clientDataJSON: b64url(clientData),
    authenticatorData: b64url(authData),
    publicKey: b64url(await crypto.subtle.exportKey("spki", a.keys.publicKey)),
    publicKeyAlgorithm: -7,
  };
}

async function assertion(a: Authenticator, challenge: string, o: Over = {}) {
  a.count += 1;
  const clientData = utf8(JSON.stringify({ type: o.type ?? "webauthn.get", challenge: o.challenge ?? challenge, origin: o.origin ?? ORIGIN, crossOrigin: false }));
  const authData = concat(await sha256(utf8(o.rpId ?? RP_ID)), new Uint8Array([o.flags ?? 0x05]), u32(o.count ?? a.count));
  const signed = concat(authData, await sha256(o.tamper ? utf8("something else") : clientData));
  const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, a.keys.privateKey, signed));
  return { credentialId: b64url(a.id), clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(rawToDer(raw)) };
}

const phoneLogin = async (userName: string, installationId: string) => {
  const r = await api(null, "POST", `${M}/login`, { companyId: "ACME", userName, password: PASSWORD, installationId, appVersion: "1.4.0", language: "en" });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token as string;
};
const challenge = async (token: string, purpose: "create" | "get") => {
  const r = await api(token, "POST", `${M}/webauthn/challenge`, { purpose });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.payload as { challenge: string; rpId: string; credentialId: string | null; expiresAt: number };
};
async function register(token: string, a: Authenticator) {
  const r = await api(token, "POST", `${M}/webauthn/register`, await registration(a, (await challenge(token, "create")).challenge));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}
const keysWith = async (token: string, body: unknown) => api(token, "POST", `${M}/keys`, body);
const credentialsOf = (r: { body: any }) =>
  (r.body.payload.keys as { credential: { token: string } | null }[]).flatMap((k) => (k.credential ? [decodeJwt(k.credential.token)] : []));

async function setBiometric(on: boolean) {
  await db().update(schema.companySettings).set({ biometricSecurity: on, isMultiPhoneLogin: false }).where(eq(schema.companySettings.companyId, ACME));
}

beforeAll(async () => {
  const admin = await db().query.users.findFirst({ where: eq(users.id, ADMIN) });
  await db().update(users).set({ passwordHash: admin!.passwordHash, email: "staff.bio@acme.example", isSentinel: false, isSuperAdmin: false }).where(eq(users.id, STAFF));
});

beforeEach(async () => {
  await resetThrottles();
  await setBiometric(true);
  await db()
    .update(users)
    .set({ boundDeviceId: null, isInactive: false, passwordChangedAt: workerNow() })
    .where(and(eq(users.companyId, ACME)));
  await db().delete(schema.sessions).where(eq(schema.sessions.kind, "mobile"));
  await db().delete(authenticators);
});

describe("biometric requirement", () => {
  it("registers the phone, then signs credentials only with a fresh verified assertion, which they carry as uv", async () => {
    const token = await phoneLogin("staff.bio@acme.example", "inst-bio-A-0001");
    const a = await authenticator();
    expect((await challenge(token, "create")).rpId).toBe(RP_ID);
    await register(token, a);
    const row = await db().query.phoneAuthenticators.findFirst({ where: eq(authenticators.userId, STAFF) });
    expect(row).toMatchObject({ companyId: ACME, installationId: "inst-bio-A-0001", credentialId: b64url(a.id), algorithm: -7, signCount: 0 });
    const got = await challenge(token, "get");
    expect(got.credentialId).toBe(b64url(a.id));

    // No assertion: a clear refusal, and no credential leaves the console.
    for (const r of [await api(token, "GET", `${M}/keys`), await keysWith(token, {})]) {
      expect([r.status, r.body.message, r.body.errorCode]).toEqual([403, "Biometric verification required", "biometric-required"]);
      expect(JSON.stringify(r.body)).not.toContain("kac+jws");
      expect(r.body.payload).toBeUndefined();
    }

    const now = workerNow();
    const ok = await keysWith(token, { assertion: await assertion(a, got.challenge) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const claims = credentialsOf(ok);
    expect(claims.length).toBeGreaterThan(0);
    for (const c of claims) expect(Math.abs((c.uv as number) - Math.floor(now / 1000))).toBeLessThanOrEqual(5);
    expect((await db().query.phoneAuthenticators.findFirst({ where: eq(authenticators.userId, STAFF) }))!.signCount).toBe(1);
  });

  it("refuses wrong and replayed challenges, another origin or RP, the UV flag off, a bad signature, a counter going back and another user's credential", async () => {
    const token = await phoneLogin("staff.bio@acme.example", "inst-bio-A-0001");
    const a = await authenticator();
    await register(token, a);
    const refused = async (body: unknown, reason: string) => {
      const r = await keysWith(token, { assertion: body });
      expect([r.status, r.body.message, r.body.errorCode, r.body.payload?.reason]).toEqual([403, "Biometric verification failed", "biometric-failed", reason]);
    };

    await refused(await assertion(a, b64url(crypto.getRandomValues(new Uint8Array(32)))), "challenge");
    const first = await challenge(token, "get");
    const used = await assertion(a, first.challenge);
    expect((await keysWith(token, { assertion: used })).status).toBe(200);
    await refused(used, "challenge");
    await refused(await assertion(a, (await challenge(token, "get")).challenge, { origin: "https://evil.test" }), "origin");
    await refused(await assertion(a, (await challenge(token, "get")).challenge, { type: "webauthn.create" }), "type");
    await refused(await assertion(a, (await challenge(token, "get")).challenge, { rpId: "evil.test" }), "rp");
    await refused(await assertion(a, (await challenge(token, "get")).challenge, { flags: 0x01 }), "flags");
    await refused(await assertion(a, (await challenge(token, "get")).challenge, { tamper: true }), "signature");
    // A challenge issued for registration is not one for an assertion.
    await refused(await assertion(a, (await challenge(token, "create")).challenge), "challenge");
    await refused(await assertion(a, (await challenge(token, "get")).challenge, { count: 1 }), "counter");
    // A challenge lives two minutes.
    const stale = await challenge(token, "get");
    await db()
      .update(schema.webauthnChallenges)
      .set({ expiresAt: workerNow() - 1 })
      .where(eq(schema.webauthnChallenges.challenge, stale.challenge));
    await refused(await assertion(a, stale.challenge), "challenge");
    // A refused attempt spends its challenge too.
    const once = await challenge(token, "get");
    await refused(await assertion(a, once.challenge, { flags: 0x01 }), "flags");
    await refused(await assertion(a, once.challenge), "challenge");

    // Another user's authenticator, however valid, is not this phone's.
    const other = await phoneLogin("admin@acme.example", "inst-bio-B-0002");
    const b = await authenticator();
    await register(other, b);
    await refused(await assertion(b, (await challenge(token, "get")).challenge), "credential");
    // A challenge of another session is not this session's.
    await refused(await assertion(a, (await challenge(other, "get")).challenge), "challenge");

    expect((await keysWith(token, { assertion: await assertion(a, (await challenge(token, "get")).challenge) })).status).toBe(200);
  });

  it("registers only a user-verified credential created for this origin and challenge", async () => {
    const token = await phoneLogin("staff.bio@acme.example", "inst-bio-A-0001");
    const a = await authenticator();
    const refused = async (over: Over, reason: string) => {
      const c = (await challenge(token, "create")).challenge;
      const r = await api(token, "POST", `${M}/webauthn/register`, await registration(a, c, over));
      expect([r.status, r.body.message, r.body.errorCode, r.body.payload?.reason]).toEqual([400, "Biometric registration failed", "biometric-registration-failed", reason]);
    };
    await refused({ flags: 0x41 }, "flags");
    await refused({ origin: "https://evil.test" }, "origin");
    await refused({ type: "webauthn.get" }, "type");
    await refused({ challenge: "bm90LWEtY2hhbGxlbmdl" }, "challenge");
    const c = (await challenge(token, "create")).challenge;
    const r = await api(token, "POST", `${M}/webauthn/register`, { ...(await registration(a, c)), publicKey: b64url(utf8("not a key")) });
    expect(r.body.payload?.reason).toBe("key");
    expect((await api(token, "POST", `${M}/webauthn/register`, { ...(await registration(a, c)), publicKeyAlgorithm: -999 })).status).toBe(400);
    expect(await db().query.phoneAuthenticators.findFirst({ where: eq(authenticators.userId, STAFF) })).toBeUndefined();
  });

  it("changes nothing when the company does not require biometrics; forget device drops the registration", async () => {
    await setBiometric(false);
    const token = await phoneLogin("staff.bio@acme.example", "inst-bio-A-0001");
    const plain = await api(token, "GET", `${M}/keys`);
    expect(plain.status).toBe(200);
    const claims = credentialsOf(plain);
    expect(claims.length).toBeGreaterThan(0);
    for (const c of claims) expect(c.uv).toBeUndefined();

    const a = await authenticator();
    await register(token, a);
    const admin = await login("acme");
    expect((await api(admin, "DELETE", `/api/admin/user/forgetDevice?id=${STAFF}`)).status).toBe(200);
    expect(await db().query.phoneAuthenticators.findFirst({ where: eq(authenticators.userId, STAFF) })).toBeUndefined();
  });

  it("tells the gateways: switching the requirement puts the company record on the feed with biometricRequired", async () => {
    const changes = async (cursor: string) => {
      const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?cursor=${cursor}`, { headers: { Authorization: `Bearer ${GATEWAY_SECRET}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as { cursor: string; changes: { type: string; id: string; data?: Record<string, unknown> }[] };
    };
    const [head] = await db()
      .select({ seq: max(schema.gatewayChanges.seq) })
      .from(schema.gatewayChanges);
    await setBiometric(false);
    const off = await changes(String(head.seq ?? 0));
    expect(off.changes.find((c) => c.type === "company" && c.id === "ACME")?.data).toMatchObject({ active: true, biometricRequired: false });
    await setBiometric(true);
    const on = await changes(off.cursor);
    expect(on.changes.find((c) => c.type === "company" && c.id === "ACME")?.data).toMatchObject({ active: true, biometricRequired: true });
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await api(null, "GET", "/api/openapi.json")).body;
    for (const path of ["/api/mobile/webauthn/challenge", "/api/mobile/webauthn/register"]) expect(doc.paths[path]).toBeDefined();
    expect(doc.paths["/api/mobile/keys"].post).toBeDefined();
  });
});
