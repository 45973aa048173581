/**
 * Serves the built console Worker with Miniflare directly: `node scripts/serve-miniflare.mjs <port>
 * <state dir> [--var NAME:value]...`. The test consoles use it (RUNTIME=miniflare in
 * scripts/serve-local.sh) instead of `wrangler dev`, whose proxy in front of the Worker can drop a
 * POST with 503 "Your worker restarted mid-request" when its pooled connection idles out as the
 * request is written (cloudflare/workers-sdk#14641), and costs CPU the browser needs.
 *
 * The bindings are wrangler.toml's, read by wrangler itself (unstable_getMiniflareWorkerOptions),
 * with `.dev.vars` and the `--var`s on top; the state directory is the one `wrangler dev
 * --persist-to` keeps (its `v3/`). The Worker is the bundle `wrangler deploy --dry-run` wrote to
 * .tmp/bundle. Static assets are served without `public/_headers`' headers: `npm start` and a
 * deploy apply those.
 */
import fs from "node:fs";
import path from "node:path";
import { Miniflare } from "miniflare";
import wrangler from "wrangler";

const BUNDLE = path.resolve(".tmp/bundle");
const [port, stateDir, ...rest] = process.argv.slice(2);
const vars = rest.filter((_, i) => rest[i - 1] === "--var");

const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions("wrangler.toml", undefined, {});
const bindings = { ...workerOptions.bindings };
for (const v of vars) {
  const at = v.indexOf(":");
  bindings[v.slice(0, at)] = v.slice(at + 1);
}

const mf = new Miniflare({
  host: "127.0.0.1",
  port: Number(port),
  defaultPersistRoot: path.resolve(stateDir, "v3"),
  workers: [
    {
      ...workerOptions,
      name: "keyless-access-console",
      bindings,
      // The bundle imports modules dynamically, so Miniflare is told every module instead of finding them.
      modulesRoot: BUNDLE,
      modules: [
        { type: "ESModule", path: path.join(BUNDLE, "server.js") },
        ...fs
          .readdirSync(BUNDLE)
          .filter((f) => f.endsWith(".wasm"))
          .map((f) => ({ type: "CompiledWasm", path: path.join(BUNDLE, f) })),
      ],
    },
  ],
});
await mf.ready;
console.log(`Ready on http://127.0.0.1:${port}`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void mf.dispose().then(() => process.exit(0)));
