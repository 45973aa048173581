import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build is produced by `remix vite:build` before wrangler bundles this entry. It is
// absent from a fresh clone, so the type check must not need it; its type is asserted below.
// @ts-ignore -- resolved only after a build
import * as build from "./build/server";
// Workers only instantiate precompiled modules; wrangler turns this import into one.
import coreModule from "./core-wasm/pkg/core.wasm";
import { createCore } from "./core-wasm/pkg/index.js";
import { pruneFeed } from "./app/services/gateway-feed.server";
import { drainOutbox } from "./app/services/mail/outbox.server";
import { purgeSignInLeftovers } from "./app/services/sign-in-purge.server";
import { configureClock, nowMs } from "./app/utils/clock.server";
import { dbFromEnv } from "./app/utils/db.server";
import { deleteExpiredSessions } from "./app/utils/session.server";
import { limitBody, refuseCrossSite, withHost, withSecurityHeaders } from "./app/utils/http.server";
import { getLoadContext } from "./load-context";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);
const core = createCore(coreModule);

export default {
  async fetch(incoming, env, ctx) {
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
    return withSecurityHeaders(await handleRemixRequest(request, loadContext), env);
  },
  // The cron trigger (wrangler.toml) retries mail that a request's own delivery could not send,
  // and drops what has outlived its use: dead sessions, gateway changes past their retention.
  async scheduled(_controller, env, ctx) {
    configureClock(env);
    const db = dbFromEnv(env);
    const now = nowMs();
    ctx.waitUntil(drainOutbox(env, { limit: 50, now }));
    ctx.waitUntil(deleteExpiredSessions(db, env, now));
    ctx.waitUntil(pruneFeed(db, now));
    ctx.waitUntil(purgeSignInLeftovers(db, now));
  },
} satisfies ExportedHandler<Env>;
