/**
 * The Worker's work outside requests: the alert queue's consumer and the cron trigger (wrangler.toml),
 * and the core they and the pages share. server.ts adds `fetch`; these live apart so that a test can
 * run them without loading the Remix build (tests/workers: about ten seconds a file).
 */
// Workers only instantiate precompiled modules; wrangler turns this import into one.
import coreModule from "~core/core.wasm";
import { createCore } from "~core";
import { drainActivityOutbox } from "./app/services/activity-outbox.server";
import { runAlertEngine } from "./app/services/alert-engine.server";
import { settleExpired } from "./app/services/device-commands.server";
import { pruneFeed } from "./app/services/gateway-feed.server";
import { drainOutbox } from "./app/services/mail/outbox.server";
import { purgeSignInLeftovers } from "./app/services/sign-in-purge.server";
import { configureClock, nowMs } from "./app/utils/clock.server";
import { dbFromEnv } from "./app/utils/db.server";
import { configuredOrigin } from "./app/utils/origin.server";
import { deleteExpiredSessions } from "./app/utils/session.server";

export const core = createCore(coreModule);

export type AlertWakeUp = { wake: true };

export const background = {
  // The alert queue's consumer (wrangler.toml): one engine run per batch of wake-ups, then the mail it
  // queued leaves and the rows it read drain from D1's activity outbox into the companies' logs.
  async queue(batch, env, ctx) {
    configureClock(env);
    await runAlerts(env);
    batch.ackAll();
    ctx.waitUntil(drainActivityOutbox(env).catch((e) => console.error("activity outbox drain failed", e)));
    ctx.waitUntil(drainOutbox(env, { limit: 50 }).catch((e) => console.error("mail delivery failed", e)));
  },
  // The cron trigger (wrangler.toml) retries mail that a request's own delivery could not send, drains
  // the activity outbox into the companies' logs (a queue wake-up does too, after the alert engine),
  // and drops what has outlived its use: dead sessions, gateway changes past their retention; remote
  // commands no board answered in time are failed (their pages settle them too when asked).
  async scheduled(_controller, env, ctx) {
    configureClock(env);
    const db = dbFromEnv(env);
    const now = nowMs();
    ctx.waitUntil(runAlerts(env).then(() => Promise.all([drainOutbox(env, { limit: 50, now }), drainActivityOutbox(env)])));
    ctx.waitUntil(deleteExpiredSessions(db, env, now));
    ctx.waitUntil(pruneFeed(db, now));
    ctx.waitUntil(purgeSignInLeftovers(db, now));
    ctx.waitUntil(settleExpired(db, now));
  },
} satisfies ExportedHandler<Env, AlertWakeUp>;

// Alert mail links to the console: production without PUBLIC_ORIGIN refuses here rather than mail host-less links.
async function runAlerts(env: Env) {
  return runAlertEngine(dbFromEnv(env), core, { now: nowMs(), origin: configuredOrigin(env) ?? "" });
}

/** After a change that may have written activity: a message only wakes the alert engine. */
export async function wakeAlerts(env: Env) {
  try {
    await env.ALERTS_QUEUE.send({ wake: true } satisfies AlertWakeUp);
  } catch (e) {
    console.warn("alert wake-up not sent; the cron sweep will catch up", e);
  }
}
