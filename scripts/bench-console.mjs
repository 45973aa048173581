// Measures the server-rendered list pages at scale (issue 4: p95 <= 150 ms with 10,000 users,
// 5,000 devices and 1,000 groups in one company). Seeds a fresh local D1 in its own directory
// (the demo database is left alone), serves the built console with `wrangler dev` on a free
// loopback port, signs in as the ACME admin and times GETs against a baseline from the same run.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchEnv, measureGet, signIn, startConsole, stopConsole } from "./bench-server.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const WARMUP = 10;
const TARGET_P95_MS = 150;
const BASELINE = "/api/openapi.json";
const PAGES = [
  "/users",
  "/users?page=200",
  "/users?sort=-lastActivity",
  "/devices",
  "/devices?page=150",
  "/devices?sort=-lastActivity",
  "/devices?sort=serialNumber&page=40",
  "/deviceGroups",
  "/deviceGroups?page=30",
  "/deviceGroups?hideInactive=1&sort=timeZone",
];
const ACME = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026", intent: "login" };

const { env, run } = benchEnv();

const dir = mkdtempSync(join(tmpdir(), "bench-console-"));
let server;
try {
  if (!existsSync("build/server/index.js")) run("npx", ["remix", "vite:build"]);
  console.log(`Seeding a fresh local D1 in ${dir} ...`);
  run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", dir]);
  run("npx", ["tsx", "scripts/seed-local.ts"], { PERSIST_TO: join(dir, "v3") });
  run("npx", ["tsx", "scripts/seed-scale.ts"], { PERSIST_TO: join(dir, "v3") });

  let origin;
  ({ origin, server } = await startConsole(dir, env));
  const cookie = await signIn(origin, ACME);

  console.log(`\n${ROUNDS} sequential GETs per URL after ${WARMUP} warm-up requests (ms, time to full body):\n`);
  const baseline = await measureGet(origin, BASELINE, cookie, { warmup: WARMUP, rounds: ROUNDS });
  const results = [];
  for (const path of PAGES) results.push(await measureGet(origin, path, cookie, { warmup: WARMUP, rounds: ROUNDS }));

  const row = (r, ratio) =>
    `${r.path.padEnd(44)} ${String(r.status).padStart(6)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${ratio.padStart(10)}`;
  console.log(`${"URL".padEnd(44)} ${"status".padStart(6)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"p99".padStart(8)} ${"p95/base".padStart(10)}`);
  console.log(row(baseline, "baseline"));
  for (const r of results) console.log(row(r, `${(r.p95 / baseline.p95).toFixed(2)}x`));

  const failed = results.filter((r) => r.status !== 200 || r.p95 > TARGET_P95_MS);
  console.log(
    failed.length === 0
      ? `\nAll list pages answered 200 with p95 <= ${TARGET_P95_MS} ms.`
      : `\nOver target or not 200: ${failed.map((r) => `${r.path} (${r.status}, p95 ${r.p95.toFixed(1)} ms)`).join(", ")}`,
  );
  process.exitCode = failed.length === 0 ? 0 : 1;
} finally {
  await stopConsole(server);
  rmSync(dir, { recursive: true, force: true });
}
