/**
 * The deploy dry run bundles the Worker with wrangler.toml as it stands: what it would deploy must be
 * production (decision 0044), so a deploy that skips a README step fails closed: Secure cookies, HSTS,
 * no development mailer key, and no links built until PUBLIC_ORIGIN names the real console.
 * Run after a build: `node --test tests/scripts/deploy-config.test.mjs`.
 */
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const OUT = ".tmp/deploy";
const run = promisify(execFile);

/** wrangler prints the vars it would bind, one `env.NAME ("value")` line each. */
const varsIn = (output) => Object.fromEntries([...output.matchAll(/env\.(\w+) \("([^"]*)"\)/g)].map(([, name, value]) => [name, value]));

test("the deploy dry run binds production vars and no local origin", { timeout: 300_000 }, async () => {
  await rm(`${ROOT}/${OUT}`, { recursive: true, force: true });
  const { stdout } = await run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", OUT], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
    maxBuffer: 1 << 24,
  });
  const vars = varsIn(stdout);
  assert.equal(vars.ENVIRONMENT, "production", stdout);
  assert.doesNotMatch(vars.PUBLIC_ORIGIN ?? "", /localhost|127\.0\.0\.1|\[::1\]|^http:/, "PUBLIC_ORIGIN must not name a local or plain-http console");
  assert.equal(vars.TEST_CLOCK_OFFSET_MS, undefined);
  assert.equal(vars.TEST_UNLOCK_TTL_MS, undefined);
});
