import { execFileSync } from "node:child_process";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium (its headless shell, package chromium-headless-shell)
 * against the built Worker under `wrangler dev`. Each
 * Playwright worker has a console of its own (its own freshly seeded local D1, copied from a template
 * by scripts/serve-local.sh), so workers never see each other's data; one more console, with a short
 * idle timeout, serves the idle tests. All of them deliver mail to the run's one SMTP sink.
 *
 * Environment (all optional):
 * - `E2E_WORKERS`: parallel workers, each with its console (default 2, the machine's cores).
 * - `E2E_PORT_<i>` (worker i's console), `E2E_IDLE_PORT`, `E2E_SMTP_PORT`, `E2E_MAILBOX_PORT`,
 *   `E2E_TILE_PORT`: ports; free ones are picked when unset, so two runs, or a run beside `npm start`,
 *   do not collide. scripts/test.sh keeps one SMTP port for all its runs, so they share one seeded
 *   template (the demo mailer's port is part of the seed).
 *   Maps never fetch tiles from the internet (tests/e2e/tile-server.mjs).
 * - `E2E_NOW`: an ISO-8601 instant (`2026-11-23T17:20:00+01:00`). The whole run happens as if it
 *   started then: the Worker's clock is shifted by the same offset (`TEST_CLOCK_OFFSET_MS`, honoured
 *   only with `ENVIRONMENT=test`, see docs/decisions/0018-test-clock.md) and every page's clock is
 *   installed at the shifted time by the fixtures (tests/e2e/fixtures.ts). Time keeps passing on both.
 *   `scripts/test.sh` runs only the tests tagged `@clock` at its fixed instants (`--grep @clock`).
 * - `E2E_TZ`: the browser's time zone (default America/New_York, on purpose neither the machine's
 *   nor the demo company's).
 * - `E2E_RETRIES`: retries are off unless this is set (a local opt-in; CI never sets it).
 *
 * The main process resolves these once and writes them back to `process.env`, so the worker
 * processes (which load this file again) see the same ports and the same offset.
 */
function freePort(): string {
  const script = "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
}

function resolvedEnv(name: string, make: () => string): string {
  const v = process.env[name];
  if (v !== undefined && v !== "") return v;
  const made = make();
  process.env[name] = made;
  return made;
}

const port = (name: string) => Number(resolvedEnv(name, freePort));

export const E2E_WORKERS = Number(resolvedEnv("E2E_WORKERS", () => "2"));

/** One console per Playwright worker (`testInfo.parallelIndex`). */
export const E2E_CONSOLES = Array.from({ length: E2E_WORKERS }, (_, i) => {
  const consolePort = port(`E2E_PORT_${i}`);
  return { port: consolePort, origin: `http://127.0.0.1:${consolePort}` };
});
export type E2EConsole = (typeof E2E_CONSOLES)[number];

export const E2E_SMTP_PORT = port("E2E_SMTP_PORT");
const E2E_MAILBOX_PORT = port("E2E_MAILBOX_PORT");
export const E2E_MAILBOX = `http://127.0.0.1:${E2E_MAILBOX_PORT}/messages`;

export const E2E_IDLE_PORT = port("E2E_IDLE_PORT");
export const E2E_TILE_ORIGIN = `http://127.0.0.1:${port("E2E_TILE_PORT")}`;

/** Milliseconds the run is shifted by (0: the real time). */
export const E2E_CLOCK_OFFSET_MS = Number(
  resolvedEnv("E2E_CLOCK_OFFSET_MS", () => {
    const at = process.env.E2E_NOW;
    if (!at) return "0";
    const ms = Date.parse(at);
    if (!Number.isFinite(ms)) throw new Error(`E2E_NOW is not an ISO-8601 instant: ${at}`);
    return String(ms - Date.now());
  }),
);

const E2E_TZ = resolvedEnv("E2E_TZ", () => "America/New_York");
const retries = Number(process.env.E2E_RETRIES ?? 0);

// Each console keeps its state in its own folder, named after its port.
const consoleServer = (consolePort: number, extra = "") => ({
  command:
    `rm -rf .tmp/e2e-${consolePort} && FROM_TEMPLATE=1 STATE_DIR=.tmp/e2e-${consolePort} PORT=${consolePort} SMTP_PORT=${E2E_SMTP_PORT} bash scripts/serve-local.sh ` +
    `--var ENVIRONMENT:test --var TEST_CLOCK_OFFSET_MS:${E2E_CLOCK_OFFSET_MS} ` +
    `--var 'MAP_TILE_URL:${E2E_TILE_ORIGIN}/{z}/{x}/{y}.png' --var 'MAP_TILE_ATTRIBUTION:Local test tiles' ${extra}`.trim(),
  url: `http://127.0.0.1:${consolePort}/login`,
  // Generous: on a loaded 2-core machine a fresh build's first start has taken over two minutes.
  timeout: 300_000,
  reuseExistingServer: false,
});

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    // Each worker's own console: tests/e2e/fixtures.ts sets baseURL from the worker's index.
    baseURL: E2E_CONSOLES[0].origin,
    timezoneId: E2E_TZ,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium-headless-shell",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  webServer: [
    { command: `node tests/e2e/tile-server.mjs ${new URL(E2E_TILE_ORIGIN).port}`, url: `${E2E_TILE_ORIGIN}/health`, timeout: 10_000, reuseExistingServer: false },
    { command: `node scripts/smtp-sink.mjs ${E2E_SMTP_PORT} ${E2E_MAILBOX_PORT}`, url: E2E_MAILBOX, timeout: 10_000, reuseExistingServer: false },
    ...E2E_CONSOLES.map((c) => consoleServer(c.port)),
    consoleServer(E2E_IDLE_PORT, "--var IDLE_TIMEOUT_MS:4000 --var IDLE_WARNING_MS:8000"),
  ],
});
