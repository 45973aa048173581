import { rm } from "node:fs/promises";
import { E2E_CONSOLE_PORTS } from "../../playwright.config";

/** Removes this run's server state (each console keeps it in a folder named after its port). */
export default async function globalTeardown() {
  await Promise.all(E2E_CONSOLE_PORTS.map((port) => rm(`.tmp/e2e-${port}`, { recursive: true, force: true })));
}
