/**
 * Published rate limits of the machine callers of the admin API and SCIM (decision 0075), counted by the
 * company's RateLimiter Durable Object, and the answer's headers by draft-ietf-httpapi-ratelimit-headers
 * (`RateLimit-Policy`, `RateLimit`) with `Retry-After` on a 429.
 *
 * Each machine caller (the admin API's keys, SCIM's tokens) makes one call per request, after it is
 * authenticated and before its body is read, and adds `rateLimitHeaders` to every answer.
 */
import type { RateLimiter, Take } from "~/durable/rate-limiter";

export type RateLimitEnv = { RATE_LIMITER: DurableObjectNamespace<RateLimiter> };
export type { Take as RateLimit };

/** The published limits: requests per window, per caller (one API key or SCIM token) and per company (all its callers). */
export const RATE_LIMITS = {
  caller: { limit: 120, windowMs: 60_000 },
  company: { limit: 600, windowMs: 60_000 },
} as const;

/** The draft's policy names: each bucket's id is `<policy>` or `<policy>:<caller>`. */
const policyOf = (id: string) => id.split(":")[0];

export function rateLimiterStub(env: RateLimitEnv, companyId: number) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`company:${companyId}`));
}

/** Counts one request of `caller` (e.g. `key:12`, `scim:3`) against its own limit and its company's. */
export async function limitCaller(env: RateLimitEnv, who: { companyId: number; caller: string }, now: number): Promise<Take> {
  return rateLimiterStub(env, who.companyId).take(
    [
      { id: `caller:${who.caller}`, ...RATE_LIMITS.caller },
      { id: "company", ...RATE_LIMITS.company },
    ],
    now,
  );
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** `RateLimit-Policy` and `RateLimit` for any answer to a counted request. */
export function rateLimitHeaders(t: Take): Record<string, string> {
  return {
    "RateLimit-Policy": t.buckets.map((b) => `"${policyOf(b.id)}";q=${b.limit};w=${seconds(b.windowMs)}`).join(", "),
    RateLimit: t.buckets.map((b) => `"${policyOf(b.id)}";r=${b.remaining};t=${seconds(b.resetMs)}`).join(", "),
  };
}

export const RATE_LIMIT_MESSAGE = "Too many requests. Try again later.";

/** The 429 of a refused request: wait until every exhausted window has ended. */
export function tooManyRequests(t: Take, body: unknown = { message: RATE_LIMIT_MESSAGE, errorCode: "429" }, mediaType = "application/json"): Response {
  const wait = Math.max(...t.buckets.filter((b) => b.remaining === 0).map((b) => seconds(b.resetMs)), 1);
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: { "Content-Type": `${mediaType}; charset=utf-8`, "Cache-Control": "no-store", "Retry-After": String(wait), ...rateLimitHeaders(t) },
  });
}
