/**
 * Workers integration tests: the real Worker (server.ts → Remix build) in workerd with a real D1
 * (migrations + demo seed) and R2. Run `remix vite:build` first; `npm run test:workers` does.
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";
import { newSigningKeys } from "./scripts/credential-keys.mjs";

export default defineConfig({
  plugins: [
    tsconfigPaths(),
    cloudflareTest(async () => ({
      main: "./server.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations("./db/migrations"),
          GATEWAY_SECRET: "test-gateway-secret",
          // A key made for this run only (never committed), as scripts/credential-keys.mjs makes one for local runs.
          CREDENTIAL_SIGNING_KEYS: await newSigningKeys(),
          ENVIRONMENT: "test",
          // Links in mail are built from this, never from the request's Host.
          PUBLIC_ORIGIN: "https://console.test",
          // WORKERS_NOW=<ISO instant> runs the suite as if it started then (docs/decisions/0018-test-clock.md).
          TEST_CLOCK_OFFSET_MS: String(process.env.WORKERS_NOW ? Date.parse(process.env.WORKERS_NOW) - Date.now() : 0),
        },
      },
    })),
  ],
  test: {
    include: ["tests/workers/**/*.test.ts"],
    setupFiles: ["./tests/workers/setup.ts"],
    // A real SMTP server on 127.0.0.1 for tests/workers/mail.test.ts.
    globalSetup: ["./tests/workers/smtp-global-setup.ts"],
    testTimeout: 30_000,
    // Two files at a time: each spends most of its time migrating and seeding its own D1, and vitest
    // would otherwise keep one core free on a two-core machine.
    maxWorkers: 2,
    deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "remix-auth", "remix-auth-form", "cookie"] } } },
  },
});
