import { execFileSync } from "node:child_process";
import { defineConfig } from "@playwright/test";
import { seedInstant } from "./db/seed/clock";

/**
 * End-to-end tests in Debian's Chromium (its headless shell, package chromium-headless-shell)
 * against the built Worker served by Miniflare (scripts/serve-miniflare.mjs: wrangler dev's proxy could drop
 * a POST), as Playwright projects, all in one run:
 * - `real time`: every test not tagged `@clock`, once, at the real time, on two workers; each worker
 *   has a console of its own (its own freshly seeded local D1, copied from a template by
 *   scripts/serve-local.sh), so workers never see each other's data.
 * - `instant <instant>`: the tests tagged `@clock` (their outcome depends on the instant) at each
 *   of CLOCK_INSTANTS, one worker and one console per instant. The run happens as if it started
 *   then: the console's clock is shifted by the same offset (`TEST_CLOCK_OFFSET_MS`, honoured only with
 *   `ENVIRONMENT=test`, see docs/decisions/0018-test-clock.md) and every page's clock is installed at
 *   the shifted time by the fixtures (tests/e2e/fixtures.ts). Time keeps passing on both.
 * Each console's demo data is seeded relative to its own clock: at the start of the UTC day it reads
 * when the run starts (`SEED_NOW`, `seedNow()` in the fixtures; docs/decisions/0064-seed-relative-to-the-run-clock.md),
 * so a run at any date, real or shifted, sees e-keys in force and recent traffic.
 * One more console, with a short idle timeout, serves the idle tests. All deliver mail to one SMTP sink
 * and texts to one text-message sink (scripts/sms-sink.mjs; E2E_TEXTS lists what it received); on all, a
 * board has E2E_UNLOCK_TTL_MS to answer an unlock.
 *
 * Environment (all optional):
 * - `E2E_NOW`: an ISO-8601 instant (`2026-11-23T17:20:00+01:00`): one project instead, every test at
 *   that instant (to reproduce a failure: `E2E_NOW=… npx playwright test tests/e2e/ekeys.spec.ts`).
 * - `E2E_WORKERS`: parallel workers (default 2, the machine's cores), each real-time worker with its console.
 * - `E2E_PORT_<i>` (real-time worker i's console), `E2E_CLOCK_PORT_<k>` (instant k's console),
 *   `E2E_IDLE_PORT`, `E2E_SMTP_PORT`, `E2E_MAILBOX_PORT`, `E2E_SMS_PORT`, `E2E_TILE_PORT`, `E2E_OIDC_PORT`: ports; free ones are picked
 *   when unset, so two runs, or a run beside `npm start`, do not collide. All consoles of a run use
 *   one SMTP port, so they copy one seeded template (the demo mailer's port is part of the seed).
 *   Maps never fetch tiles from the internet (tests/e2e/tile-server.mjs).
 * - `E2E_TZ`: the browser's time zone (default America/New_York, on purpose neither the machine's
 *   nor the demo company's).
 * - `E2E_RETRIES`: retries are off unless this is set (a local opt-in; CI never sets it).
 * - `E2E_SCREENSHOTS=1`: keep the pictures tests take for a person to review (test-results/screens/,
 *   `keepScreenshot` in tests/e2e/fixtures.ts); the gate skips them.
 *
 * The main process resolves these once and writes them back to `process.env`, so the worker
 * processes (which load this file again) see the same ports and the same offsets.
 */
/**
 * A free port below Linux's ephemeral range (32768–60999): a port the kernel hands out (`listen(0)`, an
 * outgoing connection) to a suite running beside this one cannot be taken between this pick and the
 * console's bind, which once failed a whole run with "Address already in use".
 */
function freePort(): string {
  const script =
    "const net=require('net');const pick=()=>{const p=20000+Math.floor(Math.random()*12000);const s=net.createServer();s.once('error',pick);s.listen(p,'127.0.0.1',()=>{process.stdout.write(String(p));s.close()})};pick()";
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
const origin = (consolePort: number) => `http://127.0.0.1:${consolePort}`;

/**
 * The instants the `@clock` tests run at: a Monday inside working hours, and the Sunday night
 * Europe/Madrid springs forward, half an hour before 02:00 becomes 03:00 and five minutes after.
 */
const CLOCK_INSTANTS = ["2026-11-23T17:20:00+01:00", "2027-03-28T01:30:00+01:00", "2027-03-28T03:05:00+02:00"];

/** Milliseconds from now to `at`, resolved once per run (`E2E_OFFSET_<name>`). */
function offsetTo(name: string, at: string): number {
  return Number(
    resolvedEnv(`E2E_OFFSET_${name}`, () => {
      const ms = Date.parse(at);
      if (!Number.isFinite(ms)) throw new Error(`not an ISO-8601 instant: ${at}`);
      return String(ms - Date.now());
    }),
  );
}

export const E2E_WORKERS = Number(resolvedEnv("E2E_WORKERS", () => "2"));
const perWorker = () => Array.from({ length: E2E_WORKERS }, (_, i) => port(`E2E_PORT_${i}`));

/** The seed instant of consoles shifted by `clockOffsetMs`, resolved once per run (`E2E_SEED_<name>`). */
const seedAt = (name: string, clockOffsetMs: number): number => Number(resolvedEnv(`E2E_SEED_${name}`, () => String(seedInstant(Date.now() + clockOffsetMs))));

/** A project of the run: which tests, at which clock offset and seed instant, on which consoles (one per worker). */
type E2ERun = { name: string; clockOffsetMs: number; seedNow: number; consolePorts: number[]; grep?: RegExp; grepInvert?: RegExp; workers?: number };

const E2E_NOW = process.env.E2E_NOW;
const atNow = E2E_NOW ? offsetTo("NOW", E2E_NOW) : 0;
export const E2E_RUNS: E2ERun[] = E2E_NOW
  ? [{ name: `at ${E2E_NOW}`, clockOffsetMs: atNow, seedNow: seedAt("NOW", atNow), consolePorts: perWorker() }]
  : [
      { name: "real time", clockOffsetMs: 0, seedNow: seedAt("REAL", 0), consolePorts: perWorker(), grepInvert: /@clock/ },
      // `@clock-once`: a Spanish variant, at the first instant only (tests/e2e/fixtures.ts, clockTag).
      ...CLOCK_INSTANTS.map((at, k) => ({
        name: `instant ${at}`,
        clockOffsetMs: offsetTo(String(k), at),
        seedNow: seedAt(String(k), offsetTo(String(k), at)),
        consolePorts: [port(`E2E_CLOCK_PORT_${k}`)],
        grep: /@clock/,
        grepInvert: k === 0 ? undefined : /@clock-once/,
        workers: 1,
      })),
    ];

export const E2E_SMTP_PORT = port("E2E_SMTP_PORT");
const E2E_MAILBOX_PORT = port("E2E_MAILBOX_PORT");
export const E2E_MAILBOX = `http://127.0.0.1:${E2E_MAILBOX_PORT}/messages`;

const E2E_SMS_PORT = port("E2E_SMS_PORT");
export const E2E_TEXTS = `http://127.0.0.1:${E2E_SMS_PORT}/messages`;

export const E2E_IDLE_PORT = port("E2E_IDLE_PORT");
export const E2E_TILE_ORIGIN = `http://127.0.0.1:${port("E2E_TILE_PORT")}`;

/** Every console port of the run, for the teardown. */
export const E2E_CONSOLE_PORTS = [...E2E_RUNS.flatMap((r) => r.consolePorts), E2E_IDLE_PORT];

/** The real OpenID provider of the single sign-on specs (scripts/oidc-idp.mjs); its client knows every console's callback. */
export const E2E_OIDC_ISSUER = `http://127.0.0.1:${port("E2E_OIDC_PORT")}`;
/** The real SAML identity provider of the SAML spec (scripts/saml-idp.mjs, samlify); it reads each console's SP metadata from 127.0.0.1. */
export const E2E_SAML_IDP = `http://127.0.0.1:${port("E2E_SAML_IDP_PORT")}`;

const E2E_TZ = resolvedEnv("E2E_TZ", () => "America/New_York");
const retries = Number(process.env.E2E_RETRIES ?? 0);

/**
 * A board's time to answer an unlock on the test consoles: 20 s instead of 60 (honoured with
 * `ENVIRONMENT=test` only), so remote-unlock.spec.ts's expiry test waits 20 s, not a minute; its
 * success tests already give the board 20 s (docs/decisions/0069-gate-time-per-suite.md).
 */
export const E2E_UNLOCK_TTL_MS = 20_000;

/**
 * The sender number of a console's texts: its port after +1555, so a test reads only the texts its own
 * console sent (every console texts the same demo people through one sink).
 */
export const smsFromOf = (consolePort: number): string => `+1555${consolePort}`;

// Each console keeps its state in its own folder, named after its port, copied from the template of its seed instant.
const consoleServer = (consolePort: number, clockOffsetMs: number, seedNow: number, extra = "") => ({
  command:
    `rm -rf .tmp/e2e-${consolePort} && RUNTIME=miniflare FROM_TEMPLATE=1 STATE_DIR=.tmp/e2e-${consolePort} PORT=${consolePort} SMTP_PORT=${E2E_SMTP_PORT} SMS_PORT=${E2E_SMS_PORT} SEED_NOW=${seedNow} bash scripts/serve-local.sh ` +
    `--var ENVIRONMENT:test --var TEST_CLOCK_OFFSET_MS:${clockOffsetMs} --var TEST_UNLOCK_TTL_MS:${E2E_UNLOCK_TTL_MS} --var SMS_FROM:${smsFromOf(consolePort)} ` +
    `--var 'MAP_TILE_URL:${E2E_TILE_ORIGIN}/{z}/{x}/{y}.png' --var 'MAP_TILE_ATTRIBUTION:Local test tiles' ${extra}`.trim(),
  url: `${origin(consolePort)}/login`,
});

/** Every console of the run, started side by side (tests/e2e/start-consoles.mjs says why). */
const E2E_CONSOLES = [
  ...E2E_RUNS.flatMap((r) => r.consolePorts.map((p) => consoleServer(p, r.clockOffsetMs, r.seedNow))),
  consoleServer(E2E_IDLE_PORT, 0, seedAt("REAL", 0), "--var IDLE_TIMEOUT_MS:4000 --var IDLE_WARNING_MS:8000"),
];
const E2E_CONSOLES_READY = origin(port("E2E_CONSOLES_READY_PORT"));

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["./tests/e2e/project-times-reporter.ts"]],
  use: {
    // Each worker's own console: tests/e2e/fixtures.ts sets baseURL from the project and the worker's index.
    baseURL: origin(E2E_RUNS[0].consolePorts[0]),
    timezoneId: E2E_TZ,
    // The console honours prefers-reduced-motion (app/tailwind.css): dialogs, spinners and the
    // loading bar then do not animate. Animating them cost a tenth of the run's CPU (35 tests: 180
    // CPU-s with reduced motion, 196-207 without) and checks nothing a test reads.
    reducedMotion: "reduce",
    // No trace: recording one for every test cost a fifth of the run's CPU (29 tests: 230 CPU-s with
    // traces kept on failure, 185 without), and CI keeps only the printed output. Reproduce a failure
    // with `npx playwright test <spec> --trace on`.
    trace: "off",
    // No connection is reused. workerd closes a connection idle for 5 s, and a request written on it
    // as it closes is reset (ECONNRESET): a test's request context posting after 5 s of clicking hit
    // it in CI. The browser retries such a request itself; Playwright's request context does not.
    extraHTTPHeaders: { connection: "close" },
    launchOptions: {
      executablePath: "/usr/bin/chromium-headless-shell",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  webServer: [
    { command: `node tests/e2e/tile-server.mjs ${new URL(E2E_TILE_ORIGIN).port}`, url: `${E2E_TILE_ORIGIN}/health`, timeout: 10_000, reuseExistingServer: false },
    { command: `node scripts/smtp-sink.mjs ${E2E_SMTP_PORT} ${E2E_MAILBOX_PORT}`, url: E2E_MAILBOX, timeout: 10_000, reuseExistingServer: false },
    { command: `node scripts/sms-sink.mjs ${E2E_SMS_PORT}`, url: E2E_TEXTS, timeout: 10_000, reuseExistingServer: false },
    {
      command: `node scripts/oidc-idp.mjs ${new URL(E2E_OIDC_ISSUER).port} ${E2E_CONSOLE_PORTS.map(origin).join(",")}`,
      url: `${E2E_OIDC_ISSUER}/health`,
      timeout: 10_000,
      reuseExistingServer: false,
    },
    { command: `node scripts/saml-idp.mjs --port ${new URL(E2E_SAML_IDP).port}`, url: `${E2E_SAML_IDP}/metadata`, timeout: 10_000, reuseExistingServer: false },
    {
      command: `node tests/e2e/start-consoles.mjs ${new URL(E2E_CONSOLES_READY).port}`,
      env: { E2E_CONSOLES: JSON.stringify(E2E_CONSOLES) },
      url: E2E_CONSOLES_READY,
      // Generous: on a loaded 2-core machine a fresh build's first start has taken over two minutes.
      timeout: 300_000,
      reuseExistingServer: false,
    },
  ],
  projects: E2E_RUNS.map(({ name, clockOffsetMs, seedNow, consolePorts, grep, grepInvert, workers }) => ({
    name,
    grep,
    grepInvert,
    workers,
    metadata: { clockOffsetMs, seedNow, consoleOrigins: consolePorts.map(origin) },
  })),
});
