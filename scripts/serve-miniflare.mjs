/**
 * Serves the built console Worker with Miniflare directly: `node scripts/serve-miniflare.mjs <port>
 * <state dir> [--var NAME:value]...`. The test consoles use it (RUNTIME=miniflare in
 * scripts/serve-local.sh) instead of `wrangler dev`, whose proxy in front of the Worker can drop a
 * POST with 503 "Your worker restarted mid-request" when its pooled connection idles out as the
 * request is written (cloudflare/workers-sdk#14641), and costs CPU the browser needs.
 *
 * The bindings are wrangler.toml's with `.dev.vars` and the `--var`s on top; the state directory is
 * the one `wrangler dev --persist-to` keeps (its `v3/`). The Worker is wrangler's bundle
 * (scripts/console-bundle.mjs). Static assets are served without `public/_headers`' headers: `npm start` and a
 * deploy apply those. Miniflare runs no cron of its own: a test fires the Worker's `scheduled` with
 * `GET /cdn-cgi/handler/scheduled[?time=<epoch ms>]` with the header `MF-Route-Override:
 * keyless-access-console` (Miniflare's trigger, never part of a deploy; without the header it reaches the
 * static-assets router, which has no cron), e.g.
 * to send webhook retries that fall due later (tests/e2e/webhooks.spec.ts).
 */
import path from "node:path";
import { Miniflare } from "miniflare";
import { consoleWorkerOptions } from "./console-bundle.mjs";

const [port, stateDir, ...rest] = process.argv.slice(2);
const vars = Object.fromEntries(rest.filter((_, i) => rest[i - 1] === "--var").map((v) => [v.slice(0, v.indexOf(":")), v.slice(v.indexOf(":") + 1)]));

const mf = new Miniflare({
  host: "127.0.0.1",
  port: Number(port),
  defaultPersistRoot: path.resolve(stateDir, "v3"),
  unsafeTriggerHandlers: true,
  workers: [consoleWorkerOptions("keyless-access-console", vars)],
});
await mf.ready;
console.log(`Ready on http://127.0.0.1:${port}`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void mf.dispose().then(() => process.exit(0)));
