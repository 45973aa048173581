/**
 * The Worker's work outside requests: the alert queue's consumer and the cron trigger (wrangler.toml),
 * and the core they use (app/core.server.ts). server.ts adds `fetch`; these live apart so that a test can
 * run them without loading the Remix build (tests/workers: about ten seconds a file).
 */
import { drainActivityOutbox } from "./app/services/activity-outbox.server";
import { flushDigests } from "./app/services/alert-engine.server";
import { core } from "./app/core.server";
import { settleExpired } from "./app/services/device-commands.server";
import { endExpiredLockdowns } from "./app/services/lockdown.server";
import { checkRollouts } from "./app/services/firmware-rollouts.server";
import { pruneFeed } from "./app/services/gateway-feed.server";
import { drainOutbox } from "./app/services/mail/outbox.server";
import { drainTexts } from "./app/services/sms/text-outbox.server";
import { purgeSignInLeftovers } from "./app/services/sign-in-purge.server";
import { attemptDelivery, sweepWebhooks, wakeWebhooks, type WebhookMessage } from "./app/services/webhooks/delivery.server";
import { clockOffsetFor, configureClock, nowMs } from "./app/utils/clock.server";
import { dbFromEnv } from "./app/utils/db.server";
import { configuredOrigin } from "./app/utils/origin.server";
import { deleteExpiredSessions } from "./app/utils/session.server";

export type AlertWakeUp = { wake: true };
/** The webhook queue's name (wrangler.toml); the alert queue is the other. */
const WEBHOOKS_QUEUE = "keyless-webhooks";

export const background = {
  // The alert queue's consumer (wrangler.toml). A wake-up follows every change that may have written
  // activity: each company with rows in D1's activity outbox has its store copy them, match them against
  // its alerts and delete them from D1; then digests whose window closed are mailed, and the mail and
  // alert texts leave.
  async queue(batch, env, ctx) {
    configureClock(env);
    if (batch.queue === WEBHOOKS_QUEUE) return deliverWebhooks(batch as MessageBatch<WebhookMessage>, env);
    // A company whose drain failed is retried with the batch; the digests and mail of the others still go.
    const [drained] = await Promise.allSettled([drainActivityOutbox(env)]);
    await flushDue(env);
    ctx.waitUntil(drainOutbox(env, { limit: 50 }).catch((e) => console.error("mail delivery failed", e)));
    ctx.waitUntil(drainTexts(env).catch((e) => console.error("alert texts failed", e)));
    if (drained.status === "rejected") throw drained.reason;
    batch.ackAll();
  },
  // The cron trigger (wrangler.toml) does the same for wake-ups that were lost, retries mail that a
  // request's own delivery could not send, and drops what has outlived its use: dead sessions, gateway
  // changes past their retention; remote commands no board answered in time are failed (their pages
  // settle them too when asked).
  async scheduled(controller, env, ctx) {
    configureClock(env);
    const db = dbFromEnv(env);
    const now = nowMs();
    // Each task named in the log when it fails (the cron's answer says only "exception"); it still fails the run.
    const task = (name: string, work: Promise<unknown>) =>
      ctx.waitUntil(
        work.catch((e) => {
          console.error(`cron: ${name} failed`, e);
          throw e;
        }),
      );
    task(
      "activity, alerts, mail and texts",
      Promise.allSettled([drainActivityOutbox(env)]).then(async ([drained]) => {
        await flushDue(env);
        await Promise.all([drainOutbox(env, { limit: 50, now }), drainTexts(env, { now })]);
        if (drained.status === "rejected") throw drained.reason;
      }),
    );
    task("expired sessions", deleteExpiredSessions(db, env, now));
    task("feed pruning", pruneFeed(db, now));
    task("sign-in leftovers", purgeSignInLeftovers(db, now));
    task("expired remote commands", settleExpired(db, now));
    task("expired lockdowns", endExpiredLockdowns(db, now));
    task("firmware rollouts", checkRollouts(db, now, { openWaves: true }));
    // The sweep sends what is due at the cron's own instant (never earlier than now). A local runner can
    // fire the cron at a later instant (Miniflare's /cdn-cgi/handler/scheduled?time=, end-to-end consoles
    // only), so a test sees the back-off's later retries without waiting for them; the tasks above delete
    // by age and keep the clock's now.
    task("webhook sweep", sweepWebhooks(db, env.WEBHOOKS_QUEUE, Math.max(now, controller.scheduledTime + clockOffsetFor(env))));
  },
} satisfies ExportedHandler<Env, AlertWakeUp | WebhookMessage>;

/**
 * The webhook queue's consumer (docs/decisions/0078-webhooks.md): a wake-up sweeps the delivery outbox
 * into messages; a delivery message is one attempt, recorded before it is acknowledged. Attempts run in
 * parallel, each bounded by its timeout.
 */
async function deliverWebhooks(batch: MessageBatch<WebhookMessage>, env: Env) {
  const db = dbFromEnv(env);
  const timeoutMs = Number(env.WEBHOOK_TIMEOUT_MS) || undefined;
  await Promise.all(
    batch.messages.map(async (m) => {
      try {
        if ("delivery" in m.body) {
          const r = await attemptDelivery(db, env, m.body.delivery, nowMs(), { timeoutMs });
          // The retry is swept when it is due, not at the next cron or the next event (the load run's
          // failed deliveries waited for traffic that had stopped).
          if (r.retryAfterMs !== undefined) await wakeWebhooks(env, r.retryAfterMs);
        } else await sweepWebhooks(db, env.WEBHOOKS_QUEUE, nowMs());
        m.ack();
      } catch (e) {
        console.error("webhook attempt not recorded; the sweep sends it again", e);
        m.retry();
      }
    }),
  );
}

// Alert mail links to the console: production without PUBLIC_ORIGIN refuses here rather than mail host-less links.
async function flushDue(env: Env) {
  return flushDigests(dbFromEnv(env), env, core, { now: nowMs(), origin: configuredOrigin(env) ?? "" });
}

/** After a change that may have written activity: a message only wakes the queue consumer. */
export async function wakeAlerts(env: Env) {
  try {
    await env.ALERTS_QUEUE.send({ wake: true } satisfies AlertWakeUp);
  } catch (e) {
    console.warn("alert wake-up not sent; the cron sweep will catch up", e);
  }
}
