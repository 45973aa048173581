// The package in a real browser (Debian's Chromium, driven by playwright-core): loadCore fetches
// core.wasm over HTTP and must answer the shared fixture like Node. Skipped, saying why, when
// Chromium or playwright-core is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const chromium = "/usr/bin/chromium";
let playwright = null;
try {
  playwright = await import("playwright-core");
} catch {
  // reported by the skip below
}
const skip = !existsSync(chromium) ? `${chromium} is not installed` : !playwright ? "playwright-core is not installed (npm ci --prefix core-wasm)" : false;

const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".html": "text/html" };
const page = `<!doctype html><script type="module">
  import { loadCore } from "/pkg/index.js";
  const fixture = await (await fetch("/tests/fixtures/cases.json")).json();
  const core = await loadCore(new URL("/pkg/core.wasm", location.href));
  window.results = fixture.evals.map((c) => core.evaluate(fixture.windows[c.window], c.at));
</script>`;

test("loadCore in Chromium answers the fixture like Node", { skip }, async () => {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(page);
    const file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const browser = await playwright.chromium.launch({
    executablePath: chromium,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    const results = await tab.waitForFunction(() => globalThis.results, null, { timeout: 20_000 }).then((h) => h.jsonValue());
    const fixture = JSON.parse(readFileSync(join(root, "tests/fixtures/cases.json"), "utf8"));
    fixture.evals.forEach((c, i) => assert.deepEqual(results[i], { open: c.open, local: c.local }, c.name));
  } finally {
    await browser.close();
    server.close();
  }
});
