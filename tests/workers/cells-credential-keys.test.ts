/**
 * Credential keys per cell (docs/decisions/0051-credential-keys-per-cell.md). The suite's keys: `cell-b-key`
 * serves cell b alone, the second key every cell (vitest.workers.config.ts). A cell's gateway is given its
 * cell's keys and the untagged one; a phone's credentials are signed by the first key of its company's cell,
 * so ACME's are signed by the untagged key in main and by cell b's own key once ACME moved there.
 */
import { env } from "cloudflare:test";
import { and, eq, isNull } from "drizzle-orm";
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { api, consoleWorker, db, login, ORIGIN, schema } from "./helpers";

const ACME = 3;
const STAFF = 6;
const MAIN_SECRET = String(env.GATEWAY_SECRET);
const B_SECRET = "cell-b-keys-secret";
type Jwks = { keys: { kid: string; cell?: string; d?: string }[] };

const gatewayKeys = async (secret: string) => {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/credential-keys`, { headers: { Authorization: `Bearer ${secret}` } });
  return { status: res.status, body: (await res.json()) as Jwks };
};

/** ACME's staff member's phone credential for its one key. */
async function credential(): Promise<string> {
  const phone = { companyId: "ACME", userName: "staff.keys@acme.example", password: "Acme#Demo2026", installationId: "inst-cells-0001", appVersion: "1.4.0", language: "en" };
  const token = (await api(null, "POST", "/api/mobile/login", phone)).body.token;
  const r = await api(token, "GET", "/api/mobile/keys");
  expect(r.status).toBe(200);
  return r.body.payload.keys.find((k: { credential: unknown }) => k.credential).credential.token;
}

let untagged: string;

beforeAll(async () => {
  const hash = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(B_SECRET)))].map((b) => b.toString(16).padStart(2, "0")).join("");
  await db().insert(schema.gateways).values({ name: "cell-b", secretHash: hash, cell: "b" });
  await db().insert(schema.cells).values({ name: "b", mqttUrl: "mqtts://cell-b.example:8884" });
  const admin = await db().query.users.findFirst({ where: eq(schema.users.id, 3) });
  await db()
    .update(schema.users)
    .set({ passwordHash: admin!.passwordHash, email: "staff.keys@acme.example", isSentinel: false, isSuperAdmin: false, boundDeviceId: null })
    .where(eq(schema.users.id, STAFF));
  await db()
    .update(schema.companySettings)
    .set({ isMultiPhoneLogin: true, require2fa: false, passwordExpiryMonths: 0, biometricSecurity: false })
    .where(eq(schema.companySettings.companyId, ACME));
  const [door] = await db()
    .select({ id: schema.devices.id })
    .from(schema.devices)
    .where(and(eq(schema.devices.companyId, ACME), eq(schema.devices.status, "configured"), isNull(schema.devices.deletedAt)))
    .limit(1);
  await db().insert(schema.ekeyAssignments).values({ companyId: ACME, userId: STAFF, deviceId: door.id, accessType: "full_access", isNeverEnd: true, isAllDay: true });
  const published = (await (await consoleWorker.fetch(`${ORIGIN}/.well-known/keyless-credential-keys.json`)).json()) as Jwks;
  untagged = published.keys.find((k) => k.cell === undefined)!.kid;
});

describe("credential keys per cell", () => {
  it("gives each cell's gateway its own keys and the untagged ones, public halves only; the well-known set has every key", async () => {
    const published = (await (await consoleWorker.fetch(`${ORIGIN}/.well-known/keyless-credential-keys.json`)).json()) as Jwks;
    expect(published.keys.map((k) => [k.kid, k.cell])).toEqual([
      ["cell-b-key", "b"],
      [untagged, undefined],
    ]);
    const main = await gatewayKeys(MAIN_SECRET);
    const b = await gatewayKeys(B_SECRET);
    expect(main.status).toBe(200);
    expect(main.body.keys.map((k) => k.kid)).toEqual([untagged]);
    expect(b.body.keys.map((k) => k.kid)).toEqual(["cell-b-key", untagged]);
    expect([...main.body.keys, ...b.body.keys].every((k) => k.d === undefined)).toBe(true);
    expect((await gatewayKeys("not-a-gateway")).status).toBe(401);
  });

  it("signs a company's credentials with its cell's first key: the untagged one in main, cell b's own after the move", async () => {
    const before = await credential();
    expect(decodeProtectedHeader(before).kid).toBe(untagged);
    await compactVerify(before, createLocalJWKSet((await gatewayKeys(MAIN_SECRET)).body as never));

    expect((await api(await login("root"), "PUT", "/api/admin/company/setCompanyCell", { id: ACME, cell: "b" })).status).toBe(200);
    const after = await credential();
    expect(decodeProtectedHeader(after).kid).toBe("cell-b-key");
    await compactVerify(after, createLocalJWKSet((await gatewayKeys(B_SECRET)).body as never));
    // Main's gateways hold no key that verifies it.
    await expect(compactVerify(after, createLocalJWKSet((await gatewayKeys(MAIN_SECRET)).body as never))).rejects.toThrow();
  });
});
