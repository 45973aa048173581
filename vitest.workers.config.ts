/**
 * Workers integration tests: the console Worker as deployed (wrangler's bundle of server.ts and the
 * Remix build, in .tmp/bundle) in workerd with a real D1 (migrations + demo seed) and R2. Run
 * `npm run test:workers`, which builds both first.
 *
 * The bundle runs as its own worker ("console") beside the test runner, which reaches it through the
 * CONSOLE binding (`consoleWorker` in tests/workers/helpers.ts) and shares its D1, R2 and queue.
 * workerd loads the bundle natively, in a fraction of a second per test file; as the runner's `main`
 * it went through the test module loader, about ten seconds per file, and each request through SELF
 * took longer than the one before. The runner is the queue's producer only: the console consumes it.
 * Files that call the queue and cron handlers import worker-background.ts, which loads no Remix build;
 * the two that call `fetch` with an environment of their own import server.ts and pay the ten seconds
 * themselves (docs/decisions/0045-a-gate-under-twenty-minutes.md).
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";
import { consoleWorkerOptions, wranglerWorkerOptions } from "./scripts/console-bundle.mjs";
import { newSigningKeys } from "./scripts/credential-keys.mjs";
import { seedInstant } from "./db/seed/clock";
import { startSmsSink } from "./scripts/sms-sink.mjs";
import { startWebhookReceiver } from "./scripts/webhook-receiver.mjs";
import { samlKeyPair, startSamlIdp } from "./scripts/saml-idp.mjs";

// The runner gets wrangler.toml's bindings too (files that import server.ts call its handlers with
// the runner's env), but neither the queue's consumer nor the static assets: those are the console's.
const { queueConsumers: _consumers, assets: _assets, durableObjects, ...runnerOptions } = wranglerWorkerOptions();
// The Durable Object classes live in the console's bundle: the runner reaches them there.
const runnerDurableObjects = Object.fromEntries(
  Object.entries(durableObjects ?? {}).map(([name, d]) => [name, { ...(typeof d === "string" ? { className: d } : d), scriptName: "console" }]),
);

export default defineConfig({
  plugins: [
    tsconfigPaths(),
    cloudflareTest(async () => {
      // The text-message provider of the run: a real local sink (scripts/sms-sink.mjs); tests read /messages by recipient.
      const sms = await startSmsSink(0, { quiet: true });
      sms.server.unref();
      // A real webhook receiver (scripts/webhook-receiver.mjs) the console posts to; tests read what arrived.
      const hooks = await startWebhookReceiver(0, { quiet: true });
      hooks.server.unref();
      // A real SAML identity provider (scripts/saml-idp.mjs, samlify) and the console's SP key pair, made for this run
      // (tests/workers/sso-saml.test.ts); the runner alone also gets the IdP's key, to sign the attack cases' assertions.
      const idpKeys = samlKeyPair("saml-idp.test");
      const samlIdp = await startSamlIdp({ quiet: true, keys: idpKeys });
      samlIdp.server.unref();
      const spKeys = samlKeyPair("console.test");
      const bindings = {
        GATEWAY_SECRET: "test-gateway-secret",
        // Keys made for this run only (never committed), as scripts/credential-keys.mjs makes one for local runs:
        // the first serves cell "b" alone, the second every cell (docs/decisions/0051-credential-keys-per-cell.md).
        CREDENTIAL_SIGNING_KEYS: JSON.stringify([{ ...JSON.parse(await newSigningKeys())[0], kid: "cell-b-key", cell: "b" }, ...JSON.parse(await newSigningKeys())]),
        ENVIRONMENT: "test",
        // Links in mail are built from this, never from the request's Host.
        PUBLIC_ORIGIN: "https://console.test",
        SMS_API_URL: sms.url,
        SMS_ACCOUNT_SID: "ACtest",
        SMS_AUTH_TOKEN: "test-only",
        SMS_FROM: "+15550100000",
        // WORKERS_NOW=<ISO instant> runs the suite as if it started then (docs/decisions/0018-test-clock.md).
        TEST_CLOCK_OFFSET_MS: String(process.env.WORKERS_NOW ? Date.parse(process.env.WORKERS_NOW) - Date.now() : 0),
        SAML_SP_PRIVATE_KEY: spKeys.privateKey,
        SAML_SP_CERT: spKeys.cert,
      };
      return {
        miniflare: {
          ...runnerOptions,
          bindings: {
            ...runnerOptions.bindings,
            ...bindings,
            TEST_MIGRATIONS: await readD1Migrations("./db/migrations"),
            WEBHOOK_RECEIVER_URL: hooks.url,
            SAML_IDP_URL: samlIdp.url,
            SAML_TEST_IDP_KEY: idpKeys.privateKey,
            // The instant every file's demo seed is relative to: the start of the UTC day the suite's clock reads
            // when it starts (db/seed/clock.ts, decision 0064); `seedNow()` in tests/workers/helpers.ts.
            SEED_NOW: String(seedInstant(process.env.WORKERS_NOW ? Date.parse(process.env.WORKERS_NOW) : Date.now())),
          },
          durableObjects: runnerDurableObjects,
          // The runner's alone: D1 as it was before the activity outbox, for the store's differential test
          // (tests/workers/company-log.test.ts); the console never sees it.
          d1Databases: { ...runnerOptions.d1Databases, REFERENCE_DB: { id: "reference-single-table" } },
          serviceBindings: { CONSOLE: "console" },
          workers: [consoleWorkerOptions("console", bindings)],
        },
      };
    }),
  ],
  test: {
    include: ["tests/workers/**/*.test.ts"],
    setupFiles: ["./tests/workers/setup.ts"],
    // A real SMTP server on 127.0.0.1 for tests/workers/mail.test.ts.
    globalSetup: ["./tests/workers/smtp-global-setup.ts"],
    testTimeout: 30_000,
    maxWorkers: 2,
    // Prebundled once rather than loaded module by module into every file's workerd: drizzle-orm
    // halves each file's setup (migrate and seed), the rest serve the files that import server.ts.
    deps: {
      optimizer: {
        ssr: {
          enabled: true,
          include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "remix-auth", "remix-auth-form", "cookie", "drizzle-orm", "drizzle-orm/d1", "drizzle-orm/sqlite-core"],
        },
      },
    },
  },
});
