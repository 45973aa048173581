/**
 * Sign-in throttling (decision 0019). Counters live in D1 (`login_throttles`), so every Worker
 * isolate sees the same numbers. Three counters per failure, each keyed on the resolved account
 * (its user id, so `555-100-0002` and `5551000002#` are the same account), never on how the
 * identifier was typed:
 *
 * - one client against one account: a hard lock, but only of that client for that account;
 * - one client against any accounts: a hard lock of that client;
 * - one account from all clients: no lock, a growing delay for clients the account has not signed
 *   in from before. A client with a recent successful sign-in (a "known" client) is never delayed
 *   by other clients' failures, so an attacker cannot lock the owner out.
 *
 * Defaults are named so tests and operators can reason about them.
 */
import { inArray, sql } from "drizzle-orm";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  /** Failures of one client against one account before that client is locked out of it. */
  maxAccountClientFailures: 5,
  /** Failures of one client against any accounts before the client is locked out. */
  maxClientFailures: 30,
  /** Failures against one account (all clients) before new clients are slowed down. */
  accountSlowAfter: 10,
  /** The first delay; it doubles with each further failure ... */
  accountBaseDelayMs: 5_000,
  /** ... up to this. */
  accountMaxDelayMs: 60_000,
  /** How long a client that signed in successfully stays exempt from the account-wide delay. */
  knownClientMs: 30 * 24 * 60 * 60 * 1000,
} as const;

export const THROTTLE_MSG = {
  client: (minutes: number) => `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  account: (seconds: number) =>
    `This account has had many failed sign-in attempts, so devices it has not signed in from must wait ${seconds} second${seconds === 1 ? "" : "s"} between tries. If these attempts were not yours, reset your password.`,
} as const;

export type ThrottleKeys = {
  /** One account from all clients (the growing delay). */
  account: string;
  /** One client against one account (the hard lock of that pair). */
  accountClient: string;
  /** One client against any account. */
  client: string;
  /** Present while the client is known to the account (it signed in successfully). */
  known: string;
};

/**
 * The identifier as the account lookup reads it: a phone number by its digits, an e-mail in lower
 * case. Used for the counters of identifiers that match no account, so they too are counted per
 * account and not per spelling (and behave exactly like real accounts, revealing nothing).
 */
export function normalizeIdentifier(userName: string): string {
  const name = userName.trim().toLowerCase();
  const digits = name.replace(/\D/g, "");
  return digits.length >= 7 && !name.includes("@") ? `phone:${digits}` : `email:${name}`;
}

/** Keys for a resolved account (`userId`) or, when none matched, for the normalised identifier. */
export function throttleKeys(who: { userId: number } | { companyCode: string; userName: string }, ip: string): ThrottleKeys {
  const account = "userId" in who ? `user:${who.userId}` : `none:${who.companyCode.toUpperCase()}:${normalizeIdentifier(who.userName)}`;
  return { account: `acct:${account}`, accountClient: `acctip:${account}:${ip}`, client: `ip:${ip}`, known: `known:${account}:${ip}` };
}

/** 429 when this client may not try this account now; the message says how long and why. */
export async function assertNotThrottled(db: Db, keys: ThrottleKeys, now: number): Promise<void> {
  const rows = await db
    .select()
    .from(schema.loginThrottles)
    .where(inArray(schema.loginThrottles.key, [keys.account, keys.accountClient, keys.client, keys.known]));
  const until = (key: string) => rows.find((r) => r.key === key)?.lockedUntil ?? 0;
  const locked = Math.max(until(keys.accountClient), until(keys.client));
  if (locked > now) {
    const minutes = Math.ceil((locked - now) / 60_000);
    throw new ServiceError(429, THROTTLE_MSG.client(minutes), { errorCode: "throttled", payload: { scope: "client", minutes } });
  }
  const known = until(keys.known) > now;
  const slowed = until(keys.account);
  if (!known && slowed > now) {
    const seconds = Math.ceil((slowed - now) / 1000);
    throw new ServiceError(429, THROTTLE_MSG.account(seconds), { errorCode: "account-slowed", payload: { scope: "account", seconds } });
  }
}

/**
 * Counts one failure against each counter. Returns the account's failures in the current window,
 * so the caller can tell the owner once when the account starts being slowed down.
 */
export async function recordFailure(db: Db, keys: ThrottleKeys, now: number): Promise<number> {
  const t = schema.loginThrottles;
  const windowStart = now - THROTTLE.windowMs;
  const fresh = sql`${t.windowStart} >= ${windowStart}`;
  const failures = sql`case when ${fresh} then ${t.failures} + 1 else 1 end`;
  const hardLock = (max: number) => sql`case when ${fresh} and ${t.failures} + 1 >= ${max} then ${now + THROTTLE.lockMs} else ${t.lockedUntil} end`;
  // 5 s, 10 s, 20 s ... from the threshold on, capped.
  const over = sql`(${t.failures} + 1 - ${THROTTLE.accountSlowAfter})`;
  const delay = sql`min(${THROTTLE.accountMaxDelayMs}, ${THROTTLE.accountBaseDelayMs} * (1 << min(16, ${over})))`;
  const slowDown = sql`case when ${fresh} and ${over} >= 0 then ${now} + ${delay} else ${t.lockedUntil} end`;
  const upsert = (key: string, lockedUntil: ReturnType<typeof sql>) =>
    db
      .insert(t)
      .values({ key, failures: 1, windowStart: now })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          // A new window starts when the old one has passed.
          failures,
          windowStart: sql`case when ${fresh} then ${t.windowStart} else ${now} end`,
          lockedUntil,
        },
      })
      .returning({ failures: t.failures });
  const [, , account] = await db.batch([
    upsert(keys.accountClient, hardLock(THROTTLE.maxAccountClientFailures)),
    upsert(keys.client, hardLock(THROTTLE.maxClientFailures)),
    upsert(keys.account, slowDown),
  ]);
  return account[0]?.failures ?? 0;
}

/** A successful sign-in: this client's own failures are forgotten and the client becomes known. */
export async function recordSuccess(db: Db, keys: ThrottleKeys, now: number): Promise<void> {
  const t = schema.loginThrottles;
  await db.batch([
    db.delete(t).where(inArray(t.key, [keys.accountClient])),
    db
      .insert(t)
      .values({ key: keys.known, failures: 0, windowStart: now, lockedUntil: now + THROTTLE.knownClientMs })
      .onConflictDoUpdate({ target: t.key, set: { windowStart: now, lockedUntil: now + THROTTLE.knownClientMs } }),
  ]);
}

/**
 * A plain rate limit on the same table: counts one hit on `key` and answers whether the count in
 * the current window is past `max` (reset mails per account, anonymous audit reports per client).
 */
export async function overRateLimit(db: Db, key: string, max: number, windowMs: number, now: number): Promise<boolean> {
  const t = schema.loginThrottles;
  const fresh = sql`${t.windowStart} >= ${now - windowMs}`;
  const [row] = await db
    .insert(t)
    .values({ key, failures: 1, windowStart: now })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`case when ${fresh} then ${t.failures} + 1 else 1 end`,
        windowStart: sql`case when ${fresh} then ${t.windowStart} else ${now} end`,
      },
    })
    .returning({ failures: t.failures });
  return (row?.failures ?? 0) > max;
}
