/**
 * A staged firmware rollout end to end (decision 0094): the built console under Miniflare with its own D1
 * (./real-worker-end.mjs), the real gateway in this process, and 200 simulated boards over MQTT. The
 * console plans the waves and judges their health; the gateway offers the release only to boards of an
 * open wave. Ten boards of the first wave fail their install: the rollout pauses itself, the cron opens
 * nothing more, and no board of a later wave is offered anything. After a fix, a resume lets them install
 * and the cron opens the second wave; an abort offers every board the previous release again.
 *
 *   node --test tests/gateway/firmware-rollout.test.mjs   (after `npm run build`)
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { startWorkerEnd } from "./real-worker-end.mjs";
import { board, startGateway, tempDir, removeDir, until } from "../../gateway/test/support/fixtures.js";
import { waveOf } from "../../gateway/src/firmware/rollout-plan.js";

const BOARDS = 200;
const FAILING = 10;
const ACME = 3;
const ROOT = { companyId: "ROOT", userName: "root@example.com", password: "Root#Demo2026" };
const WAVES = [10, 50, 100];
/**
 * How often a wait asks the console: each answer reads every wave's health, and asking back to back keeps
 * the one Worker busy enough, on a loaded machine, to starve the event ingestion the wait is waiting for.
 */
const CONSOLE_POLL_MS = 1000;

let end, gw, dir, token, typeId;
/** Each board and what it was offered (the last offer's version, or null when withdrawn). */
const boards = new Map();
/** Boards whose next download corrupts a block, so the install fails its SHA-256 check. */
const failing = new Set();

async function call(path, body) {
  const res = await fetch(`${end.url}/api/admin${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

async function upload(version) {
  const form = new FormData();
  form.set("version", version);
  form.set("device_type_id", String(typeId));
  form.set("zip_file", new File([randomBytes(3 * 4096 + 100)], `fw-${version}.zip`, { type: "application/zip" }));
  const res = await fetch(`${end.url}/api/admin/ota/addota`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).payload.id;
}

const rollout = async (id) => (await call("/ota/getRollouts", {})).payload.find((x) => x.id === id);
const cron = () => fetch(`${end.url}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`, { headers: { "MF-Route-Override": end.name } }).then((r) => r.text());

before(async () => {
  end = await startWorkerEnd({ triggers: true });
  await end.sql(`insert into device_types (device_code, device_type) values ('RT-100', 'Rollout test board')`);
  [{ id: typeId }] = await end.sql(`select id from device_types where device_code = 'RT-100'`);
  const ids = await end.boardIds(BOARDS);
  await end.sql(`update devices set device_type_id = ${typeId} where id in (${ids.join(",")})`);
  // ACME's boards take releases on their own (decision 0116): the plan alone decides who gets one when.
  await end.sql(`update company_settings set is_force_firmware_update = 1 where company_id = ${ACME}`);
  await end.sql(`insert into gateway_changes (company_id, entity, entity_id, op) values ${ids.map((id) => `(${ACME}, 'device', ${id}, 'upsert')`).join(",")}`);
  const login = await fetch(`${end.url}/api/admin/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ROOT) });
  token = (await login.json()).token;

  dir = await tempDir();
  gw = await startGateway(end, dir);
  for (const id of ids) {
    const b = board(gw, id, { fw: "1.0.0" });
    const entry = { b, offered: null, downloads: 0 };
    b.on("message", (name, payload) => {
      if (name !== "fw/offer") return;
      entry.offered = payload?.version ?? null;
      if (!payload || payload.version === b.fw) return;
      entry.downloads++;
      b.download({ offer: payload, corruptBlock: failing.has(id) ? 0 : -1 }).catch(() => {});
    });
    boards.set(id, entry);
  }
  await Promise.all([...boards.values()].map((x) => x.b.connect()));
});

// Bounded: a teardown that hangs fails here in a minute rather than at the suite's ten-minute limit.
after(
  async () => {
    await Promise.all([...boards.values()].map((x) => x.b.close()));
    await gw?.close();
    await end?.dispose();
    await removeDir(dir);
  },
  { timeout: 60_000 },
);

test("a wave with failures pauses the rollout, nothing reaches the next wave, a resume continues and an abort offers the previous release", async () => {
  const v1 = await upload("1.0.0");
  await call("/ota/activeota", { id: v1 });
  const v2 = await upload("2.0.0");
  const { payload } = await call("/ota/startRollout", { release_id: v2, waves: WAVES, soak_minutes: 0, online_minutes: 60, fail_count: FAILING });

  const waveOfBoard = (id) => waveOf({ id: payload.id, waves: WAVES, canary: [] }, id);
  const first = [...boards.keys()].filter((id) => waveOfBoard(id) === 0);
  const second = [...boards.keys()].filter((id) => waveOfBoard(id) === 1);
  assert.ok(first.length > FAILING, `the canary wave has ${first.length} boards`);
  for (const id of first.slice(0, FAILING)) failing.add(id);

  // The first wave downloads; ten fail, and the console pauses the rollout by itself.
  await gw.syncNow();
  const paused = await until(async () => ((await rollout(payload.id)).state === "paused" ? rollout(payload.id) : null), {
    timeoutMs: 120_000,
    stepMs: CONSOLE_POLL_MS,
    what: "the rollout to pause",
  });
  assert.equal(paused.paused_reason, `${FAILING} of ${first.length} boards failed in wave 1`);
  assert.equal(paused.waves[0].failed, FAILING);

  // The cron opens no wave of a paused rollout; no board outside the first wave was ever offered 2.0.0.
  await cron();
  await gw.syncNow();
  assert.equal((await rollout(payload.id)).wave, 1);
  for (const [id, x] of boards) if (waveOfBoard(id) > 0) assert.equal(x.downloads, 0, `board ${id} of wave ${waveOfBoard(id) + 1} was offered the release`);
  const stillOffered = () => first.filter((id) => boards.get(id).b.fw !== "2.0.0" && boards.get(id).offered !== null);
  await until(() => stillOffered().length === 0, { timeoutMs: 120_000, what: "paused offers withdrawn" }).catch((e) => {
    const which = stillOffered().map((id) => `${id} (offered ${boards.get(id).offered}, ${boards.get(id).downloads} downloads${failing.has(id) ? ", failing" : ""})`);
    throw new Error(`${e.message}: ${which.join("; ")}`);
  });

  // Fixed: a resume offers the failed boards the release again, they install, and the cron opens wave 2.
  failing.clear();
  await call("/ota/resumeRollout", { id: payload.id });
  await gw.syncNow();
  await until(() => first.every((id) => boards.get(id).b.fw === "2.0.0"), { timeoutMs: 120_000, what: "the first wave installed" });
  await until(async () => (await rollout(payload.id)).waves[0].installed === first.length, {
    timeoutMs: 120_000,
    stepMs: CONSOLE_POLL_MS,
    what: "the console to count the installs",
  });
  await cron();
  assert.equal((await rollout(payload.id)).wave, 2);
  await gw.syncNow();
  await until(() => second.every((id) => boards.get(id).b.fw === "2.0.0"), { timeoutMs: 120_000, what: "the second wave installed" });
  for (const [id, x] of boards) if (waveOfBoard(id) > 1) assert.equal(x.b.fw, "1.0.0", `board ${id} of the last wave`);

  // Aborted: every board that installed 2.0.0 is offered 1.0.0 again; the others are offered nothing.
  await call("/ota/abortRollout", { id: payload.id });
  await gw.syncNow();
  const upgraded = [...first, ...second];
  await until(() => upgraded.every((id) => boards.get(id).b.fw === "1.0.0"), { timeoutMs: 120_000, what: "the rollback to 1.0.0" });
  assert.equal((await rollout(payload.id)).state, "aborted");
  for (const [id, x] of boards) if (!upgraded.includes(id)) assert.equal(x.downloads, 0, `board ${id} never downloaded`);
});
