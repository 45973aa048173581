#!/usr/bin/env node
/**
 * `npm run bench:lockdown`: how long a lockdown takes from the console to every online board (issue figure:
 * p99 ≤ 2 s at 1,000 boards). The built console under Miniflare with its own D1 (tests/gateway/real-worker-end.mjs),
 * the real gateway as its own process (gateway/src/main.js, the default 5 s feed poll) and 1,000 simulated boards
 * over MQTT (gateway/sim/sim-board.js), each an ACME door. For each try, after a random wait (so the trigger
 * falls anywhere in the gateway's poll cycle), the admin API starts a company-wide lockdown, and the clock runs
 * from the call until each board has the lockdown in its scheduled-open state (PROTOCOL.md, "schedule"); then
 * the same for its end. Measured twice in the same run:
 *   - baseline: the gateway with its wake-up channel closed (FEED_WAKE=off): the change waits for the next poll;
 *   - woken: the console wakes the cell's gateways through their channel (decision 0118).
 * Prints p50, p99 and max of each (one sample per board per start or end) and the ratios.
 *
 *   LOCKDOWN_BOARDS=1000 LOCKDOWN_TRIES=5 npm run bench:lockdown
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkerEnd } from "../tests/gateway/real-worker-end.mjs";
import { SimBoard } from "../gateway/sim/sim-board.js";
import { ensureBuilt, freePort, percentile, sleep } from "./bench-server.mjs";

const BOARDS = Number(process.env.LOCKDOWN_BOARDS ?? 1000);
const TRIES = Number(process.env.LOCKDOWN_TRIES ?? 5);
const SYNC_INTERVAL_MS = Number(process.env.SYNC_INTERVAL_MS ?? 5000);
const ADMIN = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" };
const CONNECTING_AT_ONCE = 50;
const GIVE_UP_MS = 30_000;

const figures = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1], n: s.length };
};
const line = (f) => `p50 ${f.p50} ms  p99 ${f.p99} ms  max ${f.max} ms  (${f.n} board samples)`;

ensureBuilt();
const end = await startWorkerEnd();
const dataDir = await mkdtemp(join(tmpdir(), "bench-lockdown-"));
const mqttPort = await freePort();
let gateway = null;
let boards = [];

/** The gateway as its own process; resolves at its readiness line. */
async function startGateway(feedWake) {
  const proc = spawn(process.execPath, ["gateway/src/main.js"], {
    env: {
      ...process.env,
      WORKER_URL: end.url,
      GATEWAY_SECRET: "test-gateway-secret",
      GATEWAY_ID: "bench-lockdown",
      MQTT_PORT: String(mqttPort),
      WS_PORT: "off",
      DATA_DIR: dataDir,
      SYNC_INTERVAL_MS: String(SYNC_INTERVAL_MS),
      FEED_WAKE: feedWake ? "on" : "off",
      LOG_LEVEL: process.env.GATEWAY_LOG_LEVEL ?? "warn",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout }).once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`gateway exited with ${code}`)));
  });
  return proc;
}

async function stopGateway() {
  if (!gateway) return;
  const exited = new Promise((resolve) => gateway.once("exit", resolve));
  gateway.kill("SIGTERM");
  await exited;
  gateway = null;
}

/** Every board connected and holding its configuration. */
async function connectBoards(ids) {
  const made = ids.map((id) => new SimBoard({ url: `mqtt://127.0.0.1:${mqttPort}`, id, password: "board-secret" }));
  for (let i = 0; i < made.length; i += CONNECTING_AT_ONCE) await Promise.all(made.slice(i, i + CONNECTING_AT_ONCE).map((b) => b.connect()));
  for (const started = Date.now(); !made.every((b) => b.last.get("config")); await sleep(100))
    if (Date.now() - started > 120_000) throw new Error("boards without their configuration after 2 minutes");
  return made;
}

const json = async (res, what) => {
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
};

/** Runs `call` and resolves with each board's delay until its scheduled-open state says `locked` (ms from the call). */
async function delaysUntil(locked, call) {
  const delays = new Array(boards.length).fill(null);
  let left = boards.length;
  let t0 = 0;
  const listeners = boards.map((b, i) => {
    const listener = (name, msg) => {
      if (name !== "schedule" || delays[i] !== null || Boolean(msg?.lockdown) !== locked) return;
      delays[i] = Date.now() - t0;
      left--;
    };
    b.on("message", listener);
    return listener;
  });
  t0 = Date.now();
  await call();
  for (const started = Date.now(); left > 0; await sleep(5))
    if (Date.now() - started > GIVE_UP_MS) throw new Error(`${left} boards without the ${locked ? "start" : "end"} after ${GIVE_UP_MS} ms`);
  boards.forEach((b, i) => b.off("message", listeners[i]));
  return delays;
}

try {
  const ids = [];
  // A few hundred per statement: D1 refuses one statement of them all (SQLITE_TOOBIG).
  while (ids.length < BOARDS) ids.push(...(await end.boardIds(Math.min(200, BOARDS - ids.length))));
  const token = (
    await json(await fetch(`${end.url}/api/admin/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) }), "sign-in")
  ).token;
  const admin = async (method, path, body) =>
    json(
      await fetch(`${end.url}/api/admin${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body && JSON.stringify(body) }),
      path,
    );
  const plan = (await admin("POST", "/lockdown/plans", { name: "Propagation bench", mode: "lockdown", scope: "company" })).payload.id;

  const results = {};
  for (const [phase, feedWake] of [
    ["baseline (poll only)", false],
    ["woken (decision 0118)", true],
  ]) {
    gateway = await startGateway(feedWake);
    boards = await connectBoards(ids);
    await sleep(2_000); // the wake-up channel opens beside the first sync
    const samples = [];
    for (let t = 0; t < TRIES; t++) {
      await sleep(Math.random() * SYNC_INTERVAL_MS);
      samples.push(...(await delaysUntil(true, () => admin("POST", `/lockdown/plans/${plan}/start`))));
      await sleep(Math.random() * SYNC_INTERVAL_MS);
      samples.push(...(await delaysUntil(false, () => admin("POST", "/lockdown/end"))));
    }
    results[phase] = figures(samples);
    console.log(`${phase}: ${line(results[phase])}`);
    await Promise.all(boards.map((b) => b.close()));
    await stopGateway();
  }
  const [base, woken] = Object.values(results);
  console.log(`\n${BOARDS} boards, ${TRIES} starts and ${TRIES} ends each, feed poll ${SYNC_INTERVAL_MS} ms`);
  console.log(`woken / baseline: p50 ${(woken.p50 / base.p50).toFixed(2)}×  p99 ${(woken.p99 / base.p99).toFixed(2)}×`);
  console.log(`p99 with wake-ups ${woken.p99 <= 2000 ? "≤" : ">"} 2,000 ms`);
} finally {
  await Promise.all(boards.map((b) => b.close().catch(() => {})));
  await stopGateway();
  await end.dispose();
  await rm(dataDir, { recursive: true, force: true });
}
