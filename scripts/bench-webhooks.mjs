// `npm run bench:webhooks`: issue 30's webhook load run (docs/decisions/0082). Door events from simulated
// boards over MQTT through the real gateway (aedes, gateway/src/main.js) into the built console (wrangler's
// bundle under Miniflare, tests/gateway/real-worker-end.mjs: its own local D1 with the demo seed, the
// companies' stores, and the real queue consumers), whose alert engine writes the webhook events and whose
// webhook queue consumer posts them to two endpoints at local receivers (scripts/webhook-receiver.mjs) in
// this process. Endpoint "b" answers 500 to its first BENCH_FAILS requests, so those events are retried
// (the first back-off, 5 s; later ones are never reached, so the run stays minutes long).
//
// Every request is verified as it arrives (standardwebhooks, the endpoint's secret) and de-duplicated by
// webhook-id. A door event is told by its board and its board time (each board's `at` strictly increases),
// so the run checks that each endpoint got every event exactly once after de-duplication, none missing,
// no event under two ids, nothing it did not send; it exits 1 otherwise. Boards also connect and
// disconnect around the run, so each endpoint must get one device.online and one device.offline per board.
//
// Figures: latency from the event's board time to its first successful delivery (p50, p99, max) per
// endpoint, events/s from the first publish to the last delivery, requests and duplicates before
// de-duplication; and a same-run baseline: the same number of events with no endpoint (ingest only:
// from the first publish until the last row is in ACME's log), with the ratio. The machine's load is printed.
//
//   BENCH_EVENTS   door events in each phase (default 10000)     BENCH_BOARDS  boards (default 20)
//   BENCH_FAILS    requests endpoint b fails first (default 200) BENCH_WINDOW  unacknowledged events per board (default 25)
// Build first (`npm run build`): the run bundles build/ as it is.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { SimBoard } from "../gateway/sim/sim-board.js";
import { spawnGateway, until } from "../gateway/test/support/fixtures.js";
import { startWorkerEnd } from "../tests/gateway/real-worker-end.mjs";
import { ensureBuilt, load, percentile, sleep } from "./bench-server.mjs";
import { startWebhookReceiver } from "./webhook-receiver.mjs";

const N = Number(process.env.BENCH_EVENTS ?? 10_000);
const BOARDS = Number(process.env.BENCH_BOARDS ?? 20);
const FAILS = Number(process.env.BENCH_FAILS ?? 200);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 25);
const TYPES = ["access.granted", "access.denied", "door.opened", "door.closed"];
const PRESENCE = ["device.online", "device.offline"];
const ENDPOINTS = { a: "", b: `?fail=${FAILS}` };
const GATEWAY_ID = "gw-bench-webhooks";
/** No progress for this long ends the run as a failure. */
const STALL_MS = 120_000;

const log = (...xs) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...xs);

/** What one endpoint received: first successful arrival by webhook-id, and the counts before de-duplication. */
function endpointTally() {
  return { ok: new Map(), requests: 0, failedAnswers: 0, okAnswers: 0, badSignatures: 0, bodies: new Map() };
}

/** Sends `count` door events, spread over the boards; resolves with each event's key → board time. */
async function sendDoorEvents(boards, count, phase) {
  const sent = new Map();
  await Promise.all(
    boards.map(async (b, i) => {
      // board i sends events i, i + boards, i + 2 boards, ...
      const mine = Math.floor(count / boards.length) + (i < count % boards.length ? 1 : 0);
      let last = 0;
      const todo = Array.from({ length: mine }, (_, k) => k);
      while (todo.length > 0) {
        await Promise.all(
          todo.splice(0, WINDOW).map((k) => {
            const at = (last = Math.max(Date.now(), last + 1));
            const type = TYPES[(k + i) % TYPES.length];
            sent.set(`${b.id}|${at}`, { at, type });
            // Access events a board reports are decisions it took alone on a signed credential (PROTOCOL.md).
            const access = { credential: { type: "signed", id: `jti-${phase}-${k}` }, userId: "0", keyId: `bench-${k}`, keyKind: "ekey" };
            const data = type === "access.granted" ? access : type === "access.denied" ? { ...access, code: "outside_schedule" } : {};
            return b.sendEvent(type, data, { id: `bench-${phase}-${k}`, at });
          }),
        );
      }
    }),
  );
  return sent;
}

async function connectBoards(port, ids) {
  const boards = ids.map((id) => new SimBoard({ url: `mqtt://127.0.0.1:${port}`, id, password: "board-secret", subscribe: [] }));
  await Promise.all(boards.map((b) => b.connect()));
  return boards;
}

/** Polls `done` until true; fails when `progress` has not changed for STALL_MS. */
async function waitFor(what, done, progress) {
  let seen = progress();
  let since = Date.now();
  while (!(await done())) {
    await sleep(250);
    const now = progress();
    if (now !== seen) [seen, since] = [now, Date.now()];
    else if (Date.now() - since > STALL_MS) throw new Error(`${what}: no progress for ${STALL_MS / 1000} s (at ${seen})`);
  }
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s.at(-1) };
};

async function main() {
  ensureBuilt();
  const loadBefore = load();
  const tallies = { a: endpointTally(), b: endpointTally() };
  const secrets = {};
  const receiver = await startWebhookReceiver(0, {
    quiet: true,
    onRequest: (name, m) => {
      const t = tallies[name];
      if (!t) return;
      t.requests++;
      try {
        new Webhook(secrets[name]).verify(m.body, m.headers);
      } catch {
        t.badSignatures++;
        return;
      }
      if (m.answered !== 200) return void t.failedAnswers++;
      t.okAnswers++;
      const id = m.headers["webhook-id"];
      if (!t.ok.has(id)) {
        t.ok.set(id, m.at);
        t.bodies.set(id, JSON.parse(m.body));
      }
    },
  });
  const worker = await startWorkerEnd({ triggers: true });
  const dataDir = await mkdtemp(join(tmpdir(), "bench-webhooks-"));
  let gw;
  let boards = [];
  try {
    const ids = await worker.boardIds(BOARDS);
    gw = await spawnGateway({ DATA_DIR: dataDir, WORKER_URL: worker.url, MQTT_PORT: "0", SYNC_INTERVAL_MS: "500", GATEWAY_ID }, { stderr: "ignore" });
    // The gateway learns its boards from the console's change feed.
    await until(
      async () => {
        const probe = new SimBoard({ url: `mqtt://127.0.0.1:${gw.mqttPort}`, id: ids.at(-1), password: "board-secret", subscribe: [] });
        const ok = await probe.connect().then(
          () => true,
          () => false,
        );
        await probe.close();
        return ok;
      },
      { what: "boards provisioned", stepMs: 200, timeoutMs: 120_000 },
    );
    const acmeRows = async (phase) => Number((await worker.acmeLog(`select count(*) from activity_logs where event_id like '%bench-${phase}-%'`, "get"))[0]);

    // Baseline: the same number of events, no endpoint (ingest only).
    log(`baseline: ${N} door events from ${BOARDS} boards, no webhook endpoint (load ${load()})`);
    boards = await connectBoards(gw.mqttPort, ids);
    const t0 = Date.now();
    await sendDoorEvents(boards, N, "base");
    let rows = 0;
    await waitFor(
      "baseline ingest",
      async () => (rows = await acmeRows("base")) >= N,
      () => rows,
    );
    const baselineMs = Date.now() - t0;
    log(`baseline: ${rows} rows in ACME's log after ${(baselineMs / 1000).toFixed(1)} s`);
    await Promise.all(boards.map((b) => b.close()));
    // Every board offline in the console before the endpoints exist (their offline is not this run's).
    await waitFor(
      "boards offline",
      async () => Number((await worker.sql(`select count(*) as n from device_presence where online = 1`))[0].n) === 0,
      () => 0,
    );

    // Endpoints through the admin API, as an integrator makes them. Presence from before (the baseline's
    // boards, whose rows the engine may still be reading) is not this phase's.
    const tEndpoints = Date.now();
    const login = await (
      await fetch(`${worker.url}/api/admin/user/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" }),
      })
    ).json();
    for (const [name, query] of Object.entries(ENDPOINTS)) {
      const r = await fetch(`${worker.url}/api/admin/webhooks/endpoints`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: login.token },
        body: JSON.stringify({ url: `${receiver.url}/hooks/${name}${query}`, description: `bench ${name}`, event_types: [...TYPES, ...PRESENCE] }),
      });
      const body = await r.json();
      if (r.status !== 200) throw new Error(`endpoint ${name}: ${r.status} ${JSON.stringify(body)}`);
      secrets[name] = body.payload.secret;
    }

    // Production's cron, every minute (wrangler.toml): it sweeps the retries that are due when nothing else
    // wakes the webhook queue (Miniflare runs no cron by itself).
    const cron = setInterval(
      () =>
        // The header routes the call to the console Worker: without it Miniflare's own entry answers 500 "exception".
        void fetch(`${worker.url}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`, { headers: { "MF-Route-Override": worker.name } }).then(
          (r) => r.ok || log(`cron: ${r.status} ${r.statusText}`),
          (e) => log(`cron: ${e.message}`),
        ),
      60_000,
    );
    const deliveries = async () =>
      JSON.stringify(
        await worker.sql(
          `select state, attempts, count(*) as n, min(next_attempt_at) - ${Date.now()} as due_in_ms, max(claimed_until) as claimed from webhook_deliveries group by 1, 2`,
        ),
      );
    log(`webhooks: ${N} door events, endpoints a and b (b fails its first ${FAILS} requests) (load ${load()})`);
    boards = await connectBoards(gw.mqttPort, ids);
    const t1 = Date.now();
    const sent = await sendDoorEvents(boards, N, "hooks");
    const sentMs = Date.now() - t1;
    // The boards go: their device.offline events follow the door events through the same engine.
    await Promise.all(boards.map((b) => b.close()));
    const doorCount = (t) => [...t.bodies.values()].filter((b) => TYPES.includes(b.type)).length;
    await waitFor(
      "webhook deliveries",
      async () => doorCount(tallies.a) >= N && doorCount(tallies.b) >= N,
      () => doorCount(tallies.a) + doorCount(tallies.b),
    ).catch(async (e) => {
      throw new Error(`${e.message}; deliveries ${await deliveries()}`);
    });
    const deliveredMs = Date.now() - t1;
    const lastDelivery = Math.max(...Object.values(tallies).flatMap((t) => [...t.ok.values()]));
    log(`webhooks: all door events delivered to both after ${(deliveredMs / 1000).toFixed(1)} s (published in ${(sentMs / 1000).toFixed(1)} s)`);
    const presenceCount = (t) => [...t.bodies.values()].filter((b) => b.type === "device.offline" && Date.parse(b.occurred_at) >= tEndpoints).length;
    await waitFor(
      "device.offline deliveries",
      async () => presenceCount(tallies.a) >= BOARDS && presenceCount(tallies.b) >= BOARDS,
      () => presenceCount(tallies.a) + presenceCount(tallies.b),
    );
    await sleep(3_000); // anything late or doubled would arrive now
    clearInterval(cron);

    // Checks and figures per endpoint.
    const problems = [];
    const figures = {};
    for (const [name, t] of Object.entries(tallies)) {
      const byEvent = new Map();
      const latencies = [];
      const presence = { "device.online": new Map(), "device.offline": new Map() };
      for (const [id, body] of t.bodies) {
        if (body.type in presence) {
          if (Date.parse(body.occurred_at) < tEndpoints) continue;
          const m = presence[body.type];
          m.set(body.data.device.id, (m.get(body.data.device.id) ?? 0) + 1);
          continue;
        }
        const key = `${body.data.device.id}|${Date.parse(body.occurred_at)}`;
        const e = sent.get(key);
        if (!e) {
          problems.push(`${name}: ${body.type} ${key} was not sent in this run`);
          continue;
        }
        if (e.type !== body.type) problems.push(`${name}: ${key} sent as ${e.type}, delivered as ${body.type}`);
        if (byEvent.has(key)) problems.push(`${name}: ${key} under two webhook-ids (${byEvent.get(key)}, ${id})`);
        byEvent.set(key, id);
        latencies.push(t.ok.get(id) - e.at);
      }
      const missing = [...sent.keys()].filter((k) => !byEvent.has(k));
      if (missing.length) problems.push(`${name}: ${missing.length} events missing, e.g. ${missing.slice(0, 3).join(", ")}`);
      if (t.badSignatures) problems.push(`${name}: ${t.badSignatures} requests failed signature verification`);
      for (const [type, m] of Object.entries(presence)) {
        const wrong = ids.filter((id) => m.get(Number(id)) !== 1);
        if (wrong.length) problems.push(`${name}: ${type} not exactly once for boards ${wrong.join(", ")}`);
      }
      figures[name] = {
        latency: stats(latencies),
        requests: t.requests,
        failedAnswers: t.failedAnswers,
        duplicates: t.okAnswers - t.ok.size,
        events: t.ok.size,
      };
    }

    const ms = (x) => `${x.toLocaleString("en")} ms`;
    console.log(`\nWebhook load run: ${N} door events from ${BOARDS} boards through the gateway, 2 endpoints (load before ${loadBefore}, now ${load()})`);
    for (const [name, f] of Object.entries(figures)) {
      console.log(
        `  endpoint ${name}: ${f.events} events (${N} door, ${2 * BOARDS} presence expected), ${f.requests} requests (${f.failedAnswers} answered 500), ` +
          `${f.duplicates} duplicates before de-dup; board time to first delivery p50 ${ms(f.latency.p50)}, p99 ${ms(f.latency.p99)}, max ${ms(f.latency.max)}`,
      );
    }
    const total = lastDelivery - t1;
    console.log(`  throughput: ${((N / total) * 1000).toFixed(0)} events/s to both endpoints (${(total / 1000).toFixed(1)} s from the first publish to the last delivery)`);
    console.log(
      `  baseline (same run, no endpoint, ingest only): ${(baselineMs / 1000).toFixed(1)} s, ${((N / baselineMs) * 1000).toFixed(0)} events/s; ratio ${(deliveredMs / baselineMs).toFixed(2)}x`,
    );
    if (problems.length) {
      console.log(`\nFAILED:\n  ${problems.slice(0, 30).join("\n  ")}`);
      process.exitCode = 1;
    } else console.log("\nEach endpoint got every event exactly once after de-duplication, none missing, every signature valid.");
  } finally {
    await Promise.all(boards.map((b) => b.close().catch(() => b.kill())));
    if (gw) {
      gw.proc.kill("SIGTERM");
      await gw.exited;
    }
    await worker.dispose();
    await rm(dataDir, { recursive: true, force: true });
    receiver.server.close();
    receiver.server.closeAllConnections();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
