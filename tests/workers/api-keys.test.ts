import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { limitCaller, RATE_LIMITS, type RateLimitEnv } from "../../app/utils/rate-limit.server";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, schema, workerNow } from "./helpers";

const BASE = "/api/admin";
const ACME = 3;
const ACME_ADMIN_USER = 3;

let acme: string;
let keyMaker: string;

const keyBody = (over: Record<string, unknown> = {}) => ({
  name: "HR sync",
  modules: ["role"],
  permission_add: false,
  permission_modify: false,
  permission_delete: false,
  expires_in_days: null,
  ...over,
});
const bearer = (key: string) => `Bearer ${key}`;

async function createKey(token: string, over: Record<string, unknown> = {}): Promise<{ id: number; key: string }> {
  const r = await api(token, "POST", `${BASE}/apiKey/createApiKey`, keyBody(over));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.payload;
}

// A role a key holding only the role module may create: nobody grants a module they lack.
const roleBody = (title: string) => ({ role_title: title, permission_view: true, permission_module: { role: true } });

/** An ACME person who holds company settings and roles with the add action only (no modify, no delete, no users). */
async function keyMakerLogin(): Promise<string> {
  const [r] = await db().insert(schema.roles).values({ companyId: ACME, title: "Key Maker", permissionAdd: true, permissionView: true }).returning({ id: schema.roles.id });
  await db()
    .insert(schema.roleModules)
    .values(["company_settings", "role"].map((m) => ({ roleId: r.id, companyId: ACME, moduleKey: m })));
  const hash = (await db().query.users.findFirst({ where: eq(schema.users.id, ACME_ADMIN_USER) }))!.passwordHash;
  await db().insert(schema.users).values({
    companyId: ACME,
    roleId: r.id,
    firstName: "Kay",
    lastName: "Maker",
    displayName: "Maker, Kay",
    email: "keys@acme.example",
    passwordHash: hash,
    passwordChangedAt: workerNow(),
    isSentinel: true,
  });
  const res = await api(null, "POST", `${BASE}/user/login`, { companyId: "ACME", userName: "keys@acme.example", password: "Acme#Demo2026" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

beforeAll(async () => {
  [acme, keyMaker] = await Promise.all([login("acme"), keyMakerLogin()]);
});

describe("API keys: scopes", () => {
  it("a view-only key reads but cannot write (403, nothing created)", async () => {
    const { key } = await createKey(acme, { name: "Reader" });
    expect((await api(bearer(key), "GET", `${BASE}/user/getRoles`)).status).toBe(200);
    const w = await api(bearer(key), "POST", `${BASE}/user/createRole`, roleBody("By a reader"));
    expect(w.status).toBe(403);
    expect(await db().query.roles.findFirst({ where: eq(schema.roles.title, "By a reader") })).toBeUndefined();
    // Outside its modules it reads nothing either.
    expect((await api(bearer(key), "GET", `${BASE}/user/getAllUsers`)).status).toBe(403);
  });

  it("nobody creates a key with more than they hold, and a key never exceeds its creator later", async () => {
    // A module the creator lacks, and an action the creator lacks: refused, nothing stored.
    for (const over of [{ modules: ["users"] }, { modules: ["role"], permission_delete: true }]) {
      const r = await api(keyMaker, "POST", `${BASE}/apiKey/createApiKey`, keyBody({ name: "Too much", ...over }));
      expect(r.status, JSON.stringify(over)).toBe(403);
    }
    expect(await db().query.apiKeys.findFirst({ where: eq(schema.apiKeys.name, "Too much") })).toBeUndefined();
    // Within the creator's rights: made, and it writes.
    const { key } = await createKey(keyMaker, { name: "Role writer", modules: ["role"], permission_add: true });
    expect((await api(bearer(key), "POST", `${BASE}/user/createRole`, roleBody("By a key of Kay"))).status).toBe(200);
    // The creator loses the add right: so does the key.
    const maker = (await db().query.roles.findFirst({ where: eq(schema.roles.title, "Key Maker") }))!;
    await db().update(schema.roles).set({ permissionAdd: false }).where(eq(schema.roles.id, maker.id));
    expect((await api(bearer(key), "POST", `${BASE}/user/createRole`, roleBody("After the loss"))).status).toBe(403);
    await db().update(schema.roles).set({ permissionAdd: true }).where(eq(schema.roles.id, maker.id));
  });

  it("a key is refused on the caller's own account and cannot manage keys", async () => {
    const { key } = await createKey(acme, { name: "Admin-ish", modules: ["company_settings", "role"], permission_add: true, permission_delete: true });
    expect((await api(bearer(key), "POST", `${BASE}/user/logout`)).status).toBe(403);
    expect((await api(bearer(key), "POST", `${BASE}/apiKey/createApiKey`, keyBody({ name: "Child" }))).status).toBe(403);
    expect((await api(bearer(key), "GET", `${BASE}/apiKey/getApiKeys`)).status).toBe(403);
  });

  it("the permission is checked before the body: a view-only key sending garbage hears 403, not 400", async () => {
    const { key } = await createKey(acme, { name: "Garbage" });
    expect((await api(bearer(key), "POST", `${BASE}/user/createRole`, "{not json")).status).toBe(403);
  });
});

describe("API keys: lifecycle", () => {
  it("shows the key once, stores only its keyed hash, and lists it with its last use", async () => {
    const made = await createKey(acme, { name: "Listed", expires_in_days: 30 });
    expect(made.key).toMatch(/^kla_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    const row = (await db().query.apiKeys.findFirst({ where: eq(schema.apiKeys.id, made.id) }))!;
    expect(row.secretHash).toMatch(/^hmac-sha256\$/);
    expect(JSON.stringify(row)).not.toContain(made.key.slice(18));
    await api(bearer(made.key), "GET", `${BASE}/user/getRoles`);
    const list = await api(acme, "GET", `${BASE}/apiKey/getApiKeys`);
    const listed = list.body.payload.find((k: { id: number }) => k.id === made.id);
    expect(listed).toMatchObject({ name: "Listed", prefix: made.key.slice(4, 16), modules: ["role"], revoked_at: null });
    expect(listed.last_used_at).not.toBeNull();
    expect(Date.parse(listed.expires_at) - Date.parse(listed.created_at)).toBe(30 * 86_400_000);
    expect(JSON.stringify(list.body)).not.toContain(made.key.slice(18));
  });

  it("refuses a revoked key, an expired key and a wrong secret (401); a key needs no id header", async () => {
    const revoked = await createKey(acme, { name: "To revoke" });
    expect((await api(bearer(revoked.key), "GET", `${BASE}/user/getRoles`, undefined, { id: "999" })).status).toBe(200);
    expect((await api(acme, "POST", `${BASE}/apiKey/revokeApiKey`, { id: revoked.id })).status).toBe(200);
    expect((await api(bearer(revoked.key), "GET", `${BASE}/user/getRoles`)).status).toBe(401);
    expect((await api(acme, "POST", `${BASE}/apiKey/revokeApiKey`, { id: revoked.id })).status).toBe(404);

    const expired = await createKey(acme, { name: "To expire", expires_in_days: 30 });
    expect((await api(bearer(expired.key), "GET", `${BASE}/user/getRoles`)).status).toBe(200);
    await db()
      .update(schema.apiKeys)
      .set({ expiresAt: workerNow() - 1 })
      .where(eq(schema.apiKeys.id, expired.id));
    expect((await api(bearer(expired.key), "GET", `${BASE}/user/getRoles`)).status).toBe(401);

    const live = await createKey(acme, { name: "Wrong secret" });
    const wrong = live.key.slice(0, -1) + (live.key.endsWith("A") ? "B" : "A");
    expect((await api(bearer(wrong), "GET", `${BASE}/user/getRoles`)).status).toBe(401);
  });

  it("another company cannot revoke ACME's key (404)", async () => {
    const { id } = await createKey(acme, { name: "Not Beta's" });
    expect((await api(await login("beta"), "POST", `${BASE}/apiKey/revokeApiKey`, { id })).status).toBe(404);
  });

  it("a write made with a key is in the activity log as made by that key", async () => {
    const { id, key } = await createKey(acme, { name: "Provisioner", permission_add: true });
    expect((await api(bearer(key), "POST", `${BASE}/user/createRole`, roleBody("Made by a machine"))).status).toBe(200);
    const [entry] = await auditsNamed("Role Created", eq(schema.activityLogs.summary, "Made by a machine"));
    expect(JSON.parse(entry.details).apiKey).toEqual({ id, name: "Provisioner" });
    expect(entry.by).toBe(ACME_ADMIN_USER);
    // A person's own write names no key.
    expect((await api(acme, "POST", `${BASE}/user/createRole`, roleBody("Made by Alice"))).status).toBe(200);
    const [own] = await auditsNamed("Role Created", eq(schema.activityLogs.summary, "Made by Alice"));
    expect(JSON.parse(own.details).apiKey).toBeUndefined();
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After and the RateLimit headers past a key's limit, and the key recovers after the window", async () => {
    const { id, key } = await createKey(acme, { name: "Busy" });
    const call = () => consoleWorker.fetch(`${ORIGIN}${BASE}/user/getRoles`, { headers: { Authorization: bearer(key) } });
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers.get("RateLimit-Policy")).toBe(`"caller";q=${RATE_LIMITS.caller.limit};w=60, "company";q=${RATE_LIMITS.company.limit};w=60`);
    expect(first.headers.get("RateLimit")).toMatch(/^"caller";r=\d+;t=\d+, "company";r=\d+;t=\d+$/);
    // Fixed windows: the limit is met within two of them however the calls fall across a boundary. Sent 30 at
    // a time: the company's limiter counts them one by one whatever their order.
    let refused: Response | undefined;
    let ok = 1;
    let sentAt = 0;
    while (!refused && ok <= 2 * RATE_LIMITS.caller.limit) {
      sentAt = workerNow();
      const answers = await Promise.all(Array.from({ length: 30 }, call));
      refused = answers.find((r) => r.status === 429);
      ok += answers.filter((r) => r.status === 200).length;
      expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
      await Promise.all(answers.filter((r) => r !== refused).map((r) => r.arrayBuffer()));
    }
    expect(refused, `${ok} calls passed`).toBeDefined();
    const retry = Number(refused!.headers.get("Retry-After"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused!.headers.get("RateLimit")).toMatch(new RegExp(`^"caller";r=0;t=${retry}, "company";r=\\d+;t=\\d+$`));
    expect(await refused!.json()).toMatchObject({ errorCode: "429" });
    // The same limiter at chosen instants: refused in the refusal's window, counted afresh from the next one.
    // The refusal fell in the window of the batch's start (30 calls cannot use up a fresh window), so both
    // instants follow from it, not from when this line runs (a window may have ended since, on a busy machine).
    const limiter = env as unknown as RateLimitEnv;
    const windowMs = RATE_LIMITS.caller.windowMs;
    expect((await limitCaller(limiter, { companyId: ACME, caller: `key:${id}` }, sentAt)).allowed).toBe(false);
    const later = await limitCaller(limiter, { companyId: ACME, caller: `key:${id}` }, (Math.floor(sentAt / windowMs) + 1) * windowMs);
    expect(later.allowed).toBe(true);
    expect(later.buckets[0].remaining).toBe(RATE_LIMITS.caller.limit - 1);
  });

  it("limits a company's callers together (the call SCIM makes)", async () => {
    const limiter = env as unknown as RateLimitEnv;
    const company = 900_001;
    const at = 1_800_000_000_000;
    const callers = Math.ceil(RATE_LIMITS.company.limit / RATE_LIMITS.caller.limit);
    const takes = await Promise.all(
      Array.from({ length: callers * RATE_LIMITS.caller.limit }, (_, i) => limitCaller(limiter, { companyId: company, caller: `scim:${i % callers}` }, at)),
    );
    const allowed = takes.filter((t) => t.allowed).length;
    expect(allowed).toBe(RATE_LIMITS.company.limit);
    const fresh = await limitCaller(limiter, { companyId: company, caller: "scim:new" }, at);
    expect(fresh.allowed).toBe(false);
    expect(fresh.buckets.map((b) => [b.id, b.remaining])).toEqual([
      ["caller:scim:new", RATE_LIMITS.caller.limit],
      ["company", 0],
    ]);
    // Another company is not held back.
    expect((await limitCaller(limiter, { companyId: company + 1, caller: "scim:0" }, at)).allowed).toBe(true);
  });
});
