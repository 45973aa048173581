/**
 * Sign-in throttling per account and per client address. Counters live in D1, so every Worker
 * isolate sees the same numbers. Defaults are named so tests and operators can reason about them.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  maxAccountFailures: 5,
  maxClientFailures: 30,
} as const;

export const throttleKeys = (companyCode: string, userName: string, ip: string) => ({
  account: `acct:${companyCode.toUpperCase()}:${userName.toLowerCase()}`,
  client: `ip:${ip}`,
});

export async function assertNotThrottled(db: Db, keys: string[], now: number): Promise<void> {
  const rows = await db.select().from(schema.loginThrottles).where(inArray(schema.loginThrottles.key, keys));
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil ?? 0));
  if (until > now) {
    const minutes = Math.ceil((until - now) / 60_000);
    throw new ServiceError(429, `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
      errorCode: "throttled",
      payload: { minutes },
    });
  }
}

/** Counts one failure against each key; a key past its limit is locked for `lockMs`. */
export async function recordFailure(db: Db, keys: { account: string; client: string }, now: number): Promise<void> {
  const limits: [string, number][] = [
    [keys.account, THROTTLE.maxAccountFailures],
    [keys.client, THROTTLE.maxClientFailures],
  ];
  const t = schema.loginThrottles;
  await db.batch(
    limits.map(([key, max]) =>
      db
        .insert(t)
        .values({ key, failures: 1, windowStart: now })
        .onConflictDoUpdate({
          target: t.key,
          set: {
            // A new window starts when the old one has passed.
            failures: sql`case when ${t.windowStart} < ${now - THROTTLE.windowMs} then 1 else ${t.failures} + 1 end`,
            windowStart: sql`case when ${t.windowStart} < ${now - THROTTLE.windowMs} then ${now} else ${t.windowStart} end`,
            lockedUntil: sql`case when ${t.windowStart} >= ${now - THROTTLE.windowMs} and ${t.failures} + 1 >= ${max} then ${now + THROTTLE.lockMs} else ${t.lockedUntil} end`,
          },
        }),
    ) as never,
  );
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(schema.loginThrottles).where(eq(schema.loginThrottles.key, key));
}
