import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build is produced by `remix vite:build` before wrangler bundles this entry. It is
// absent from a fresh clone, so the type check must not need it; its type is asserted below.
// @ts-ignore -- resolved only after a build
import * as build from "./build/server";
import { configureClock } from "./app/utils/clock.server";
import { countLogRoundTrips, countRoundTrips } from "./app/utils/d1-round-trips.server";
import { limitBody, refuseCrossSite, withHost, withSecurityHeaders } from "./app/utils/http.server";
import { getLoadContext } from "./load-context";
import { gatewayWakes, inRequestScope } from "./app/utils/request-scope.server";
import { GATEWAY_WAKE_PATH, openGatewayWake, wakeGateways } from "./app/api/gateway-wake.server";
import { core } from "./app/core.server";
import { background, wakeAlerts, type AlertWakeUp } from "./worker-background";

export { ArchiveView } from "./app/durable/archive-view";
export { CompanyLog } from "./app/durable/company-log";
export { FeedWake } from "./app/durable/feed-wake";
export { RateLimiter } from "./app/durable/rate-limiter";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export default {
  // Each request in its own scope: a support session's audit rows name the support (decision 0093).
  fetch: (incoming, workerEnv, ctx) => inRequestScope(() => serve(incoming, workerEnv, ctx)),
  ...background,
} satisfies ExportedHandler<Env, AlertWakeUp>;

async function serve(incoming: Request, workerEnv: Env, ctx: ExecutionContext): Promise<Response> {
  const testing = (workerEnv.ENVIRONMENT as string) === "test";
  const counted = testing ? countRoundTrips(workerEnv.DB) : null;
  const logReads = testing ? countLogRoundTrips(workerEnv.COMPANY_LOG) : null;
  const env = counted && logReads ? { ...workerEnv, DB: counted.db, COMPANY_LOG: logReads.ns } : workerEnv;
  configureClock(env);
  // Before anything parses the request: its size, and (console actions) where it comes from.
  const limited = await limitBody(incoming);
  if (limited instanceof Response) return withSecurityHeaders(limited, env);
  const request = withHost(limited);
  const crossSite = refuseCrossSite(request);
  if (crossSite) return withSecurityHeaders(crossSite, env);
  if (new URL(request.url).pathname === GATEWAY_WAKE_PATH) {
    // The WebSocket answer goes back as the Durable Object made it: Remix and the header step would copy it without its socket.
    const opened = await openGatewayWake(request, workerEnv);
    return opened.status === 101 ? opened : withSecurityHeaders(opened, env);
  }
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
  // A change may have written activity: wake the queue consumer, which drains D1's activity outbox
  // into the company stores and their alert engines (a message only wakes it; the cron sweeps when one is lost).
  if (request.method !== "GET" && request.method !== "HEAD" && response.status < 400) ctx.waitUntil(wakeAlerts(env));
  // A change the doors must know at once (a lockdown): its cell's gateways read the feed now, not at their next poll.
  const wakes = gatewayWakes();
  if (wakes.length > 0) ctx.waitUntil(wakeGateways(workerEnv, wakes));
  const secured = withSecurityHeaders(response, env);
  // Loaders have finished when a response exists; the Workers tests read this to hold pages to a query budget.
  if (counted) secured.headers.set("X-D1-Round-Trips", String(counted.count()));
  if (logReads) secured.headers.set("X-Log-Round-Trips", String(logReads.count()));
  return secured;
}
