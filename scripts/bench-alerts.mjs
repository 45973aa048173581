// Measures gateway event ingestion (POST /api/gateway/events) with 100 active alerts in the company
// against the same without alerts, in one run on one server (decisions 0025 and 0048: matching runs on
// the company store's alarm, off the request path, so the two should be alike). Seeds a fresh local D1
// in its own directory, serves the built console with `wrangler dev` on a free loopback port, and prints
// both figures and their ratio.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchEnv, sleep, startConsole, stopConsole, summarize } from "./bench-server.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const WARMUP = 30;
const EVENTS_PER_BATCH = Number(process.env.BENCH_BATCH ?? 20);
const ALERTS = 100;
const SECRET = "local-gateway-secret";
const ACME = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" };
const ACME_DEVICES = Array.from({ length: 12 }, (_, i) => i + 1);
const ACTIVITIES = ["Access Denied", "Access Granted", "Door Opened", "Door Closed", "Door Forced Open"];

const { env, run } = benchEnv({ GATEWAY_SECRET: SECRET });

async function adminApi(origin) {
  const login = await fetch(`${origin}/api/admin/user/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ACME) });
  const { token } = await login.json();
  if (!token) throw new Error(`API sign-in failed with ${login.status}`);
  return async (method, path, body) => {
    const res = await fetch(`${origin}/api/admin${path}`, {
      method,
      headers: { Authorization: token, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

let seq = 0;
async function postBatch(origin) {
  const at = Date.now();
  const events = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
    id: `bench/${process.pid}/${++seq}`,
    deviceId: String(ACME_DEVICES[(seq + i) % ACME_DEVICES.length]),
    type: i % 3 === 0 ? "access.granted" : i % 3 === 1 ? "access.denied" : "door.opened",
    at: at + i,
    data: { userId: "3", reason: "bench" },
  }));
  const started = performance.now();
  const res = await fetch(`${origin}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, events }),
  });
  const body = await res.json();
  const ms = performance.now() - started;
  if (res.status !== 200 || body.accepted !== EVENTS_PER_BATCH) throw new Error(`ingestion failed: ${res.status} ${JSON.stringify(body)}`);
  return ms;
}

async function measure(origin) {
  for (let i = 0; i < WARMUP; i++) await postBatch(origin);
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) samples.push(await postBatch(origin));
  return summarize(samples);
}

/** 100 alerts over the activities the batches write: any time and custom schedules, any device or some. */
async function createAlerts(api, zone) {
  for (let i = 0; i < ALERTS; i++) {
    const custom = i % 2 === 1;
    await api("POST", "/user/addAlert", {
      displayName: `Bench alert ${i + 1}`,
      activity: ACTIVITIES[i % ACTIVITIES.length],
      created_by_users: [],
      target_users: [{ id: null, type: "Any User" }],
      devices: i % 4 === 0 ? [{ id: null, type: "Any Device" }] : [{ id: ACME_DEVICES[i % 12] }, { id: ACME_DEVICES[(i + 5) % 12] }],
      schedule: custom ? "custom" : "any",
      ...(custom
        ? {
            startDate: "2026-01-01",
            isNeverEnd: "1",
            mon: "1",
            tue: "1",
            wed: "1",
            thu: "1",
            fri: "1",
            sat: "1",
            sun: "1",
            isAllDay: "0",
            startTime: "00:05:00",
            endTime: "23:55:00",
            zone,
          }
        : {}),
      emails: [`bench-${i + 1}@acme.example`],
    });
  }
}

const dir = mkdtempSync(join(tmpdir(), "bench-alerts-"));
let server;
try {
  if (!existsSync("build/server/index.js")) run("npx", ["remix", "vite:build"]);
  console.log(`Seeding a fresh local D1 in ${dir} ...`);
  run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", dir]);
  run("npx", ["tsx", "scripts/seed-local.ts"], { PERSIST_TO: join(dir, "v3") });

  let origin;
  ({ origin, server } = await startConsole(dir, env));
  const api = await adminApi(origin);

  const deleteAll = async () => {
    for (const a of (await api("GET", "/user/getAlerts")).payload) await api("DELETE", `/user/deleteAlert?id=${a.id}`);
  };
  // Without alerts, with 100, and without again (A-B-A), so drift on a shared machine shows up in the
  // two baselines instead of in the ratio; the ratio is against their mean.
  await deleteAll();
  console.log(`\n${ROUNDS} sequential batches of ${EVENTS_PER_BATCH} events after ${WARMUP} warm-up batches (ms per batch):\n`);
  const before = await measure(origin);
  const zones = (await api("GET", "/user/getAllTimeZone")).payload;
  await createAlerts(api, zones.find((z) => z.name === "Europe/Madrid").id);
  const active = (await api("GET", "/user/getAlerts")).payload.length;
  const withAlerts = await measure(origin);
  await sleep(3000); // let the consumer catch up, so the firings below are the run's
  const fired = (await api("GET", "/user/getSentinelAlerts")).payload.length;
  await deleteAll();
  const after = await measure(origin);
  const without = { p50: (before.p50 + after.p50) / 2, p95: (before.p95 + after.p95) / 2, mean: (before.mean + after.mean) / 2 };

  const row = (label, r) => `${label.padEnd(26)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.mean.toFixed(1).padStart(8)}`;
  console.log(`${"".padEnd(26)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"mean".padStart(8)}`);
  console.log(row("without alerts (before)", before));
  console.log(row(`with ${active} alerts`, withAlerts));
  console.log(row("without alerts (after)", after));
  console.log(
    `\nratio with/without (mean of both baselines): p50 ${(withAlerts.p50 / without.p50).toFixed(2)}x, p95 ${(withAlerts.p95 / without.p95).toFixed(2)}x, mean ${(withAlerts.mean / without.mean).toFixed(2)}x`,
  );
  console.log(`alert firings recorded by the engine meanwhile (latest, at most 100): ${fired}`);
} finally {
  await stopConsole(server);
  rmSync(dir, { recursive: true, force: true });
}
