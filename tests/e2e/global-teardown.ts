import { rm } from "node:fs/promises";
import { E2E_IDLE_PORT, E2E_PORT } from "../../playwright.config";

/** Removes this run's server state (each run keeps it in folders named after its ports). */
export default async function globalTeardown() {
  await Promise.all([E2E_PORT, E2E_IDLE_PORT].map((port) => rm(`.tmp/e2e-${port}`, { recursive: true, force: true })));
}
