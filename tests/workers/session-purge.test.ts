import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../server";
import { api, db, login, schema } from "./helpers";

/** Sessions nobody touches again are purged by the every-minute cron, not kept forever. */
describe("the cron purges dead sessions", () => {
  it("removes expired and idle console sessions and keeps live ones", async () => {
    const live = await login("acme");
    const now = Date.now();
    const base = { userId: 3, companyId: 3, ip: "", userAgent: "" };
    await db().insert(schema.sessions).values([
      { ...base, id: "expired", kind: "api", createdAt: now - 13 * 3600_000, lastSeenAt: now, expiresAt: now - 1 },
      { ...base, id: "idle-web", kind: "web", createdAt: now - 3600_000, lastSeenAt: now - 3600_000, expiresAt: now + 3600_000 },
      { ...base, id: "quiet-api", kind: "api", createdAt: now - 3600_000, lastSeenAt: now - 3600_000, expiresAt: now + 3600_000 },
    ]);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const ids = (await db().select({ id: schema.sessions.id }).from(schema.sessions)).map((r) => r.id);
    expect(ids).not.toContain("expired");
    expect(ids).not.toContain("idle-web");
    expect(ids).toContain("quiet-api"); // API tokens have no idle limit, only their lifetime
    expect((await api(live, "GET", "/api/admin/user/getAllTimeZone")).status).toBe(200);
  });
});
