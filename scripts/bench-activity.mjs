// Measures the activity log at scale (issue 16: with 1,000,000 rows in one company the first, a middle
// and the last page, each filter and each sort answer at p95 <= 150 ms; the CSV of every row streams,
// first bytes under 1 s). Seeds a fresh local D1 in its own directory: ACME gets ACTIVITY_ROWS rows
// (default 1,000,000) and BETA 10,000, the baseline: the same URLs from the same run at 10,000 rows.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { benchEnv, freePort, measureGet, signIn, sleep, waitUntilUp } from "./bench-server.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const WARMUP = 5;
const TARGET_P95_MS = 150;
const TARGET_FIRST_BYTES_MS = 1000;
const ROWS = Number(process.env.ACTIVITY_ROWS ?? 1_000_000);
const BASELINE_ROWS = 10_000;
const PAGE_SIZE = 100;
const ACME = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026", intent: "login" };
const BETA = { companyId: "BETA", userName: "admin@beta.example", password: "Beta#Demo2026", intent: "login" };

/** The same URLs for both companies; the middle and last pages follow each company's row count. */
const pages = (rows) => {
  const last = Math.ceil(rows / PAGE_SIZE);
  return [
    ["first page", "/activity"],
    ["middle page", `/activity?page=${Math.ceil(last / 2)}`],
    ["last page", `/activity?page=${last}`],
    ["type Device", "/activity?filterOperationType=Device"],
    ["activity Access Denied", "/activity?additionalFilter=Access+Denied"],
    ["dates (one month)", "/activity?filterFromDate=2026-03-01&filterToDate=2026-03-31"],
    ["times 08:00-09:00", "/activity?filterFromTime=08%3A00&filterToTime=09%3A00"],
    ["sort date asc", "/activity?sort=date"],
    ["sort activity", "/activity?sort=activity"],
    ["sort -activity", "/activity?sort=-activity"],
    ["sort trigger", "/activity?sort=trigger"],
    ["sort -trigger", "/activity?sort=-trigger"],
    ["sort triggeredBy", "/activity?sort=triggeredBy"],
    ["sort user", "/activity?sort=user"],
    ["sort device", "/activity?sort=device"],
    ["sort deviceGroup", "/activity?sort=deviceGroup"],
  ];
};

const { env, run } = benchEnv();

/** The whole CSV: time to the first bytes and to the end, and the server's resident memory along the way. */
async function download(origin, cookie, pgid) {
  const rss = () => {
    try {
      return (
        Number(
          execFileSync("ps", ["-o", "rss=", "-g", String(pgid)], { encoding: "utf8" })
            .trim()
            .split(/\s+/)
            .reduce((a, b) => a + Number(b), 0),
        ) / 1024
      );
    } catch {
      return NaN;
    }
  };
  const before = rss();
  let peak = before;
  const started = performance.now();
  const res = await fetch(`${origin}/resources/activity-report`, { headers: { cookie } });
  const reader = res.body.getReader();
  let first = null;
  let bytes = 0;
  let lines = 0;
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    first ??= performance.now() - started;
    bytes += value.length;
    for (const b of value) if (b === 10) lines++;
    if (++chunks % 200 === 0) peak = Math.max(peak, rss());
  }
  return { status: res.status, first, total: performance.now() - started, bytes, rows: lines - 1, before, peak: Math.max(peak, rss()) };
}

const dir = mkdtempSync(join(tmpdir(), "bench-activity-"));
let server;
try {
  if (!existsSync("build/server/index.js")) run("npx", ["remix", "vite:build"]);
  console.log(`Seeding a fresh local D1 in ${dir} ...`);
  run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", dir]);
  run("npx", ["tsx", "scripts/seed-local.ts"], { PERSIST_TO: join(dir, "v3") });
  run("npx", ["tsx", "scripts/seed-activity.ts"], { PERSIST_TO: join(dir, "v3"), ACTIVITY_COMPANY: "BETA", ACTIVITY_ROWS: String(BASELINE_ROWS) });
  run("npx", ["tsx", "scripts/seed-activity.ts"], { PERSIST_TO: join(dir, "v3"), ACTIVITY_COMPANY: "ACME", ACTIVITY_ROWS: String(ROWS) });

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  server = spawn("npx", ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", dir, "--show-interactive-dev-session=false"], {
    env,
    stdio: "ignore",
    detached: true,
  });
  await waitUntilUp(origin, server);
  const [acme, beta] = [await signIn(origin, ACME), await signIn(origin, BETA)];

  // The machine may be shared: the load average says how much of an absolute time is queueing.
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(" / ");
  console.log(`\n${ROUNDS} sequential GETs per URL after ${WARMUP} warm-up requests (ms, time to full body); ${ROWS} rows vs ${BASELINE_ROWS} rows; load average ${load()}:\n`);
  const row = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(24) : String(c).padStart(10))).join(" ");
  console.log(row(["case", "status", "p50", "p95", "p99", "base p95", "ratio"]));
  const failed = [];
  const big = pages(ROWS);
  const small = pages(BASELINE_ROWS);
  for (let i = 0; i < big.length; i++) {
    const r = await measureGet(origin, big[i][1], acme, { warmup: WARMUP, rounds: ROUNDS });
    const b = await measureGet(origin, small[i][1], beta, { warmup: WARMUP, rounds: ROUNDS });
    console.log(row([big[i][0], r.status, r.p50.toFixed(1), r.p95.toFixed(1), r.p99.toFixed(1), b.p95.toFixed(1), `${(r.p95 / b.p95).toFixed(2)}x`]));
    if (r.status !== 200 || r.p95 > TARGET_P95_MS) failed.push(`${big[i][0]} (${r.status}, p95 ${r.p95.toFixed(1)} ms)`);
  }

  console.log(`load average ${load()}`);
  const csv = await download(origin, acme, server.pid);
  console.log(
    `\nCSV of every row: ${csv.status}, first bytes ${csv.first.toFixed(0)} ms, all ${csv.rows} rows (${(csv.bytes / 1e6).toFixed(1)} MB) in ${(csv.total / 1000).toFixed(1)} s; server RSS ${csv.before.toFixed(0)} MB before, ${csv.peak.toFixed(0)} MB peak`,
  );
  // The benchmark's own sign-in is in ACME's log too.
  if (csv.status !== 200 || csv.first > TARGET_FIRST_BYTES_MS || csv.rows !== ROWS + 1)
    failed.push(`CSV (${csv.status}, first bytes ${csv.first.toFixed(0)} ms, ${csv.rows} rows)`);

  console.log(`load average ${load()}`);
  console.log(failed.length === 0 ? `\nAll cases answered 200 with p95 <= ${TARGET_P95_MS} ms; the CSV streamed every row.` : `\nOver target: ${failed.join(", ")}`);
  process.exitCode = failed.length === 0 ? 0 : 1;
} finally {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
  await sleep(500);
  rmSync(dir, { recursive: true, force: true });
}
