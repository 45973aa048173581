import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium against the built Worker under `wrangler dev`, each server
 * on its own freshly seeded local D1. The second server has a short idle timeout for the idle tests.
 */
export const E2E_PORT = 8801;
export const E2E_IDLE_PORT = 8802;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  webServer: [
    {
      command: `rm -rf .tmp/e2e && STATE_DIR=.tmp/e2e PORT=${E2E_PORT} bash scripts/serve-local.sh`,
      url: `http://127.0.0.1:${E2E_PORT}/login`,
      timeout: 120_000,
      reuseExistingServer: false,
    },
    {
      command: `rm -rf .tmp/e2e-idle && STATE_DIR=.tmp/e2e-idle PORT=${E2E_IDLE_PORT} bash scripts/serve-local.sh --var IDLE_TIMEOUT_MS:4000 --var IDLE_WARNING_MS:3000`,
      url: `http://127.0.0.1:${E2E_IDLE_PORT}/login`,
      timeout: 120_000,
      reuseExistingServer: false,
    },
  ],
});
