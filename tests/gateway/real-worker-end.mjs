/**
 * The real console Worker as the "Worker end" of gateway/test/durability.test.js
 * (run with WORKER_END=tests/gateway/real-worker-end.mjs): `wrangler dev` on the built console with
 * its own local D1, migrated and seeded, plus boards provisioned as real devices whose board secret
 * is 'board-secret'. Rows are counted in the activity log itself. The migrated and seeded D1 is made
 * once per version of what makes it (seededTemplate) and copied for each run.
 */
import { execFile, spawn } from "node:child_process";
import { createHash, pbkdf2Sync, randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { newSigningKeys } from "../../scripts/credential-keys.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
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

/** One statement on the Worker's local D1. `wrangler dev` holds the same SQLite file, so a busy database is retried. */
async function d1(dir, sql) {
  for (let attempt = 1; ; attempt++) {
    try {
      const { stdout } = await run("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", dir, "--json", "--command", sql], { cwd: ROOT, env, maxBuffer: 1 << 24 });
      return JSON.parse(stdout)[0].results;
    } catch (err) {
      if (attempt >= 20 || !/SQLITE_BUSY|database is locked/.test(String(err.stdout ?? "") + String(err.stderr ?? "") + err.message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * What the migrated and seeded D1 is made from: the migrations, everything the seed may import (db/, app/,
 * the seed script), the D1 binding, the locked package versions, and the seed's settings (the gateway
 * secret, SMTP_PORT). Tests are not part of it; the seed's clock is fixed (db/seed/demo.ts).
 */
const TEMPLATE_INPUTS = ["db", "app", "scripts/seed-local.ts", "wrangler.toml", "package-lock.json"];

async function templateKey() {
  const hash = createHash("sha256").update(`${SECRET}\0${process.env.SMTP_PORT ?? ""}\0`);
  for (const input of TEMPLATE_INPUTS) {
    const files = (await stat(`${ROOT}/${input}`)).isDirectory() ? (await readdir(`${ROOT}/${input}`, { recursive: true })).map((f) => `${input}/${f}`) : [input];
    for (const file of files.sort()) if ((await stat(`${ROOT}/${file}`)).isFile()) hash.update(`${file}\0`).update(await readFile(`${ROOT}/${file}`));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * A migrated and seeded D1 state directory, made once per version of its inputs: migrating and seeding
 * spawn wrangler twice, about a minute (two on a busy machine) that every Worker end would otherwise pay.
 * Older versions are removed; a template made meanwhile by another run is as good as this one.
 */
async function seededTemplate() {
  const key = await templateKey();
  const template = `${ROOT}/.tmp/seeded-d1-${key}`;
  if (await stat(template).catch(() => null)) return template;
  const staging = await mkdtemp(`${ROOT}/.tmp/seeding-`);
  try {
    await run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", staging], { cwd: ROOT, env });
    await run("npx", ["tsx", "scripts/seed-local.ts"], { cwd: ROOT, env: { ...env, PERSIST_TO: `${staging}/v3`, GATEWAY_SECRET: SECRET } });
    await rename(staging, template).catch(() => {}); // fails only when another run's template is there
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  for (const old of await readdir(`${ROOT}/.tmp`)) {
    if (old.startsWith("seeded-d1-") && old !== `seeded-d1-${key}`) await rm(`${ROOT}/.tmp/${old}`, { recursive: true, force: true });
  }
  return template;
}

export async function startWorkerEnd() {
  await mkdir(`${ROOT}/.tmp`, { recursive: true });
  const dir = await mkdtemp(`${ROOT}/.tmp/worker-end-`);
  const port = await freePort();
  await cp(await seededTemplate(), dir, { recursive: true });
  let proc = null;
  let provisioned = 0;
  // Its own key to sign phone credentials with, whatever a local .dev.vars holds (published at /.well-known/keyless-credential-keys.json).
  const signingKeys = await newSigningKeys();

  const start = async () => {
    proc = spawn(
      "npx",
      [
        "wrangler",
        "dev",
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        "--persist-to",
        dir,
        "--show-interactive-dev-session=false",
        "--var",
        `CREDENTIAL_SIGNING_KEYS:${signingKeys}`,
      ],
      {
        cwd: ROOT,
        env,
        detached: true,
        stdio: "ignore",
      },
    );
    for (let i = 0; i < 120; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/api/openapi.json`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error("the Worker did not start");
  };
  const stop = async () => {
    if (!proc) return;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch {}
    await exited;
    proc = null;
  };
  await start();

  return {
    url: `http://127.0.0.1:${port}`,
    /** Board ids are device ids: creates `n` ACME devices with the board secret and announces them on the feed. */
    async boardIds(n) {
      const first = provisioned;
      provisioned += n;
      const hash = boardHash("board-secret");
      const values = Array.from({ length: n }, (_, i) => `(${ACME}, 'Durability ${first + i}', 'DUR-${first + i}', '${hash}')`).join(",");
      await d1(dir, `insert into devices (company_id, full_name, serial_number, board_secret_hash) values ${values}`);
      const rows = await d1(dir, `select id from devices where serial_number like 'DUR-%' order by id`);
      const ids = rows.slice(first).map((r) => r.id);
      await d1(dir, `insert into gateway_changes (company_id, entity, entity_id, op) values ${ids.map((id) => `(${ACME}, 'device', ${id}, 'upsert')`).join(",")}`);
      return ids.map(String);
    },
    provision: async () => {},
    /** One SQL statement on the Worker's D1, for changes no console call makes yet. */
    sql: (statement) => d1(dir, statement),
    rows: async () => (await d1(dir, `select count(*) n from activity_logs where event_id like '%-e%'`))[0].n,
    duplicatesRefused: () => "not counted (the Worker answers them as duplicates)",
    start,
    async stop() {
      await stop();
    },
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
