/**
 * The console Worker as Miniflare runs it from wrangler's bundle (scripts/bundle-console.sh): the
 * bindings wrangler.toml declares, read by wrangler itself, and the bundle's modules. Used by the
 * end-to-end consoles (scripts/serve-miniflare.mjs) and the Workers tests (vitest.workers.config.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import wrangler from "wrangler";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUNDLE = path.join(ROOT, ".tmp/bundle");

/** wrangler.toml's Worker options (with `.dev.vars`), before any module is named. */
export function wranglerWorkerOptions() {
  return wrangler.unstable_getMiniflareWorkerOptions(path.join(ROOT, "wrangler.toml"), undefined, {}).workerOptions;
}

/**
 * Miniflare options for the bundled console: wrangler.toml's, with `bindings` laid over its vars.
 * @param {string} name
 * @param {Record<string, string>} [bindings]
 * @returns {import("miniflare").WorkerOptions}
 */
export function consoleWorkerOptions(name, bindings = {}) {
  const options = wranglerWorkerOptions();
  return {
    ...options,
    name,
    bindings: { ...options.bindings, ...bindings },
    // The bundle imports modules dynamically, so Miniflare is told every module instead of finding them.
    modulesRoot: BUNDLE,
    modules: [
      { type: "ESModule", path: path.join(BUNDLE, "server.js") },
      ...fs
        .readdirSync(BUNDLE)
        .filter((f) => f.endsWith(".wasm"))
        .map((f) => ({ type: "CompiledWasm", path: path.join(BUNDLE, f) })),
    ],
  };
}
