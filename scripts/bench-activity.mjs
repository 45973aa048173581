// Measures the activity log at scale (issue 16: with 1,000,000 rows in one company the first, a middle
// and the last page, each filter and each sort answer at p95 <= 150 ms; the CSV of every row streams,
// first bytes under 1 s, memory flat). The pages and the CSV read each company's own store, filled
// first by the operators' backfill (decision 0047), which drains D1's outbox: its rate, each store's
// bytes per row and what D1's file keeps afterwards are printed too. Seeds a fresh local D1 in its own
// directory: ACME gets ACTIVITY_ROWS rows (default 1,000,000; 100000 for a quick run) and BETA 10,000,
// the baseline: the same URLs from the same run at 10,000 rows. BENCH_ONLY picks parts (comma-separated):
//   pages   each page, filter and sort, p95 beside its baseline;
//   csv     the whole CSV twice (read at full speed, then stalled for 30 s after a tenth), with the first
//           bytes' time and the resident memory of each server process at start, peak and end.
// Gateway event ingestion (into the companies' stores, beside the old single D1 table) is
// `npm run bench:ingest` (scripts/bench-ingest.mjs).
// The server is wrangler's bundle in Miniflare (`scripts/serve-miniflare.mjs`: no devtools inspector,
// development with its own PUBLIC_ORIGIN, which the stores' alert engine needs when the backfill drains);
// BENCH_SERVER=worker uses `scripts/bench-worker.mjs` (production, no PUBLIC_ORIGIN: the backfill fails
// there once a drain has rows to alert on), BENCH_SERVER=wrangler `wrangler dev`.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backfill, rootToken } from "./activity-backfill.mjs";
import { benchEnv, d1File, load, measureGet, memoryOf, signIn, sleep, sql, startBenchServer, stopConsole, ensureBuilt } from "./bench-server.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const WARMUP = 5;
const TARGET_P95_MS = 150;
const TARGET_FIRST_BYTES_MS = 1000;
const ROWS = Number(process.env.ACTIVITY_ROWS ?? 1_000_000);
const BASELINE_ROWS = 10_000;
/** Days the seeded rows span: inside the 90-day hot window, so every page reads all of them from the store (the archive's reads are bench:archive's). */
const SEED_DAYS = 85;
const PAGE_SIZE = 100;
const ONLY = new Set((process.env.BENCH_ONLY ?? "pages,csv").split(",").map((x) => x.trim()));
const VIA = process.env.BENCH_SERVER ?? "miniflare";
const ACME = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026", intent: "login" };
const BETA = { companyId: "BETA", userName: "admin@beta.example", password: "Beta#Demo2026", intent: "login" };

/** The same URLs for both companies; the middle and last pages follow each company's row count. */
// A calendar date `days` before today (UTC); scripts/seed-activity.ts spreads the rows over the SEED_DAYS before it.
const daysAgo = (days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

const pages = (rows) => {
  const last = Math.ceil(rows / PAGE_SIZE);
  return [
    ["first page", "/activity"],
    ["middle page", `/activity?page=${Math.ceil(last / 2)}`],
    ["last page", `/activity?page=${last}`],
    ["type Device", "/activity?filterOperationType=Device"],
    ["activity Access Denied", "/activity?additionalFilter=Access+Denied"],
    ["dates (one month)", `/activity?filterFromDate=${daysAgo(60)}&filterToDate=${daysAgo(30)}`],
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

/**
 * Each server process's resident memory at the start, its peak and the end, sampled every 250 ms;
 * `runtime()` is the latest sample of the worker runtime's.
 */
function memoryWatch(pgid) {
  const seen = new Map();
  const sample = () => {
    for (const p of memoryOf(pgid)) {
      const s = seen.get(p.pid) ?? { role: p.role, start: p, peak: p, end: p };
      if (p.rss > s.peak.rss) s.peak = p;
      s.end = p;
      seen.set(p.pid, s);
    }
  };
  sample();
  const timer = setInterval(sample, 250);
  const stop = () => {
    clearInterval(timer);
    sample();
    return [...seen.values()];
  };
  return { stop, runtime: () => [...seen.values()].find((s) => s.role === "worker runtime")?.end.rss ?? NaN };
}

/**
 * The whole CSV: time to the first bytes and to the end, and the worker runtime's memory after each
 * tenth of the rows. `stallMs` stops reading that long after the first tenth: a stream that ran ahead
 * of its reader would grow meanwhile.
 */
async function download(origin, cookie, pgid, stallMs) {
  const watch = memoryWatch(pgid);
  const tenths = [];
  let stalled;
  const started = performance.now();
  const res = await fetch(`${origin}/resources/activity-report`, { headers: { cookie } });
  const reader = res.body.getReader();
  let first = null;
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    first ??= performance.now() - started;
    bytes += value.length;
    for (const b of value) if (b === 10) lines++;
    if (lines >= ((tenths.length + 1) * ROWS) / 10) tenths.push(watch.runtime());
    if (stallMs && tenths.length === 1 && stalled === undefined) {
      const before = watch.runtime();
      await sleep(stallMs);
      stalled = { before, after: watch.runtime() };
    }
  }
  return { status: res.status, first, total: performance.now() - started, bytes, rows: lines - 1, memory: watch.stop(), tenths, stalled };
}

async function benchPages(origin, acme, beta, failed) {
  console.log(`\n${ROUNDS} sequential GETs per URL after ${WARMUP} warm-up requests (ms, time to full body); ${ROWS} rows vs ${BASELINE_ROWS} rows; load average ${load()}:\n`);
  const row = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(24) : String(c).padStart(10))).join(" ");
  console.log(row(["case", "status", "p50", "p95", "p99", "base p95", "ratio"]));
  const big = pages(ROWS);
  const small = pages(BASELINE_ROWS);
  for (let i = 0; i < big.length; i++) {
    const r = await measureGet(origin, big[i][1], acme, { warmup: WARMUP, rounds: ROUNDS });
    const b = await measureGet(origin, small[i][1], beta, { warmup: WARMUP, rounds: ROUNDS });
    console.log(row([big[i][0], r.status, r.p50.toFixed(1), r.p95.toFixed(1), r.p99.toFixed(1), b.p95.toFixed(1), `${(r.p95 / b.p95).toFixed(2)}x`]));
    if (r.status !== 200 || r.p95 > TARGET_P95_MS) failed.push(`${big[i][0]} (${r.status}, p95 ${r.p95.toFixed(1)} ms)`);
  }
  console.log(`load average ${load()}`);
}

async function benchCsv(origin, acme, pgid, failed) {
  const mb = (x) => x.toFixed(0).padStart(5);
  for (const [label, stall] of [
    ["fast reader", 0],
    ["reader stalled 30 s after the first tenth", 30_000],
  ]) {
    const loadBefore = load();
    const csv = await download(origin, acme, pgid, stall).catch((e) => ({ error: e }));
    if (csv.error) {
      console.log(`\nCSV of every row, ${label}: failed (${csv.error.cause?.code ?? csv.error.message}); load average ${loadBefore} before, ${load()} after`);
      failed.push(`CSV, ${label} (${csv.error.cause?.code ?? csv.error.message})`);
      continue;
    }
    console.log(
      `\nCSV of every row, ${label}: ${csv.status}, first bytes ${csv.first.toFixed(0)} ms, ${csv.rows} rows (${(csv.bytes / 1e6).toFixed(1)} MB) in ${(csv.total / 1000).toFixed(1)} s; load average ${loadBefore} before, ${load()} after`,
    );
    console.log(`  resident memory, MB (anonymous part):  ${"start".padStart(13)} ${"peak".padStart(13)} ${"end".padStart(13)}`);
    for (const m of csv.memory)
      console.log(`  ${`${m.role} (pid ${m.start.pid})`.padEnd(38)} ${[m.start, m.peak, m.end].map((p) => `${mb(p.rss)} (${mb(p.anon)})`.padStart(13)).join(" ")}`);
    console.log(`  worker runtime after each tenth of the rows, MB: ${csv.tenths.map((x) => x.toFixed(0)).join(", ")}`);
    if (csv.stalled) console.log(`  worker runtime before the stall ${csv.stalled.before.toFixed(0)} MB, at its end ${csv.stalled.after.toFixed(0)} MB`);
    // The benchmark's own sign-in is in ACME's log too.
    if (csv.status !== 200 || csv.first > TARGET_FIRST_BYTES_MS || csv.rows !== ROWS + 1)
      failed.push(`CSV, ${label} (${csv.status}, first bytes ${csv.first.toFixed(0)} ms, ${csv.rows} rows)`);
  }
}

/**
 * The operators' backfill (decision 0047) before anything is measured: pages then read each company's
 * own store. Prints its rate and each store's bytes per row, and D1's file with the outbox rows the
 * drain left (none once it has finished, so D1's size is not divided by them).
 */
async function fillStores(origin, dir) {
  const token = await rootToken(origin, { userName: "root@example.com", password: "Root#Demo2026" });
  const stores = [];
  const started = performance.now();
  const copied = await backfill(origin, token, { onCompany: (c) => c.done && stores.push(c) });
  const seconds = (performance.now() - started) / 1000;
  const d1Bytes = statSync(d1File(dir)).size;
  const d1Rows = sql(dir, "select count(*) n from activity_logs")[0].n;
  console.log(`\nBackfill into the companies' stores: ${copied} rows in ${seconds.toFixed(1)} s (${(copied / seconds).toFixed(0)} rows/s); load average ${load()}`);
  for (const c of stores.filter((c) => c.rows >= BASELINE_ROWS))
    console.log(`  company ${c.companyId}'s store: ${c.rows} rows, ${(c.bytes / 1e6).toFixed(1)} MB, ${(c.bytes / c.rows).toFixed(0)} bytes per row`);
  console.log(`  D1's file (every table): ${(d1Bytes / 1e6).toFixed(1)} MB, ${d1Rows} activity rows left in its outbox`);
}

const dir = mkdtempSync(join(tmpdir(), "bench-activity-"));
let server;
try {
  ensureBuilt();
  console.log(`Seeding a fresh local D1 in ${dir} ...`);
  run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", dir]);
  run("npx", ["tsx", "scripts/seed-local.ts"], { PERSIST_TO: join(dir, "v3") });
  run("npx", ["tsx", "scripts/seed-activity.ts"], {
    PERSIST_TO: join(dir, "v3"),
    ACTIVITY_COMPANY: "BETA",
    ACTIVITY_ROWS: String(BASELINE_ROWS),
    ACTIVITY_DAYS: String(SEED_DAYS),
  });
  run("npx", ["tsx", "scripts/seed-activity.ts"], { PERSIST_TO: join(dir, "v3"), ACTIVITY_COMPANY: "ACME", ACTIVITY_ROWS: String(ROWS), ACTIVITY_DAYS: String(SEED_DAYS) });

  const failed = [];
  if (ONLY.has("pages") || ONLY.has("csv")) {
    let origin;
    ({ origin, server } = await startBenchServer(dir, env, { via: VIA }));
    await fillStores(origin, dir);
    const acme = await signIn(origin, ACME);
    if (ONLY.has("pages")) await benchPages(origin, acme, await signIn(origin, BETA), failed);
    if (ONLY.has("csv")) await benchCsv(origin, acme, server.pid, failed);
  }

  console.log(failed.length === 0 ? `\nEvery measured case met its target.` : `\nOver target: ${failed.join(", ")}`);
  process.exitCode = failed.length === 0 ? 0 : 1;
} finally {
  await stopConsole(server);
  rmSync(dir, { recursive: true, force: true });
}
