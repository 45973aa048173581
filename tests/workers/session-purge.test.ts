import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { background } from "../../worker-background";
import { api, db, login, schema, workerNow } from "./helpers";

const runCron = async () => {
  const ctx = createExecutionContext();
  await background.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
};

/** Sessions nobody touches again are purged by the every-minute cron, not kept forever. */
describe("the cron purges dead sessions", () => {
  it("removes expired and idle console sessions and keeps live ones", async () => {
    const live = await login("acme");
    const now = workerNow();
    const base = { userId: 3, companyId: 3, ip: "", userAgent: "" };
    await db()
      .insert(schema.sessions)
      .values([
        { ...base, id: "expired", kind: "api", createdAt: now - 13 * 3600_000, lastSeenAt: now, expiresAt: now - 1 },
        { ...base, id: "idle-web", kind: "web", createdAt: now - 3600_000, lastSeenAt: now - 3600_000, expiresAt: now + 3600_000 },
        { ...base, id: "quiet-api", kind: "api", createdAt: now - 3600_000, lastSeenAt: now - 3600_000, expiresAt: now + 3600_000 },
      ]);
    await runCron();
    const ids = (await db().select({ id: schema.sessions.id }).from(schema.sessions)).map((r) => r.id);
    expect(ids).not.toContain("expired");
    expect(ids).not.toContain("idle-web");
    expect(ids).toContain("quiet-api"); // API tokens have no idle limit, only their lifetime
    expect((await api(live, "GET", "/api/admin/user/getAllTimeZone")).status).toBe(200);
  });
});

describe("the cron purges sign-in leftovers", () => {
  it("removes expired reset links, expired second-factor codes and spent throttle counters, and keeps live ones", async () => {
    const now = workerNow();
    const who = { userId: 3, companyId: 3 };
    await db()
      .insert(schema.passwordResetTokens)
      .values([
        { ...who, id: "reset-expired", expiresAt: now - 1 },
        { ...who, id: "reset-live", expiresAt: now + 600_000 },
      ]);
    await db()
      .insert(schema.twoFactorCodes)
      .values([
        { ...who, codeHash: "expired", expiresAt: now - 1 },
        { ...who, codeHash: "live", expiresAt: now + 600_000 },
      ]);
    await db()
      .insert(schema.loginThrottles)
      .values([
        { key: "acct:OLD:spent", failures: 3, windowStart: now - 3600_000, lockedUntil: null },
        { key: "acct:OLD:unlocked", failures: 5, windowStart: now - 3600_000, lockedUntil: now - 1 },
        { key: "acct:NOW:counting", failures: 2, windowStart: now - 60_000, lockedUntil: null },
        { key: "acct:OLD:locked", failures: 5, windowStart: now - 3600_000, lockedUntil: now + 600_000 },
      ]);
    await runCron();
    expect((await db().select({ id: schema.passwordResetTokens.id }).from(schema.passwordResetTokens)).map((r) => r.id)).toEqual(["reset-live"]);
    const codes = (await db().select({ c: schema.twoFactorCodes.codeHash }).from(schema.twoFactorCodes)).map((r) => r.c);
    expect(codes).toContain("live");
    expect(codes).not.toContain("expired");
    const keys = (await db().select({ k: schema.loginThrottles.key }).from(schema.loginThrottles)).map((r) => r.k);
    expect(keys).toEqual(expect.arrayContaining(["acct:NOW:counting", "acct:OLD:locked"]));
    expect(keys).not.toContain("acct:OLD:spent");
    expect(keys).not.toContain("acct:OLD:unlocked");
  });
});
