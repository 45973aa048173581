/**
 * A lockdown reaches a board cut off from its gateway through a phone (decisions 0083 and 0117): the built
 * console under Miniflare with its own D1 (./real-worker-end.mjs), the real gateway, and a simulated board
 * over MQTT that takes its configuration (the credential keys, its company) and is then cut off. Phones
 * signed in to the console's mobile API fetch their credentials and the company's signed lockdown state.
 * The board keeps deciding by what it knows until a staff phone presents a newer state: then it refuses a
 * non-exempt person's credential; the end travels the same way, and an older state cannot undo a newer one.
 * A second gateway, which polls the feed only every ten minutes, shows the console's wake-up (decision 0118):
 * its online board gets the start and the end of a lockdown at once.
 *
 *   node --test tests/gateway/lockdown-offline.test.mjs   (after `npm run build`)
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { startWorkerEnd } from "./real-worker-end.mjs";
import { board, startGateway, tempDir, removeDir, until } from "../../gateway/test/support/fixtures.js";

const ACME = 3;
const ADMIN = { userName: "admin@acme.example", password: "Acme#Demo2026" };
const AUDITOR = { userName: "auditor@acme.example", password: "Audit#Demo2026" };

let end, gw, dir, b, adminToken, door, adminId;
/** The gateway that waits to be woken, its data and its board. */
let sleepy, sleepyDir, online, onlineDoor;

async function admin(method, path, body) {
  const res = await fetch(`${end.url}/api/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(json)}`);
  return json;
}

/** A phone of `who`: its credential for the door (if it holds a key there) and the company's signed lockdown state. */
async function phone(who) {
  const login = await fetch(`${end.url}/api/mobile/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ companyId: "ACME", ...who, installationId: `lockdown-phone-${who.userName.split("@")[0]}`, appVersion: "1.0.0", language: "en" }),
  });
  const { token } = await login.json();
  assert.equal(login.status, 200, `phone sign-in of ${who.userName}`);
  const keys = await (await fetch(`${end.url}/api/mobile/keys`, { headers: { authorization: `Bearer ${token}` } })).json();
  const key = keys.payload.keys.find((k) => k.doors.some((d) => String(d.id) === door));
  return { credential: key?.credential?.token, lockdownState: keys.payload.lockdownState };
}

before(async () => {
  end = await startWorkerEnd();
  [door, onlineDoor] = await end.boardIds(2);
  const [{ id: auditorId }] = await end.sql(`select id from users where email = '${AUDITOR.userName}'`);
  [{ id: adminId }] = await end.sql(`select id from users where email = '${ADMIN.userName}'`);
  // Both hold a key for the door: the auditor is not exempt from the lockdown below, the admin is.
  await end.sql(
    `insert into ekey_assignments (company_id, user_id, device_id, access_type) values (${ACME}, ${auditorId}, ${door}, 'full_access'), (${ACME}, ${adminId}, ${door}, 'full_access')`,
  );
  const login = await fetch(`${end.url}/api/admin/user/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ companyId: "ACME", ...ADMIN }),
  });
  adminToken = (await login.json()).token;

  dir = await tempDir();
  gw = await startGateway(end, dir);
  b = board(gw, door);
  await b.connect();
  await until(() => b.last.get("config")?.credentialKeys?.keys?.length > 0, { what: "the board's configuration with the credential keys" });
  await b.close(); // cut off from its gateway from here on

  sleepyDir = await tempDir();
  sleepy = await startGateway(end, sleepyDir, { syncIntervalMs: 600_000, gatewayId: "gw-sleepy" });
  online = board(sleepy, onlineDoor);
  await online.connect();
  await until(() => online.last.get("config") && sleepy.wakeups?.connected, { what: "the online board's configuration and the gateway's wake-up channel" });
});

after(async () => {
  await online?.close();
  await sleepy?.close();
  if (sleepyDir) await removeDir(sleepyDir);
  await gw?.close();
  await end?.dispose();
  if (dir) await removeDir(dir);
});

test("a board cut off from its gateway refuses a non-exempt credential once a staff phone presented the newer lockdown state", async () => {
  const auditor = await phone(AUDITOR);
  assert.ok(auditor.credential, "the auditor's phone holds a credential for the door");
  assert.equal(auditor.lockdownState, null, "no lockdown yet: no state to carry");
  assert.equal((await b.decideOffline(auditor.credential)).allowed, true);

  const plan = await admin("POST", "/lockdown/plans", { name: "Offline drill", mode: "lockdown", scope: "company", exempt_user_ids: [adminId] });
  await admin("POST", `/lockdown/plans/${plan.payload.id}/start`);

  // No news at all: the board decides as usual (decision 0117).
  assert.equal((await b.decideOffline(auditor.credential)).allowed, true);

  const staff = await phone(ADMIN);
  assert.ok(staff.lockdownState, "the staff phone carries the signed state");
  // A forged state (its signature broken) and one of another company are not taken.
  const [h, p, sig] = staff.lockdownState.split(".");
  assert.equal(await b.presentLockdownState(`${h}.${p}.${sig.startsWith("A") ? "B" : "A"}${sig.slice(1)}`), "bad_signature");
  assert.equal(await b.presentLockdownState(staff.lockdownState), "taken");
  assert.equal(await b.presentLockdownState(staff.lockdownState), "not_newer");

  assert.deepEqual(await b.decideOffline(auditor.credential).then((d) => [d.allowed, d.reason]), [false, "lockdown"]);
  assert.equal((await b.decideOffline(staff.credential)).allowed, true, "the exempt staff member still opens");

  // The same with the board simulator's verify mode, from the configuration the board kept.
  const config = join(dir, "board-config.json");
  await writeFile(config, JSON.stringify(b.last.get("config")));
  const verify = async (credential, state) => {
    const args = [
      "gateway/sim/board.js",
      "verify",
      "--jwks",
      config,
      "--door",
      door,
      "--at",
      new Date().toISOString(),
      "--credential",
      credential,
      "--lockdown",
      join(dir, "kept-lockdown.json"),
    ];
    const { stdout } = await promisify(execFile)(process.execPath, [...args, ...(state ? ["--lockdown-state", state] : [])]);
    return JSON.parse(stdout);
  };
  assert.deepEqual(await verify(auditor.credential), { allowed: true, reason: "ok" });
  assert.deepEqual(await verify(auditor.credential, staff.lockdownState), { allowed: false, reason: "lockdown", lockdownState: "taken" });
  assert.deepEqual(await verify(auditor.credential), { allowed: false, reason: "lockdown" }, "the board keeps the state it took");

  // The end travels signed too; the old start presented afterwards does not undo it.
  await admin("POST", "/lockdown/end");
  const ended = await phone(AUDITOR);
  assert.equal(await b.presentLockdownState(ended.lockdownState), "taken");
  assert.equal((await b.decideOffline(auditor.credential)).allowed, true);
  assert.equal(await b.presentLockdownState(staff.lockdownState), "not_newer");
  assert.equal((await b.decideOffline(auditor.credential)).allowed, true);
});

test("a gateway that polls the feed every ten minutes is woken: its board gets a lockdown's start and end at once", async () => {
  const plan = await admin("POST", "/lockdown/plans", { name: "Wake drill", mode: "lockdown", scope: "company" });
  await admin("POST", `/lockdown/plans/${plan.payload.id}/start`);
  // The board's scheduled-open state (PROTOCOL.md, "schedule") carries the lockdown; no poll is due for minutes.
  await until(() => online.last.get("schedule")?.lockdown?.mode === "lockdown", { what: "the lockdown on the online board", timeoutMs: 20_000 });
  await admin("POST", "/lockdown/end");
  await until(() => !online.last.get("schedule")?.lockdown, { what: "the end on the online board", timeoutMs: 20_000 });
});
