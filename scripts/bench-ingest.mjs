// `npm run bench:ingest`: gateway events into each company's own store (decisions 0047 and 0048) beside
// the single shared D1 table they went to before, in the same run. Prints figures and their ratios, never
// a pass or fail of a time (it says whether the D1 growth target is met).
//
// New path: the built console (wrangler's bundle in Miniflare, scripts/serve-miniflare.mjs, as a local
// runner serves it: development, with a PUBLIC_ORIGIN, which the stores' alert engine needs) on a fresh
// local D1 with every migration and the demo seed, plus BENCH_COMPANIES bench companies with one
// configured device and one person each. Events go through POST /api/gateway/events (the gateway's Bearer
// secret); each company's rows land in its CompanyLog Durable Object, D1 gets the device facts (last
// activity, door state) and the gateway's last call.
//
// Baseline ("today's single-table path"): a second local D1 in its own state directory, migrated with
// db/migrations up to 0023 only (activity_logs with its 9 indexes, the tally triggers of 0017 and the
// feed trigger of 0005), holding the same bench companies, devices and people. A small Worker in its own
// Miniflare (this script run with --baseline) takes the same request over HTTP and does the old gateway
// path's D1 work, statement for statement as drizzle wrote it: the gateway secret check, the device and
// person lookups, then one D1 batch of `INSERT … ON CONFLICT ("event_id") DO NOTHING RETURNING "id"`,
// 8 rows per statement, with the device-fact UPDATEs. The same events (same ids, rows and order) go to
// both, in the same batch sizes and with the same number of companies at once. It leaves out what the
// console Worker does around that: routing, the full event checks and mapping (it maps the four event
// types the bench sends), board presence, and the wake-up of the old alert engine (the new path runs the
// alert engine in each store's alarm, which is measured with it).
//
// Measured: ingest rows/s at each batch size (1, 35, 500) with 1, 10 and 100 companies ingesting at once
// (each company one gateway: its calls one after the other; the companies taken from a queue by that
// many workers, so every company gets the same rows), both paths alternating cell by cell; `/activity`
// p95 for ACME's admin (on the console, a GET every BENCH_READ_EVERY_MS) while the new path ingests,
// beside the same page while the baseline ingests (the same reader load on the machine, the console
// idle) and idle; bytes per row (stores: `stats()` through the backfill call; baseline: its D1 file);
// rows written per event (baseline: D1's meta.rows_written of its inserts; stores: the store's ingest
// statements run on a second D1 of the baseline's Miniflare holding a store's own schema, read from a
// store file, so D1's counter counts them); and how much the shared D1 file grew per ingested event on
// the new path (target: < 50 bytes). Files are measured with the servers stopped, after a WAL checkpoint
// (the sqlite3 program).
//
// Sizes (the configuration used is printed); BENCH_QUICK=1 is a quick run:
//   BENCH_COMPANIES      companies ingesting (default 100; quick 10)
//   BENCH_EVENTS         events per company over the run (default 1500; quick 300), split evenly over the
//                        cells of batch sizes above 1, each rounded to whole calls and at least one full call
//   BENCH_SINGLE         events per company in each cell of batch size 1 (default 2)
//   BENCH_BIG_EVENTS     one more company filled with this many events at batch 500 first (default 0)
//   BENCH_BATCHES        default 1,35,500;  BENCH_LEVELS  companies at once, default 1,10,100 (capped at BENCH_COMPANIES)
//   BENCH_ROUNDS         idle /activity GETs (default 20);  BENCH_READ_EVERY_MS  default 500
//   BENCH_KEEP=1         keeps the state directory (.tmp/bench-ingest-*)
// The issue's run, 200 companies x 100,000 rows plus one company at 1,000,000:
//   BENCH_COMPANIES=200 BENCH_EVENTS=100000 BENCH_BIG_EVENTS=1000000 npm run bench:ingest
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, setGlobalDispatcher } from "undici";
import { backfill, rootToken } from "./activity-backfill.mjs";
import { benchEnv, d1File, freePort, load, measureGet, signIn, sleep, sql, startBenchServer, stopConsole, summarize, waitUntilUp, ensureBuilt } from "./bench-server.mjs";

// No keep-alive: workerd closes a connection idle for 5 s, and a call written on it as it closes is reset
// (ECONNRESET), which 100 companies' queued calls hit (as tests/gateway/real-worker-end.mjs found).
setGlobalDispatcher(new Agent({ pipelining: 0 }));

const SELF = fileURLToPath(import.meta.url);
const list = (x) => x.split(",").map((v) => Number(v.trim()));
const QUICK = process.env.BENCH_QUICK === "1";
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? (QUICK ? 10 : 100));
const EVENTS = Number(process.env.BENCH_EVENTS ?? (QUICK ? 300 : 1500));
const SINGLE = Number(process.env.BENCH_SINGLE ?? 2);
const BIG = Number(process.env.BENCH_BIG_EVENTS ?? 0);
const BATCHES = list(process.env.BENCH_BATCHES ?? "1,35,500");
const LEVELS = [...new Set(list(process.env.BENCH_LEVELS ?? "1,10,100").map((l) => Math.min(l, COMPANIES)))];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const READ_EVERY_MS = Number(process.env.BENCH_READ_EVERY_MS ?? 500);
const KEEP = process.env.BENCH_KEEP === "1";
const GATEWAY_SECRET = "local-gateway-secret";
const ACME = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026", intent: "login" };
const ROOT = { userName: "root@example.com", password: "Root#Demo2026" };
/** The bench's companies, devices and people have ids from here (company k: BASE_ID + k for all three). */
const BASE_ID = 900_000;
/** The last migration of the single-table design. */
const BASELINE_MIGRATION = 23;
const TYPES = ["access.granted", "access.denied", "door.opened", "door.closed"];
const START = Date.UTC(2026, 10, 23, 6);
const D1_GROWTH_TARGET = 50;
/** wrangler.toml's D1: the local file of a state directory is named after it. */
const D1_ID = readFileSync("wrangler.toml", "utf8").match(/database_id\s*=\s*"([^"]+)"/)[1];

/**
 * The baseline's Worker (its source is this function's, run in Miniflare): the old gateway path's D1 work
 * for the event types the bench sends, and `/probe`, which counts the rows a store's ingest writes.
 */
function baselineWorker() {
  const ROWS_PER_INSERT = 8; // the old path's: 12 bound columns a row, under D1's 100 parameters
  const IN_CHUNK = 90;
  const COLUMNS =
    '"id", "company_id", "event_id", "activity_type_id", "operation_type", "created_by_user_id", "target_user_id", "target_device_id", "target_device_group_id", "summary", "details_json", "gps_location", "activity_timestamp", "created_at"';
  const VALUES = "(null, ?, ?, (select id from activity_types where name = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, (cast(unixepoch('subsecond') * 1000 as integer)))";
  const NAMES = { "access.granted": "Access Granted", "access.denied": "Access Denied", "door.opened": "Door Opened", "door.closed": "Door Closed" };
  const STORE_COLUMNS = COLUMNS.replaceAll('"', "");
  const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const chunks = (xs, size) => Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));
  const select = async (db, head, ids) => {
    const out = [];
    for (const part of chunks(ids, IN_CHUNK))
      out.push(
        ...(
          await db
            .prepare(`${head} (${part.map(() => "?").join(", ")})`)
            .bind(...part)
            .all()
        ).results,
      );
    return out;
  };
  const summary = (type, door) =>
    ({ "access.granted": `Access granted at ${door}`, "access.denied": `Access denied at ${door}`, "door.opened": `${door} opened`, "door.closed": `${door} closed` })[type];

  /** The rows of the events, as the old path built them (the company from the device, a person only inside it). */
  async function rowsOf(db, events, now) {
    const deviceIds = [...new Set(events.map((e) => Number(e.deviceId)))];
    const devices = new Map((await select(db, 'select "id", "company_id", "full_name" from "devices" where "devices"."id" in', deviceIds)).map((d) => [d.id, d]));
    const userIds = [...new Set(events.map((e) => Number(e.data.userId)).filter((n) => Number.isSafeInteger(n) && n > 0))];
    const users = new Map((await select(db, 'select "id", "company_id" from "users" where "users"."id" in', userIds)).map((u) => [u.id, u.company_id]));
    return events.map((e) => {
      const device = devices.get(Number(e.deviceId));
      if (!device || !NAMES[e.type]) throw new Error(`event ${e.id}: unknown device or type`);
      const userId = Number(e.data.userId);
      const target = users.get(userId) === device.company_id ? userId : null;
      return {
        e,
        values: [
          device.company_id,
          e.id,
          NAMES[e.type],
          "Device",
          target,
          target,
          device.id,
          null,
          summary(e.type, device.full_name || `device ${device.id}`),
          JSON.stringify({ ...e.data, type: e.type, receivedAt: now }),
          null,
          e.at,
        ],
      };
    });
  }

  /** The device facts of the batch (last activity, door state), as the old path wrote them. */
  function facts(db, rows) {
    const lastAt = new Map();
    const door = new Map();
    for (const { e } of rows) {
      const id = Number(e.deviceId);
      lastAt.set(id, Math.max(lastAt.get(id) ?? 0, e.at));
      const state = e.type === "door.opened" ? "open" : e.type === "door.closed" ? "closed" : null;
      if (state && (door.get(id)?.at ?? 0) <= e.at) door.set(id, { at: e.at, state });
    }
    return [
      ...[...lastAt].map(([id, at]) =>
        db.prepare('update "devices" set "last_activity_at" = max(coalesce("devices"."last_activity_at", 0), ?) where "devices"."id" = ?').bind(at, id),
      ),
      ...[...door].map(([id, x]) =>
        db
          .prepare('update "devices" set "door_state" = ?, "door_state_at" = ? where "devices"."id" = ? and coalesce("devices"."door_state_at", 0) <= ?')
          .bind(x.state, x.at, id, x.at),
      ),
    ];
  }

  async function events(request, env, ctx) {
    const db = env.DB;
    const now = Date.now();
    const secret = (request.headers.get("Authorization") ?? "").match(/^Bearer\s+(.+)$/i)?.[1]?.trim() ?? "";
    const presented = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
    const { results: gateways } = await db.prepare('select "id", "secret_hash" from "gateways"').all();
    const gateway = gateways.find((g) => g.secret_hash.toLowerCase() === presented);
    if (!gateway) return Response.json({ message: "A valid gateway secret is required" }, { status: 401 });
    ctx.waitUntil(db.prepare('update "gateways" set "last_seen_at" = ? where "gateways"."id" = ?').bind(now, gateway.id).run());
    const { events: list } = await request.json();
    const rows = await rowsOf(db, list, now);
    const inserts = chunks(rows, ROWS_PER_INSERT).map((part) =>
      db
        .prepare(`insert into "activity_logs" (${COLUMNS}) values ${part.map(() => VALUES).join(", ")} on conflict ("activity_logs"."event_id") do nothing returning "id"`)
        .bind(...part.flatMap((r) => r.values)),
    );
    const results = await db.batch([...inserts, ...facts(db, rows)]);
    const written = (rs) => rs.reduce((n, r) => n + r.meta.rows_written, 0);
    const accepted = results.slice(0, inserts.length).reduce((n, r) => n + r.results.length, 0);
    return Response.json({
      accepted,
      duplicates: list.length - accepted,
      rejected: [],
      rowsWritten: { inserts: written(results.slice(0, inserts.length)), facts: written(results.slice(inserts.length)) },
    });
  }

  /** A store's ingest of the events (app/durable/company-log.ts `ingest`, then its alarm), on PROBE holding a store's schema. */
  async function probe(request, env) {
    const { schema, events: list } = await request.json();
    const db = env.PROBE;
    if ((await db.prepare("select count(*) n from sqlite_master where name = 'activity_logs'").first("n")) === 0) await db.batch(schema.map((s) => db.prepare(s)));
    const types = new Map((await env.DB.prepare("select id, name from activity_types").all()).results.map((t) => [t.name, t.id]));
    const rows = await rowsOf(env.DB, list, Date.now());
    let next = await db.prepare("select coalesce(max(id), 0) n from activity_logs").first("n");
    const statements = rows.map(({ values }) => {
      const [companyId, eventId, name, ...rest] = values;
      next++;
      return db
        .prepare(`INSERT OR IGNORE INTO activity_logs (${STORE_COLUMNS}) VALUES (${Array.from({ length: 14 }, () => "?").join(", ")})`)
        .bind(next, companyId, eventId, types.get(name), ...rest, Date.now());
    });
    // The alarm's engine follows written rows by id: one cursor write per page it reads (ALERT_PAGE, 200).
    const pages = Array.from({ length: Math.ceil(rows.length / 200) }, (_, i) =>
      db.prepare("INSERT OR REPLACE INTO store_state (key, value) VALUES ('alerted_id', ?)").bind(next - rows.length + Math.min(rows.length, (i + 1) * 200)),
    );
    const results = await db.batch([...statements, db.prepare("INSERT OR REPLACE INTO store_state (key, value) VALUES ('next_id', ?)").bind(next), ...pages]);
    const written = (i) => results[i].meta.rows_written;
    const from = (start, end) => results.slice(start, end).reduce((n, r) => n + r.meta.rows_written, 0);
    return Response.json({ events: rows.length, row: from(0, statements.length), state: written(statements.length), alarm: from(statements.length + 1) });
  }

  return {
    async fetch(request, env, ctx) {
      const { pathname } = new URL(request.url);
      try {
        if (request.method === "POST" && pathname === "/api/gateway/events") return await events(request, env, ctx);
        if (request.method === "POST" && pathname === "/probe") return await probe(request, env);
        return new Response("bench:ingest baseline");
      } catch (err) {
        return Response.json({ message: String(err?.stack ?? err) }, { status: 500 });
      }
    },
  };
}

/** `--baseline <dir> <port>`: serves the baseline Worker over the local D1 in `dir` until SIGTERM. */
async function serveBaseline(dir, port) {
  const { Miniflare } = await import("miniflare");
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: Number(port),
    modules: true,
    script: `export default (${baselineWorker.toString()})();`,
    compatibilityDate: "2025-04-01",
    d1Databases: { DB: D1_ID, PROBE: "bench-ingest-probe" },
    defaultPersistRoot: resolve(dir, "v3"),
  });
  await mf.ready;
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void mf.dispose().then(() => process.exit(0)));
}

async function main() {
  const { env } = benchEnv({ GATEWAY_SECRET });
  /** Runs a setup step quietly; its output is shown when it fails. */
  const quiet = (cmd, args, more = {}) => {
    try {
      execFileSync(cmd, args, { env: { ...env, ...more }, stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
      process.stderr.write(`${err.stdout ?? ""}${err.stderr ?? ""}`);
      throw new Error(`${cmd} ${args.join(" ")} failed (${err.status ?? err.signal})`);
    }
  };
  mkdirSync(".tmp", { recursive: true });
  const root = mkdtempSync(join(resolve(".tmp"), "bench-ingest-"));
  const consoleDir = join(root, "console");
  const baseDir = join(root, "baseline");
  const servers = new Set();
  const stop = async (server) => {
    servers.delete(server);
    await stopConsole(server);
  };
  const onSignal = () => {
    for (const s of servers)
      try {
        process.kill(-s.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    if (!KEEP) rmSync(root, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    ensureBuilt();
    const bench = Array.from({ length: COMPANIES }, (_, k) => k);
    const all = BIG > 0 ? [...bench, COMPANIES] : bench;
    const bigBatches = BATCHES.filter((b) => b > 1);
    // Each cell's events per company: a whole number of calls, at least one full call.
    const even = Math.floor((EVENTS - (BATCHES.includes(1) ? SINGLE * LEVELS.length : 0)) / (LEVELS.length * bigBatches.length));
    const share = (batch) => (batch === 1 ? SINGLE : Math.max(batch, Math.floor(even / batch) * batch));
    const perCompany = 1 + BATCHES.reduce((n, b) => n + share(b) * LEVELS.length, 0);
    console.log(
      `Configuration: ${COMPANIES} companies; ${perCompany} events each (1 warm-up, then per cell ${BATCHES.map((b) => `${share(b)} at batch ${b}`).join(", ")}); ` +
        `batch sizes ${BATCHES.join(", ")}; ${LEVELS.join(", ")} companies at once; ${BIG > 0 ? `one more company with ${BIG} events at batch 500` : "no big company"}; ` +
        `${(perCompany * COMPANIES + (BIG > 0 ? BIG + 1 : 0)).toLocaleString("en")} events per path. State in ${root}.`,
    );

    // Both D1s: the console's with every migration, the demo seed and the bench's companies; the baseline's to 0023.
    console.log("Seeding the console's D1 (every migration, demo data) and the baseline's (migrations to 0023) ...");
    const seedSql = (count) => `
      WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i + 1 < ${count})
      INSERT INTO companies (id, code, name, type, parent_id, poc_email) SELECT ${BASE_ID} + i, 'BENCH' || i, 'Bench company ' || i, 'ec', 1, 'bench' || i || '@bench.example' FROM c;
      WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i + 1 < ${count})
      INSERT INTO devices (id, company_id, full_name, display_name, serial_number, status) SELECT ${BASE_ID} + i, ${BASE_ID} + i, 'Bench door ' || i, 'Door ' || i, 'BENCH-' || i, 'configured' FROM c;
      WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i + 1 < ${count})
      INSERT INTO users (id, company_id, first_name, last_name, display_name, email) SELECT ${BASE_ID} + i, ${BASE_ID} + i, 'Bench', 'Person ' || i, 'Bench Person ' || i, 'person' || i || '@bench.example' FROM c;`;
    quiet("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", consoleDir]);
    await quiet("npx", ["tsx", "scripts/seed-local.ts"], { PERSIST_TO: join(consoleDir, "v3") });
    sql(consoleDir, seedSql(all.length));
    const migrations = join(root, "migrations-to-0023");
    mkdirSync(migrations);
    for (const f of readdirSync("db/migrations").filter((f) => /^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) <= BASELINE_MIGRATION))
      copyFileSync(join("db/migrations", f), join(migrations, f));
    const config = join(root, "baseline.toml");
    writeFileSync(
      config,
      `name = "bench-ingest-baseline"\ncompatibility_date = "2025-04-01"\n\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "keyless-access"\n` +
        `database_id = "${D1_ID}"\nmigrations_dir = "${migrations}"\n`,
    );
    quiet("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", baseDir, "-c", config]);
    const secretHash = createHash("sha256").update(GATEWAY_SECRET).digest("hex");
    sql(baseDir, `${seedSql(all.length)} INSERT INTO gateways (name, secret_hash) VALUES ('bench', '${secretHash}');`);
    const [shape] = sql(
      baseDir,
      "select (select count(*) from sqlite_master where type = 'index' and tbl_name = 'activity_logs') indexes, (select group_concat(name, ', ') from sqlite_master where type = 'trigger' and tbl_name = 'activity_logs') triggers",
    );
    console.log(`Baseline D1: activity_logs with ${shape.indexes} indexes and the triggers ${shape.triggers}.`);
    // Named now: the baseline's state gets a second D1 file (the probe's) later.
    const d1Files = { console: d1File(consoleDir), base: d1File(baseDir) };
    const d1Before = { console: fileBytes(d1Files.console), base: fileBytes(d1Files.base) };

    const con = await startBenchServer(consoleDir, env, { via: "miniflare" });
    servers.add(con.server);
    const base = await startBaseline(baseDir, env);
    servers.add(base.server);
    const targets = {
      new: { key: "new", name: "new path", origin: con.origin },
      base: { key: "base", name: "baseline", origin: base.origin, written: { inserts: 0, facts: 0, calls: 0, rows: 0 } },
    };
    const cookie = await signIn(con.origin, ACME);
    const token = await rootToken(con.origin, ROOT);

    // Warm-up: one event per company on each path (each store is created on its first call).
    for (const t of Object.values(targets)) await runCell(t, 1, 10, 1, all);
    const stats0 = await storeStats(con.origin, token);
    const idle = await measureGet(con.origin, "/activity", cookie, { warmup: 5, rounds: ROUNDS });
    console.log(`\n/activity idle (ACME's admin): ${idle.status}, p50 ${idle.p50.toFixed(1)} ms, p95 ${idle.p95.toFixed(1)} ms over ${ROUNDS} GETs; load average ${load()}`);

    /**
     * One cell on both paths (which goes first alternates). ACME's /activity is read meanwhile on the
     * console in both halves: the same load on the machine beside each path, and the page while the
     * console ingests against the page while only the baseline does.
     */
    let order = 0;
    const both = async (batch, atOnce, count, companies) => {
      const out = {};
      for (const key of order++ % 2 === 0 ? ["new", "base"] : ["base", "new"]) {
        const reader = readWhile(con.origin, cookie);
        out[key] = await runCell(targets[key], batch, atOnce, count, companies);
        out[key].reads = await reader();
      }
      return out;
    };
    const p95 = (reads) =>
      (reads.samples.length > 0 ? `${summarize(reads.samples).p95.toFixed(0)} (${reads.samples.length})` : "none") + (reads.failed ? ` ${reads.failed} failed` : "");
    const cols = (cells) => console.log(cells.map((c, i) => String(c).padStart([5, 7, 9, 10, 9, 11, 9, 8, 14, 14][i])).join(" "));
    const header = () => {
      cols(["", "", "", "new path", "", "baseline", "", "", "/activity p95", "ms (GETs)"]);
      cols(["batch", "at once", "rows", "rows/s", "call p95", "rows/s", "call p95", "new/base", "new ingests", "base ingests"]);
    };
    const line = (batch, atOnce, r) =>
      cols([
        batch,
        atOnce,
        r.new.rows,
        r.new.rate.toFixed(0),
        r.new.call.p95.toFixed(1),
        r.base.rate.toFixed(0),
        r.base.call.p95.toFixed(1),
        `${(r.new.rate / r.base.rate).toFixed(2)}x`,
        p95(r.new.reads),
        p95(r.base.reads),
      ]);
    const cells = [];
    if (BIG > 0) {
      console.log(`\nThe big company: ${BIG} events at batch 500, alone; load average ${load()}`);
      header();
      const r = await both(500, 1, BIG, [COMPANIES]);
      line(500, 1, r);
      cells.push({ ...r, big: true });
    }
    console.log(
      `\nIngest: rows accepted per second of wall time (first call to last answer), each company's calls one after the other; ms per call; ACME's /activity GET every ${READ_EVERY_MS} ms meanwhile; load average ${load()}`,
    );
    header();
    for (const batch of BATCHES)
      for (const atOnce of LEVELS) {
        const r = await both(batch, atOnce, share(batch), bench);
        line(batch, atOnce, r);
        cells.push({ ...r, atOnce });
      }
    console.log(`load average ${load()}`);
    const stats1 = await storeStats(con.origin, token);

    // The stores' rows written per event: a store's own schema (from its file, with the console stopped) in D1.
    await stop(con.server);
    const schema = storeSchema(consoleDir);
    const probes = [];
    if (schema)
      for (const size of [500, 1]) {
        const events = Array.from({ length: size }, (_, n) => ({ ...eventOf(0, n), id: `probe/${size}/${n}` }));
        const res = await fetch(`${base.origin}/probe`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ schema, events }) });
        if (!res.ok) throw new Error(`probe: ${res.status} ${(await res.text()).slice(0, 500)}`);
        probes.push(await res.json());
      }
    await stop(base.server);
    const d1After = { console: fileBytes(d1Files.console), base: fileBytes(d1Files.base) };
    const [{ baseRows }] = sql(baseDir, "select count(*) baseRows from activity_logs");

    // Summary.
    const newRows = cells.reduce((n, c) => n + c.new.rows, 0) + all.length;
    const during = (key, pick = () => true) => cells.filter(pick).flatMap((c) => c[key].reads.samples);
    const versus = (samples) =>
      samples.length > 0 ? `${summarize(samples).p95.toFixed(1)} ms over ${samples.length} GETs, ${(summarize(samples).p95 / idle.p95).toFixed(2)}x idle` : "no GETs";
    console.log(`\n/activity p95 (ACME's admin), idle ${idle.p95.toFixed(1)} ms:`);
    console.log(`  while the new path ingests: ${versus(during("new"))}; while the baseline ingests: ${versus(during("base"))}`);
    for (const level of LEVELS) {
      const at = (c) => c.atOnce === level;
      console.log(`  with ${level} ${level === 1 ? "company" : "companies"} ingesting: new path ${versus(during("new", at))}; baseline ${versus(during("base", at))}`);
    }

    console.log("\nBytes per row:");
    const storeFigures = (ids) => {
      const at = (stats, f) => ids.reduce((n, k) => n + (stats.get(BASE_ID + k)?.[f] ?? 0), 0);
      const rows = at(stats1, "rows");
      const bytes = at(stats1, "bytes");
      return { rows, bytes, perRow: bytes / rows, added: (bytes - at(stats0, "bytes")) / (rows - at(stats0, "rows")) };
    };
    const stores = storeFigures(bench);
    console.log(
      `  company stores (${COMPANIES}): ${stores.rows} rows, ${(stores.bytes / COMPANIES / 1e6).toFixed(2)} MB each; ${stores.perRow.toFixed(0)} bytes per row with each store's fixed part (schema, catalogue, names), ${stores.added.toFixed(0)} per row added after the warm-up`,
    );
    const expected = perCompany * COMPANIES;
    if (stores.rows !== expected) console.log(`  (expected ${expected} rows in the bench stores)`);
    if (BIG > 0) {
      const big = storeFigures([COMPANIES]);
      console.log(`  the big company's store: ${big.rows} rows, ${(big.bytes / 1e6).toFixed(1)} MB, ${big.perRow.toFixed(0)} bytes per row`);
    }
    const baseGrowth = d1After.base - d1Before.base;
    console.log(
      `  baseline D1 (one table, migrations to 0023): ${(d1After.base / 1e6).toFixed(1)} MB for ${baseRows} activity rows, ${(d1After.base / baseRows).toFixed(0)} bytes per row with every other table; grew ${(baseGrowth / 1e6).toFixed(1)} MB, ${(baseGrowth / baseRows).toFixed(0)} bytes per ingested row`,
    );
    console.log(`  store/baseline, bytes per row added: ${(stores.added / (baseGrowth / baseRows)).toFixed(2)}x`);

    console.log("\nRows written per event:");
    const w = targets.base.written;
    console.log(
      `  baseline: ${(w.inserts / w.rows).toFixed(2)} (meta.rows_written of its inserts: the row, 9 indexes, the tallies, sqlite_sequence), plus ${(w.facts / w.calls).toFixed(2)} per call for the device facts`,
    );
    if (probes.length) {
      for (const p of probes)
        console.log(
          `  store, batch ${p.events}: ${((p.row + p.state + p.alarm) / p.events).toFixed(2)} = ${(p.row / p.events).toFixed(2)} (the row, its indexes and tallies) + ${(p.state / p.events).toFixed(2)} (next id, once a call) + ${(p.alarm / p.events).toFixed(2)} (the alert engine's cursor, once per 200 rows it reads)`,
        );
      console.log(
        "    (D1's counter over the store's own schema and its ingest statements; D1 meanwhile gets the same device-fact UPDATEs per call as the baseline, and the gateway's last call)",
      );
    } else console.log("  stores: not measured (needs the sqlite3 program to read a store's schema)");

    const growth = d1After.console - d1Before.console;
    const perEvent = growth / newRows;
    console.log(
      `\nShared D1 on the new path: ${(d1Before.console / 1e6).toFixed(2)} MB before, ${(d1After.console / 1e6).toFixed(2)} MB after ${newRows} events: ${perEvent.toFixed(2)} bytes per event (target < ${D1_GROWTH_TARGET}): target ${perEvent < D1_GROWTH_TARGET ? "met" : "not met"}`,
    );
    if (!hasSqlite3()) console.log("  (no sqlite3 program: file sizes include the WAL, uncheckpointed)");
  } finally {
    for (const s of [...servers]) await stop(s);
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    if (!KEEP) rmSync(root, { recursive: true, force: true });
  }
}

/** The baseline Worker (this script with --baseline) on a free loopback port; resolves once it answers. */
async function startBaseline(dir, env) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn("node", [SELF, "--baseline", dir, String(port)], { env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  try {
    await waitUntilUp(origin, server);
  } catch (err) {
    await stopConsole(server);
    throw err;
  }
  return { origin, server };
}

/** Event `n` of bench company `k`: grants, denials (with the person) and the door opening and closing, a second apart. */
function eventOf(k, n) {
  const type = TYPES[n % TYPES.length];
  const data = type.startsWith("access.") ? { userId: String(BASE_ID + k), ...(type === "access.denied" ? { code: "no_key" } : {}) } : {};
  return { id: `bench/${k}/${n}`, deviceId: String(BASE_ID + k), type, at: START + n * 1000, data };
}

/** The next events of company `k` on one path: both paths get the same events in the same order. */
const sent = { new: new Map(), base: new Map() };
function nextEvents(key, k, count) {
  const from = sent[key].get(k) ?? 0;
  sent[key].set(k, from + count);
  return Array.from({ length: count }, (_, j) => eventOf(k, from + j));
}

/** One gateway call; throws unless every event was accepted. */
async function post(target, events) {
  const started = performance.now();
  const res = await fetch(`${target.origin}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${GATEWAY_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, events }),
  });
  const body = await res.json().catch(() => ({}));
  const ms = performance.now() - started;
  if (res.status !== 200 || body.accepted !== events.length) throw new Error(`${target.name}: ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
  return { ms, body };
}

/** `atOnce` workers take companies from a queue; each sends `count` events of its company in calls of `batch`. */
async function runCell(target, batch, atOnce, count, companies) {
  const queue = [...companies];
  const calls = [];
  let rows = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(atOnce, queue.length) }, async () => {
      for (let k = queue.shift(); k !== undefined; k = queue.shift())
        for (let done = 0; done < count; done += batch) {
          const { ms, body } = await post(target, nextEvents(target.key, k, Math.min(batch, count - done)));
          calls.push(ms);
          rows += body.accepted;
          if (target.written && body.rowsWritten) {
            target.written.inserts += body.rowsWritten.inserts;
            target.written.facts += body.rowsWritten.facts;
            target.written.calls++;
            target.written.rows += body.accepted;
          }
        }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { rows, seconds, rate: rows / seconds, call: summarize(calls) };
}

/** GETs /activity every READ_EVERY_MS until the returned function is called; it answers the samples. */
function readWhile(origin, cookie) {
  const samples = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const status = await fetch(`${origin}/activity`, { headers: { cookie }, redirect: "manual" })
        .then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        })
        .catch(() => 0);
      const ms = performance.now() - started;
      if (status === 200) samples.push(ms);
      else failed++;
      if (running) await sleep(Math.max(0, READ_EVERY_MS - ms));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { samples, failed };
  };
}

/** Each company's store (`stats()`: rows and bytes) through the operators' backfill call, by company id. */
async function storeStats(origin, token) {
  const byCompany = new Map();
  await backfill(origin, token, { onCompany: (c) => byCompany.set(c.companyId, c) });
  return byCompany;
}

let sqlite3;
const hasSqlite3 = () => {
  if (sqlite3 === undefined)
    try {
      execFileSync("sqlite3", ["-version"], { stdio: "ignore" });
      sqlite3 = true;
    } catch {
      sqlite3 = false;
    }
  return sqlite3;
};

/** A stopped server's SQLite file, its WAL checkpointed into it first (else the WAL is counted too). */
function fileBytes(file) {
  if (hasSqlite3()) execFileSync("sqlite3", [file, "PRAGMA wal_checkpoint(TRUNCATE);"], { stdio: "ignore" });
  const wal = `${file}-wal`;
  return statSync(file).size + (existsSync(wal) ? statSync(wal).size : 0);
}

/** The statements of a company store's schema, read from one store's file (the console stopped). */
function storeSchema(dir) {
  if (!hasSqlite3()) return null;
  const doDir = join(dir, "v3", "do");
  const sub = readdirSync(doDir).find((d) => d.endsWith("-CompanyLog"));
  const file = sub && readdirSync(join(doDir, sub)).find((f) => f.endsWith(".sqlite"));
  if (!file) return null;
  const out = execFileSync(
    "sqlite3",
    ["-json", join(doDir, sub, file), "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name <> 'sqlite_sequence' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY rowid"],
    {
      encoding: "utf8",
    },
  );
  return JSON.parse(out || "[]").map((r) => r.sql);
}

if (process.argv[2] === "--baseline") await serveBaseline(process.argv[3], process.argv[4]);
else await main();
