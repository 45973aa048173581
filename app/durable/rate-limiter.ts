/**
 * Fixed-window request counters of one company (docs/decisions/0075-api-keys-and-rate-limits.md), one
 * object per company (`idFromName("company:<id>")`): the company's own bucket and one per caller (an API
 * key, a SCIM token) live together, so one call checks and counts all of a request's buckets at once.
 * The caller passes the time, so tests move the clock instead of waiting.
 */
import { DurableObject } from "cloudflare:workers";

/** One counter to check: its name within the company, its limit and its window. */
export type Bucket = { id: string; limit: number; windowMs: number };
/** A bucket after the call: what is left in its window and when the window ends. */
export type BucketState = Bucket & { remaining: number; resetMs: number };
export type Take = { allowed: boolean; buckets: BucketState[] };

export class RateLimiter extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS counters (id text PRIMARY KEY NOT NULL, window integer NOT NULL, n integer NOT NULL) WITHOUT ROWID");
  }

  /**
   * Counts one request in every bucket, unless one of them is already at its limit: then nothing is counted
   * (a refused request costs no quota, so a client that waits as told gets in).
   */
  take(buckets: Bucket[], now: number): Take {
    const seen = buckets.map((b) => {
      const window = Math.floor(now / b.windowMs);
      const row = this.ctx.storage.sql.exec<{ window: number; n: number }>("SELECT window, n FROM counters WHERE id = ?", b.id).toArray()[0];
      const used = row && row.window === window ? row.n : 0;
      return { b, window, used, resetMs: (window + 1) * b.windowMs - now };
    });
    const allowed = seen.every((s) => s.used < s.b.limit);
    if (allowed)
      for (const s of seen)
        this.ctx.storage.sql.exec(
          "INSERT INTO counters (id, window, n) VALUES (?, ?, 1) ON CONFLICT (id) DO UPDATE SET n = CASE WHEN window = excluded.window THEN n + 1 ELSE 1 END, window = excluded.window",
          s.b.id,
          s.window,
        );
    return {
      allowed,
      buckets: seen.map((s) => ({ ...s.b, remaining: Math.max(0, s.b.limit - s.used - (allowed ? 1 : 0)), resetMs: s.resetMs })),
    };
  }
}
