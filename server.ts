import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build is produced by `remix vite:build` before wrangler bundles this entry.
import * as build from "./build/server";
import { getLoadContext } from "./load-context";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export default {
  async fetch(request, env, ctx) {
    const loadContext = getLoadContext({
      request,
      context: {
        cloudflare: {
          cf: request.cf as never,
          ctx: { waitUntil: ctx.waitUntil.bind(ctx), passThroughOnException: ctx.passThroughOnException.bind(ctx) } as never,
          caches: caches as never,
          env,
        },
      },
    });
    return handleRemixRequest(request, loadContext);
  },
} satisfies ExportedHandler<Env>;
