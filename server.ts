import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build is produced by `remix vite:build` before wrangler bundles this entry. It is
// absent from a fresh clone, so the type check must not need it; its type is asserted below.
// @ts-ignore -- resolved only after a build
import * as build from "./build/server";
// Workers only instantiate precompiled modules; wrangler turns this import into one.
import coreModule from "./core-wasm/pkg/core.wasm";
import { createCore } from "./core-wasm/pkg/index.js";
import { runAlertEngine } from "./app/services/alert-engine.server";
import { settleExpired } from "./app/services/device-commands.server";
import { pruneFeed } from "./app/services/gateway-feed.server";
import { drainOutbox } from "./app/services/mail/outbox.server";
import { purgeSignInLeftovers } from "./app/services/sign-in-purge.server";
import { configureClock, nowMs } from "./app/utils/clock.server";
import { countRoundTrips } from "./app/utils/d1-round-trips.server";
import { dbFromEnv } from "./app/utils/db.server";
import { configuredOrigin } from "./app/utils/origin.server";
import { deleteExpiredSessions } from "./app/utils/session.server";
import { limitBody, refuseCrossSite, withHost, withSecurityHeaders } from "./app/utils/http.server";
import { getLoadContext } from "./load-context";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);
const core = createCore(coreModule);

export default {
  async fetch(incoming, workerEnv, ctx) {
    const counted = (workerEnv.ENVIRONMENT as string) === "test" ? countRoundTrips(workerEnv.DB) : null;
    const env = counted ? { ...workerEnv, DB: counted.db } : workerEnv;
    configureClock(env);
    // Before anything parses the request: its size, and (console actions) where it comes from.
    const limited = await limitBody(incoming);
    if (limited instanceof Response) return withSecurityHeaders(limited, env);
    const request = withHost(limited);
    const crossSite = refuseCrossSite(request);
    if (crossSite) return withSecurityHeaders(crossSite, env);
    const loadContext = getLoadContext({
      request,
      context: {
        cloudflare: {
          cf: request.cf as never,
          ctx: { waitUntil: ctx.waitUntil.bind(ctx), passThroughOnException: ctx.passThroughOnException.bind(ctx) } as never,
          caches: caches as never,
          env,
        },
        core,
      },
    });
    const response = await handleRemixRequest(request, loadContext);
    // A change may have written activity: wake the alert engine (a message only wakes it; the
    // engine reads activity_logs past its cursor, and the cron sweeps when a message is lost).
    if (request.method !== "GET" && request.method !== "HEAD" && response.status < 400) ctx.waitUntil(wakeAlerts(env));
    const secured = withSecurityHeaders(response, env);
    // Loaders have finished when a response exists; the Workers tests read this to hold pages to a query budget.
    if (counted) secured.headers.set("X-D1-Round-Trips", String(counted.count()));
    return secured;
  },
  // The alert queue's consumer (wrangler.toml): one engine run per batch of wake-ups, then the mail it queued leaves.
  async queue(batch, env, ctx) {
    configureClock(env);
    await runAlerts(env);
    batch.ackAll();
    ctx.waitUntil(drainOutbox(env, { limit: 50 }).catch((e) => console.error("mail delivery failed", e)));
  },
  // The cron trigger (wrangler.toml) retries mail that a request's own delivery could not send,
  // and drops what has outlived its use: dead sessions, gateway changes past their retention; remote
  // commands no board answered in time are failed (their pages settle them too when asked).
  async scheduled(_controller, env, ctx) {
    configureClock(env);
    const db = dbFromEnv(env);
    const now = nowMs();
    ctx.waitUntil(runAlerts(env).then(() => drainOutbox(env, { limit: 50, now })));
    ctx.waitUntil(deleteExpiredSessions(db, env, now));
    ctx.waitUntil(pruneFeed(db, now));
    ctx.waitUntil(purgeSignInLeftovers(db, now));
    ctx.waitUntil(settleExpired(db, now));
  },
} satisfies ExportedHandler<Env, AlertWakeUp>;

type AlertWakeUp = { wake: true };

// Alert mail links to the console: production without PUBLIC_ORIGIN refuses here rather than mail host-less links.
async function runAlerts(env: Env) {
  return runAlertEngine(dbFromEnv(env), core, { now: nowMs(), origin: configuredOrigin(env) ?? "" });
}

async function wakeAlerts(env: Env) {
  try {
    await env.ALERTS_QUEUE.send({ wake: true } satisfies AlertWakeUp);
  } catch (e) {
    console.warn("alert wake-up not sent; the cron sweep will catch up", e);
  }
}
