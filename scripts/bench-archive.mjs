// `npm run bench:archive`: one company's activity log read before and after its older days leave the store
// for the R2 archive (decision 0049), in the same run. Prints figures and their ratios, never a pass or fail
// of a time; it says whether the report is byte-identical before and after.
//
// The built console (wrangler's bundle in Miniflare, scripts/serve-miniflare.mjs, served as a local runner
// serves it) on a fresh local D1 with every migration and the demo seed. ACME keeps 180 days at hand while
// BENCH_EVENTS events (door opened and closed, access granted to its admin) arrive through
// POST /api/gateway/events in calls of 500, spread evenly over the BENCH_DAYS days before today; its store's
// upkeep archives each closed day as it goes. Then:
//   before: the downloaded report (GET /resources/activity-report: time to its first row and to its end),
//   /activity's first, middle and last page of a date range 100 to 60 days ago, and /activity unfiltered;
//   ACME's hot window is set to 30 days (the admin API), one event for yesterday wakes the store's upkeep,
//   which drops the days before the window from the store (waited for through `archivedBefore`);
//   after: the same reads, now through the archive (the range's first read builds its view, timed alone).
// Sizes: BENCH_EVENTS (default 50,000; BENCH_QUICK=1: 10,000), BENCH_DAYS (default 120), BENCH_ROUNDS
// (GETs per page, default 20). BENCH_KEEP=1 keeps the state directory (.tmp/bench-archive-*).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { Agent, setGlobalDispatcher } from "undici";
import { rootToken } from "./activity-backfill.mjs";
import { benchEnv, ensureBuilt, load, measureGet, signIn, sleep, sql, startBenchServer, stopConsole } from "./bench-server.mjs";

setGlobalDispatcher(new Agent({ pipelining: 0 }));

const QUICK = process.env.BENCH_QUICK === "1";
const EVENTS = Number(process.env.BENCH_EVENTS ?? (QUICK ? 10_000 : 50_000));
const DAYS = Number(process.env.BENCH_DAYS ?? 120);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const KEEP = process.env.BENCH_KEEP === "1";
const GATEWAY_SECRET = "local-gateway-secret";
const ACME = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" };
const DAY = 86_400_000;
const BATCH = 500;
const HOT_AFTER = 30;

const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

/** Bytes of every file under `dir`. */
function bytesUnder(dir) {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) n += statSync(join(entry.parentPath ?? entry.path, entry.name)).size;
  return n;
}

async function api(origin, token, path, body, method = "POST") {
  const res = await fetch(`${origin}/api/admin${path}`, {
    method,
    headers: { Authorization: token, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** ACME's hot window, set through the admin API with its other settings as they are. */
async function setHotDays(origin, token, days) {
  const { payload } = await api(origin, token, "/settings/getCompanySettings", undefined, "GET");
  await api(origin, token, "/settings/modifyCompanySettings", { ...payload, activity_hot_days: days }, "PUT");
}

async function send(origin, events) {
  const res = await fetch(`${origin}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${GATEWAY_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, events }),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status !== 200 || body.accepted !== events.length) throw new Error(`events: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
}

/** The downloaded report: ms to its first row (past the header line), ms to its end, its text. */
async function report(origin, cookie) {
  const started = performance.now();
  const res = await fetch(`${origin}/resources/activity-report?sort=-date`, { headers: { cookie } });
  const reader = res.body.getReader();
  const chunks = [];
  let bytes = 0;
  let newlines = 0;
  let firstRow = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    if (firstRow === null) {
      newlines += value.filter((b) => b === 10).length;
      if (newlines >= 2) firstRow = performance.now() - started;
    }
  }
  return { firstRow, total: performance.now() - started, bytes, text: Buffer.concat(chunks).toString("utf8") };
}

async function main() {
  const { env } = benchEnv({ GATEWAY_SECRET });
  ensureBuilt();
  mkdirSync(".tmp", { recursive: true });
  const root = mkdtempSync(join(resolve(".tmp"), "bench-archive-"));
  const dir = join(root, "console");
  let con = null;
  try {
    console.log(`Configuration: ${EVENTS.toLocaleString("en")} ACME events over the ${DAYS} days before today; hot window 180 days, then ${HOT_AFTER}. State in ${root}.`);
    execFileSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", dir], { env, stdio: "ignore" });
    execFileSync("npx", ["tsx", "scripts/seed-local.ts"], { env: { ...env, PERSIST_TO: join(dir, "v3") }, stdio: "ignore" });
    const [{ device }] = sql(dir, "select min(id) device from devices where company_id = 3 and status = 'configured'");
    const [{ person }] = sql(dir, "select id person from users where email = 'admin@acme.example'");
    con = await startBenchServer(dir, env, { via: "miniflare" });
    const token = await rootToken(con.origin, ACME);
    await setHotDays(con.origin, token, 180);

    const today = Math.floor(Date.now() / DAY);
    const first = (today - DAYS) * DAY;
    const step = Math.floor((DAYS * DAY) / EVENTS);
    const types = ["door.opened", "door.closed", "access.granted"];
    const event = (n, at) => ({ id: `archive-bench/${n}`, deviceId: String(device), type: types[n % 3], at, data: n % 3 === 2 ? { userId: String(person) } : {} });
    const started = performance.now();
    for (let n = 0; n < EVENTS; n += BATCH)
      await send(
        con.origin,
        Array.from({ length: Math.min(BATCH, EVENTS - n) }, (_, j) => event(n + j, first + (n + j) * step)),
      );
    console.log(`Ingested in ${((performance.now() - started) / 1000).toFixed(1)} s; load average ${load()}`);

    const cookie = await signIn(con.origin, { ...ACME, intent: "login" });
    const range = `filterFromDate=${isoDay((today - 100) * DAY)}&filterToDate=${isoDay((today - 60) * DAY)}&tz=UTC`;
    const ranged = (
      await api(con.origin, token, "/user/activityLogs", { filterFromDate: isoDay((today - 100) * DAY), filterToDate: isoDay((today - 60) * DAY), tz: "UTC", pageSize: 100 })
    ).payload;
    const pages = Math.ceil(ranged.total / 100);
    const reads = async () => {
      const firstRead = performance.now();
      await fetch(`${con.origin}/activity?${range}`, { headers: { cookie } }).then((r) => r.arrayBuffer());
      const out = { firstRead: performance.now() - firstRead, report: await report(con.origin, cookie) };
      for (const [name, page] of [
        ["first", 1],
        ["middle", Math.max(1, Math.floor(pages / 2))],
        ["last", pages],
      ])
        out[name] = await measureGet(con.origin, `/activity?${range}&page=${page}`, cookie, { warmup: 2, rounds: ROUNDS });
      out.unfiltered = await measureGet(con.origin, "/activity", cookie, { warmup: 2, rounds: ROUNDS });
      return out;
    };
    const before = await reads();

    await setHotDays(con.origin, token, HOT_AFTER);
    const dropStarted = performance.now();
    await send(con.origin, [event(EVENTS, (today - 1) * DAY + 1)]);
    let archivedBefore = null;
    for (let waited = 0; archivedBefore === null || archivedBefore < (today - HOT_AFTER - 1) * DAY; waited += 500) {
      if (waited > 300_000) throw new Error(`the store's upkeep did not drop the old days (archivedBefore ${archivedBefore})`);
      await sleep(500);
      archivedBefore = (await api(con.origin, token, "/user/activityLogs", { pageSize: 1 })).payload.archivedBefore;
    }
    console.log(`Upkeep: the days before ${isoDay(archivedBefore)} left the store in ${((performance.now() - dropStarted) / 1000).toFixed(1)} s.`);
    const after = await reads();

    const f = (ms) => `${ms.toFixed(0)} ms`;
    const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
    console.log(`\n${ranged.total.toLocaleString("en")} rows in the range (${pages} pages of 100); before: all in the store; after: the range in the archive.`);
    console.log(["read", "before", "after", "after/before"].join("\t"));
    const row = (name, a, b) => console.log([name, f(a), f(b), ratio(b, a)].join("\t"));
    row("range, first read", before.firstRead, after.firstRead);
    for (const name of ["first", "middle", "last"]) row(`range, ${name} page p95`, before[name].p95, after[name].p95);
    row("/activity unfiltered p95", before.unfiltered.p95, after.unfiltered.p95);
    row("report, first row", before.report.firstRow, after.report.firstRow);
    row("report, whole", before.report.total, after.report.total);
    // Entries written between the two reports (the event that woke the upkeep, the settings change's audit
    // row) are extra lines; without them the report must be the same bytes, in the same order.
    const [was, now] = [before.report.text.split("\r\n"), after.report.text.split("\r\n")];
    const extra = [];
    let j = 0;
    for (const line of now)
      if (j < was.length && line === was[j]) j++;
      else extra.push(line);
    const same = j === was.length && now.filter((line) => !extra.includes(line)).join("\r\n") === before.report.text;
    const digest = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16);
    console.log(
      `Report: ${before.report.bytes.toLocaleString("en")} bytes before (sha256 ${digest(before.report.text)}), ${after.report.bytes.toLocaleString("en")} after, ` +
        `${extra.length} entries newer than the first; without them, byte-identical: ${same ? "yes" : "NO"}`,
    );
    for (const line of extra) console.log(`  newer: ${line}`);
    await stopConsole(con.server);
    con = null;
    const r2 = join(dir, "v3", "r2");
    console.log(`Archive in R2: ${(bytesUnder(r2) / 1e6).toFixed(2)} MB for ${EVENTS.toLocaleString("en")} events (gzip NDJSON, one object a day). Load average ${load()}`);
  } finally {
    if (con) await stopConsole(con.server);
    if (!KEEP) rmSync(root, { recursive: true, force: true });
  }
}

await main();
