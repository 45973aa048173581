import { rm } from "node:fs/promises";
import { E2E_CONSOLES, E2E_IDLE_PORT } from "../../playwright.config";

/** Removes this run's server state (each console keeps it in a folder named after its port). */
export default async function globalTeardown() {
  const ports = [...E2E_CONSOLES.map((c) => c.port), E2E_IDLE_PORT];
  await Promise.all(ports.map((port) => rm(`.tmp/e2e-${port}`, { recursive: true, force: true })));
}
