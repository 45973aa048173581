/**
 * The server's one clock (docs/decisions/0018-test-clock.md).
 *
 * Server code reads the time through `nowMs()` (re-exported by `db.server.ts`) and services take an
 * explicit `now`. Tests of the whole Worker (the end-to-end suite under `wrangler dev`) can shift this
 * clock by a fixed offset with the var `TEST_CLOCK_OFFSET_MS`, so the console runs "as if" at a chosen
 * instant while time still passes. The var is honoured only when `ENVIRONMENT` is exactly `"test"`:
 * `wrangler.toml` (what a deploy uses) says `"production"`, local serving `"development"`, and only test runners pass
 * `test` (the Workers tests' bindings, the end-to-end servers' `--var ENVIRONMENT:test`). A
 * production Worker therefore reads the real time whatever vars it is given.
 */
export type ClockEnv = { ENVIRONMENT?: unknown; TEST_CLOCK_OFFSET_MS?: unknown };

// Kept on the global object: the Worker entry (server.ts) and the Remix server build each bundle
// their own copy of this module, and both must read the same clock.
const OFFSET = Symbol.for("keyless-access.clock-offset-ms");
type ClockGlobal = typeof globalThis & { [OFFSET]?: number };
const clockGlobal = globalThis as ClockGlobal;

/** The offset `env` asks for, or 0 when the environment may not shift the clock. */
export function clockOffsetFor(env: ClockEnv): number {
  if (env.ENVIRONMENT !== "test") return 0;
  const raw = env.TEST_CLOCK_OFFSET_MS;
  if (typeof raw !== "string" && typeof raw !== "number") return 0;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : 0;
}

/** Called by the Worker's entry (server.ts) for each request and cron run; env is fixed per deployment. */
export function configureClock(env: ClockEnv): void {
  clockGlobal[OFFSET] = clockOffsetFor(env);
}

/** Milliseconds since the epoch; the one clock the server code reads. */
export const nowMs = (): number => Date.now() + (clockGlobal[OFFSET] ?? 0);
