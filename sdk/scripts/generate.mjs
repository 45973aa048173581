/**
 * Regenerates the SDK from the admin API's code: the OpenAPI document as the built console Worker serves it
 * (`/api/openapi.json`, generated from the endpoint tables), written to sdk/openapi.json, and its types by
 * openapi-typescript, written to sdk/src/schema.d.ts. `npm run sdk:generate` builds the Worker first; with
 * `--from <origin>` the document comes from a running console instead (e.g. http://127.0.0.1:8787).
 */
import fs from "node:fs";
import { schemaTypes } from "./types.mjs";

const SDK = new URL("..", import.meta.url);
const fromAt = process.argv.indexOf("--from");

async function fromBuiltWorker() {
  // Miniflare over wrangler's bundle (scripts/console-bundle.mjs), as the test consoles run it; the route reads no data.
  const { Miniflare } = await import("miniflare");
  const { consoleWorkerOptions } = await import("../../scripts/console-bundle.mjs");
  const mf = new Miniflare({ workers: [consoleWorkerOptions("sdk-generate", { ENVIRONMENT: "development" })] });
  try {
    return await answer(await mf.dispatchFetch("http://localhost/api/openapi.json"));
  } finally {
    await mf.dispose();
  }
}

async function answer(res) {
  if (!res.ok) throw new Error(`/api/openapi.json answered ${res.status}`);
  return res.json();
}

const document = fromAt > 0 ? await answer(await fetch(new URL("/api/openapi.json", process.argv[fromAt + 1]))) : await fromBuiltWorker();
fs.writeFileSync(new URL("openapi.json", SDK), JSON.stringify(document, null, 2) + "\n");
fs.writeFileSync(new URL("src/schema.d.ts", SDK), await schemaTypes(document));
console.log(`sdk/openapi.json and sdk/src/schema.d.ts: ${Object.keys(document.paths).length} paths`);
