// @clock: decides at the Worker's instant; scripts/test.sh runs this file again half an hour before the DST switch.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../server";
import { clockOffsetFor, configureClock, nowMs } from "../../app/utils/clock.server";
import wranglerToml from "../../wrangler.toml?raw";
import { DEMO, db, ORIGIN, schema } from "./helpers";

/**
 * The test clock (docs/decisions/0018-test-clock.md): the end-to-end suite shifts the Worker's clock
 * with TEST_CLOCK_OFFSET_MS. Only ENVIRONMENT=test honours it; a production Worker reads the real time.
 */
const YEAR = 365 * 86_400_000;

/** Signs BETA's admin in through the real Worker entry with `vars` over the test env; returns when the Worker thought it was. */
async function signInAt(vars: Record<string, string>): Promise<{ before: number; seen: number; after: number }> {
  const before = Date.now();
  const ctx = createExecutionContext();
  const res = await worker.fetch!(
    new Request(`${ORIGIN}/api/admin/user/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(DEMO.beta) }) as never,
    { ...env, ...vars } as never,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  const after = Date.now();
  // A sign-in records the user's last activity at the Worker's "now".
  const [row] = await db().select({ at: schema.users.lastActivityAt }).from(schema.users).where(eq(schema.users.email, DEMO.beta.userName));
  return { before, seen: row.at!, after };
}

afterEach(() => configureClock({}));

describe("the test clock", () => {
  it("is honoured only when ENVIRONMENT is exactly 'test'", () => {
    expect(clockOffsetFor({ ENVIRONMENT: "test", TEST_CLOCK_OFFSET_MS: "-3600000" })).toBe(-3_600_000);
    expect(clockOffsetFor({ ENVIRONMENT: "production", TEST_CLOCK_OFFSET_MS: "3600000" })).toBe(0);
    expect(clockOffsetFor({ ENVIRONMENT: "development", TEST_CLOCK_OFFSET_MS: "3600000" })).toBe(0);
    expect(clockOffsetFor({ ENVIRONMENT: "Test", TEST_CLOCK_OFFSET_MS: "3600000" })).toBe(0);
    expect(clockOffsetFor({ TEST_CLOCK_OFFSET_MS: "3600000" })).toBe(0);
    expect(clockOffsetFor({ ENVIRONMENT: "test", TEST_CLOCK_OFFSET_MS: "soon" })).toBe(0);
    expect(clockOffsetFor({ ENVIRONMENT: "test", TEST_CLOCK_OFFSET_MS: "1e400" })).toBe(0);
    expect(clockOffsetFor({ ENVIRONMENT: "test" })).toBe(0);
  });

  it("a production Worker ignores TEST_CLOCK_OFFSET_MS: the sign-in is recorded at the real time", async () => {
    const t = await signInAt({ ENVIRONMENT: "production", TEST_CLOCK_OFFSET_MS: String(YEAR) });
    expect(t.seen).toBeGreaterThanOrEqual(t.before);
    expect(t.seen).toBeLessThanOrEqual(t.after);
    expect(nowMs()).toBeLessThan(Date.now() + 1_000);
  });

  it("the project's own config (wrangler.toml) cannot shift the clock", async () => {
    expect(wranglerToml).not.toMatch(/TEST_CLOCK/);
    expect(wranglerToml).toMatch(/^ENVIRONMENT = "production"$/m);
    const t = await signInAt({ ENVIRONMENT: "development", TEST_CLOCK_OFFSET_MS: String(YEAR) });
    expect(t.seen).toBeLessThanOrEqual(t.after);
  });

  it("a test Worker runs shifted, and time keeps passing", async () => {
    const t = await signInAt({ ENVIRONMENT: "test", TEST_CLOCK_OFFSET_MS: String(YEAR) });
    expect(t.seen).toBeGreaterThanOrEqual(t.before + YEAR);
    expect(t.seen).toBeLessThanOrEqual(t.after + YEAR);
  });
});
