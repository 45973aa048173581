import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unique, workerConsole } from "./fixtures";

/**
 * A real gateway pointed at this run's Worker, and the board simulator (gateway/sim/board.js) as a
 * child process: what the specs that go through the door path share (lifecycle, remote unlock).
 */

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const parseLines = (out: string) =>
  out
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Runs a node script to its end and returns its stdout lines parsed as JSON. */
export function runNode(args: string[]): Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (b) => (out += b));
    p.stderr.on("data", (b) => (err += b));
    p.on("exit", (code) => resolve({ code, stderr: err, lines: parseLines(out) }));
  });
}

export type RunningGateway = { mqttPort: number; url: string; stop: () => Promise<void> };

/**
 * Starts `gateway/src/main.js` with the seeded demo gateway's secret (db/seed/gateway.ts), syncing
 * and claiming console commands often so a test sees changes within a second.
 */
export async function startGateway(prefix = "e2e-gw-"): Promise<RunningGateway> {
  const mqttPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const gateway: ChildProcess = spawn(process.execPath, ["gateway/src/main.js"], {
    env: {
      ...process.env,
      WORKER_URL: workerConsole().origin,
      GATEWAY_SECRET: "local-gateway-secret",
      GATEWAY_ID: `gw-e2e-${unique()}`,
      MQTT_PORT: String(mqttPort),
      WS_PORT: "off",
      DATA_DIR: dataDir,
      SYNC_INTERVAL_MS: "500",
      COMMAND_INTERVAL_MS: "300",
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
    detached: true,
  });
  return {
    mqttPort,
    url: `mqtt://127.0.0.1:${mqttPort}`,
    async stop() {
      if (gateway.pid && gateway.exitCode === null) {
        const exited = new Promise((resolve) => gateway.once("exit", resolve));
        process.kill(-gateway.pid, "SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A board that stays connected while a test runs (`--listen`), printing one JSON line per thing it
 * sees; `waitFor` resolves with the first line matching. `stop()` ends it.
 */
export function startBoard(args: string[]) {
  const p = spawn(process.execPath, ["gateway/sim/board.js", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  p.stdout.on("data", (b) => (out += b));
  p.stderr.on("data", (b) => (err += b));
  return {
    lines: () => parseLines(out.slice(0, out.lastIndexOf("\n") + 1)),
    output: () => out + err,
    async waitFor(match: (line: Record<string, unknown>) => boolean, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = this.lines().find(match);
        if (found) return found;
        if (Date.now() > end || p.exitCode !== null) throw new Error(`board: no matching line; output: ${out + err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      if (p.exitCode !== null) return;
      const exited = new Promise((resolve) => p.once("exit", resolve));
      p.kill("SIGTERM");
      await exited;
    },
  };
}
