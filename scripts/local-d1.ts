// The local D1 that `wrangler dev` and the test consoles use, opened alone for the seed scripts: Miniflare
// with wrangler.toml's D1 and nothing else (the Durable Objects belong to the console's bundle).
// PERSIST_TO selects another local state directory (its `v3/`), as the e2e and bench servers keep.
import path from "node:path";
import { Miniflare } from "miniflare";
import { wranglerWorkerOptions } from "./console-bundle.mjs";

export async function openLocalD1(): Promise<{ db: D1Database; dispose: () => Promise<void> }> {
  const mf = new Miniflare({
    modules: true,
    script: "export default {}",
    d1Databases: wranglerWorkerOptions().d1Databases,
    defaultPersistRoot: path.resolve(process.env.PERSIST_TO ?? ".wrangler/state/v3"),
  });
  return { db: (await mf.getD1Database("DB")) as unknown as D1Database, dispose: () => mf.dispose() };
}
