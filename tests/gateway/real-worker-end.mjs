/**
 * The real console Worker as the "Worker end" of gateway/test/durability.test.js
 * (run with WORKER_END=tests/gateway/real-worker-end.mjs) and of the door-path differential test:
 * the built console as wrangler bundles it, served by Miniflare in this process with its own local D1
 * (a copy of the seeded one scripts/d1-template.sh keeps), plus boards provisioned as real devices
 * whose board secret is 'board-secret'. Rows are counted in the activity log itself: ACME's store, the
 * Durable Object the Worker writes events to.
 */
import { execFile } from "node:child_process";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";
import { Agent, setGlobalDispatcher } from "undici";
import { consoleWorkerOptions } from "../../scripts/console-bundle.mjs";
import { newSigningKeys } from "../../scripts/credential-keys.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER_NAME = "console";
const SECRET = "test-gateway-secret";
const ACME = 3;
const run = promisify(execFile);
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** The gateway's board-secret format (gateway/src/password.js). */
function boardHash(password) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, 1000, 32, "sha256");
  return `pbkdf2-sha256$i=1000$${salt.toString("base64")}$${hash.toString("base64")}`;
}

// This process calls the Worker without keep-alive. workerd closes a connection idle for 5 s, and a
// request written on it as it closes is reset (ECONNRESET): fetch's own 4 s idle timer fires late
// when the event loop is busy comparing decisions, so the race is real here.
setGlobalDispatcher(new Agent({ pipelining: 0 }));

/** `triggers`: also serve Miniflare's /cdn-cgi/handler/scheduled, so a caller can run the cron (the webhook load run). */
export async function startWorkerEnd({ triggers = false } = {}) {
  await mkdir(`${ROOT}/.tmp`, { recursive: true });
  const dir = await mkdtemp(`${ROOT}/.tmp/worker-end-`);
  const port = await freePort();
  const { stdout: template } = await run("bash", ["scripts/d1-template.sh"], { cwd: ROOT, env: { ...env, GATEWAY_SECRET: SECRET } });
  await cp(template.trim(), dir, { recursive: true });
  let provisioned = 0;
  await run("bash", ["scripts/bundle-console.sh"], { cwd: ROOT, env });
  const url = `http://127.0.0.1:${port}`;
  // Its own key to sign phone credentials with, whatever a local .dev.vars holds (published at /.well-known/keyless-credential-keys.json).
  // wrangler.toml is production's config; a test runner says so explicitly.
  const vars = { CREDENTIAL_SIGNING_KEYS: await newSigningKeys(), ENVIRONMENT: "test", PUBLIC_ORIGIN: url };
  const miniflare = (listenOn) =>
    new Miniflare({ host: "127.0.0.1", port: listenOn, defaultPersistRoot: `${dir}/v3`, unsafeTriggerHandlers: triggers, workers: [consoleWorkerOptions(WORKER_NAME, vars)] });
  /** The served Worker; null while stopped. */
  let served = null;

  const start = async () => {
    served = miniflare(port);
    await served.ready;
  };
  const stop = async () => {
    await served?.dispose();
    served = null;
  };
  /** Runs `read` on the Worker's Miniflare; while the Worker is stopped, on a Miniflare on the same state that serves nobody. */
  const onState = async (read) => {
    const mf = served ?? miniflare(0);
    try {
      return await read(mf);
    } finally {
      if (mf !== served) await mf.dispose();
    }
  };
  /** One statement on the Worker's D1. */
  const d1 = (sql) => onState(async (mf) => (await (await mf.getD1Database("DB")).prepare(sql).all()).results);
  /** A call on ACME's activity log store (decision 0048: events are written there, never to D1). */
  const onAcmeLog = (call) =>
    onState(async (mf) => {
      const logs = await mf.getDurableObjectNamespace("COMPANY_LOG", "console");
      // A plain copy: the answer is a proxy into the runtime, gone once a stopped Worker's Miniflare is disposed.
      return JSON.parse(JSON.stringify(await call(logs.get(logs.idFromName(`company:${ACME}`)))));
    });
  /** One read statement on ACME's log, after the store copied what D1's outbox holds; rows as arrays. */
  const acmeLog = (sql, method = "all") => onAcmeLog((store) => store.query(ACME, { sql, params: [], method }));
  /** ACME's archived days (decision 0049): each object's key and its rows, as arrays in the store's column order. */
  const acmeArchive = () =>
    onState(async (mf) => {
      const bucket = await mf.getR2Bucket("ACTIVITY_ARCHIVE", "console");
      const days = [];
      for (const { key } of (await bucket.list({ prefix: `activity/${ACME}/` })).objects) {
        const text = gunzipSync(Buffer.from(await (await bucket.get(key)).arrayBuffer())).toString();
        const rows = text
          .split("\n")
          .filter((line) => line.startsWith('["r"'))
          .map((line) => JSON.parse(line).slice(1));
        days.push({ key, rows });
      }
      return days;
    });
  await start();

  return {
    url,
    /** The console Worker's name in Miniflare: a cron call (`triggers`) names it in `MF-Route-Override`. */
    name: WORKER_NAME,
    /** Board ids are device ids: creates `n` ACME devices with the board secret and announces them on the feed. */
    async boardIds(n) {
      const first = provisioned;
      provisioned += n;
      const hash = boardHash("board-secret");
      const values = Array.from({ length: n }, (_, i) => `(${ACME}, 'Durability ${first + i}', 'DUR-${first + i}', '${hash}')`).join(",");
      await d1(`insert into devices (company_id, full_name, serial_number, board_secret_hash) values ${values}`);
      const rows = await d1(`select id from devices where serial_number like 'DUR-%' order by id`);
      const ids = rows.slice(first).map((r) => r.id);
      await d1(`insert into gateway_changes (company_id, entity, entity_id, op) values ${ids.map((id) => `(${ACME}, 'device', ${id}, 'upsert')`).join(",")}`);
      return ids.map(String);
    },
    provision: async () => {},
    /** One SQL statement on the Worker's D1, for changes no console call makes yet. */
    sql: d1,
    acmeLog,
    acmeArchive,
    /** Runs ACME's store upkeep until it has nothing left to do (archive, retention, hot window). */
    acmeUpkeep: () =>
      onAcmeLog(async (store) => {
        while ((await store.upkeep(ACME)).more);
        return store.archiveState(ACME);
      }),
    /** What ACME's store holds now, without copying first. */
    acmeStats: () => onAcmeLog((store) => store.stats()),
    rows: async () => (await acmeLog(`select count(*) from activity_logs where event_id like '%-e%'`, "get"))[0],
    duplicatesRefused: () => "not counted (the Worker answers them as duplicates)",
    start,
    stop,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
