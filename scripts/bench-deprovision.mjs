#!/usr/bin/env node
/**
 * `npm run bench:deprovision`: how fast a person de-provisioned by their directory is refused at the door.
 * The built console under Miniflare with its own D1 (tests/gateway/real-worker-end.mjs), the real gateway
 * (gateway/src/main.js, its default 5 s feed sync unless SYNC_INTERVAL_MS says otherwise) and a simulated
 * board of one ACME door over MQTT (gateway/sim/sim-board.js). For each try, a person is created through
 * SCIM, given a key to the door, signs in on a phone and gets its signed credential; once the board opens
 * for it, SCIM sends Okta's `active: false`, and the clock runs until
 *   - online: the board's request to the gateway is refused (the gateway's copy has the person inactive);
 *   - offline: the board, deciding alone with the configuration it last received, refuses the phone's
 *     credential as `revoked` (the revocation list, PROTOCOL.md "Revocation list").
 * The same is measured for a person deactivated by an admin in the console (user/bulkSetInactive), the
 * baseline: the same feed, gateway and board, without SCIM. Each person is de-provisioned at a random moment
 * of the gateway's sync cycle, ten at a time. Prints p50, p99 and max of each, and the ratios.
 *
 *   DEPROVISION_TRIES=100 npm run bench:deprovision
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkerEnd } from "../tests/gateway/real-worker-end.mjs";
import { SimBoard } from "../gateway/sim/sim-board.js";
import { ensureBuilt, freePort, load, sleep } from "./bench-server.mjs";

const TRIES = Number(process.env.DEPROVISION_TRIES ?? 100);
const SYNC_INTERVAL_MS = process.env.SYNC_INTERVAL_MS ?? "5000";
const ADMIN = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" };
const DOOR = 1; // an ACME door of the demo data, configured
const POLL_MS = 20;
/** People de-provisioned at once, each at its own moment (a directory's changes come in bursts). */
const AT_ONCE = 10;
const GIVE_UP_MS = 60_000;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const figures = (xs) => `p50 ${pct(xs, 50)} ms  p99 ${pct(xs, 99)} ms  max ${Math.max(...xs)} ms  (${xs.length} tries)`;

ensureBuilt();
const end = await startWorkerEnd();
const dataDir = await mkdtemp(join(tmpdir(), "bench-deprovision-"));
const mqttPort = await freePort();
let gateway;
let board;
try {
  // The door gets the board secret of a provisioned board (board-secret), and the feed says so.
  const [provisioned] = await end.boardIds(1);
  await end.sql(`update devices set board_secret_hash = (select board_secret_hash from devices where id = ${provisioned}) where id = ${DOOR}`);
  await end.sql(`insert into gateway_changes (company_id, entity, entity_id, op) values (3, 'device', ${DOOR}, 'upsert')`);
  // People made here have no password (they would set one from an invitation): a trigger of this run's own
  // database gives each the demo admin's, so their phones can sign in.
  await end.sql(
    `create trigger bench_phone_password after insert on users when new.password_hash is null begin ` +
      `update users set password_hash = (select password_hash from users where email = '${ADMIN.userName}') where id = new.id; end`,
  );

  gateway = spawn(process.execPath, ["gateway/src/main.js"], {
    env: {
      ...process.env,
      WORKER_URL: end.url,
      GATEWAY_SECRET: "test-gateway-secret",
      GATEWAY_ID: "bench-deprovision",
      MQTT_PORT: String(mqttPort),
      WS_PORT: "off",
      DATA_DIR: dataDir,
      SYNC_INTERVAL_MS,
      LOG_LEVEL: process.env.GATEWAY_LOG_LEVEL ?? "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  board = new SimBoard({ url: `mqtt://127.0.0.1:${mqttPort}`, id: String(DOOR), password: "board-secret" });
  for (let i = 0; ; i++) {
    try {
      await board.connect();
      break;
    } catch (err) {
      if (i > 100) throw err;
      await sleep(200);
    }
  }

  const json = async (res, what) => {
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const admin = `Bearer ${(await json(await fetch(`${end.url}/api/admin/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) }), "sign-in")).token}`;
  const adminCall = async (method, path, body) =>
    json(await fetch(`${end.url}/api/admin${path}`, { method, headers: { authorization: admin, "content-type": "application/json" }, body: body && JSON.stringify(body) }), path);
  const directory = `Bearer ${(await adminCall("POST", "/user/createDirectoryToken", { name: "Bench directory" })).payload.token}`;
  const scim = async (method, path, body) =>
    json(
      await fetch(`${end.url}/scim/v2${path}`, { method, headers: { authorization: directory, "content-type": "application/scim+json" }, body: body && JSON.stringify(body) }),
      `SCIM ${method} ${path}`,
    );

  /** A person with a key to the door and their phone's credential for it, once the board opens for both. */
  const personAtTheDoor = async (n, viaScim) => {
    const email = `deprovision-${viaScim ? "scim" : "admin"}-${n}-${Date.now()}@acme.example`;
    let userId;
    if (viaScim) {
      const made = await scim("POST", "/Users", {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        userName: email,
        name: { givenName: "Bench", familyName: `Person ${n}` },
        emails: [{ primary: true, value: email, type: "work" }],
        active: true,
      });
      userId = Number(made.id);
    } else {
      const made = await adminCall("POST", "/user/addUser", {
        firstName: "Bench",
        lastName: `Admin ${n}`,
        displayName: `Bench Admin ${n}`,
        emailId: email,
        countryCode: "1",
        phoneNumer: `55591${String(n).padStart(5, "0")}`,
        sendInvite: "0",
      });
      userId = made.payload.id;
    }
    await adminCall("POST", "/user/assignKeyToUser", { userId, eKey: DOOR, type: "device", accessType: "full_access", FOBDeviceId: null });
    const phone = await json(
      await fetch(`${end.url}/api/mobile/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ companyId: "ACME", userName: email, password: ADMIN.password, installationId: `bench-phone-${userId}`, appVersion: "1.0.0", language: "en" }),
      }),
      "phone sign-in",
    );
    const keys = await json(await fetch(`${end.url}/api/mobile/keys`, { headers: { authorization: `Bearer ${phone.token}` } }), "phone keys");
    const token = keys.payload.keys.find((k) => k.credential && k.doors.some((d) => d.id === DOOR))?.credential.token;
    if (!token) throw new Error(`no credential for door ${DOOR}: ${JSON.stringify(keys.payload.keys)}`);
    // Both ways open before the clock starts: the gateway's copy has the key, the board the credential's signer.
    for (const started = Date.now(); ; await sleep(POLL_MS)) {
      const [online, offline] = await Promise.all([board.requestAccess({ type: "user", id: String(userId) }), board.decideOffline(token)]);
      if (online.allowed && offline.allowed) break;
      if (Date.now() - started > GIVE_UP_MS) throw new Error(`the door never opened for user ${userId}: ${JSON.stringify({ online, offline })}`);
    }
    return { userId, token };
  };

  /** Milliseconds from the de-provisioning call until the board refuses online and offline. */
  const refusedAfter = async ({ userId, token }, deprovision) => {
    const t0 = Date.now();
    await deprovision(userId);
    let online = null;
    let offline = null;
    while (online === null || offline === null) {
      if (Date.now() - t0 > GIVE_UP_MS) throw new Error(`user ${userId} still opens after ${GIVE_UP_MS} ms: online ${online}, offline ${offline}`);
      const [on, off] = await Promise.all([
        online === null ? board.requestAccess({ type: "user", id: String(userId) }) : null,
        offline === null ? board.decideOffline(token) : null,
      ]);
      const at = Date.now() - t0;
      if (on && !on.allowed) online = at;
      if (off && !off.allowed) {
        if (off.reason !== "revoked") throw new Error(`the credential was refused as ${off.reason}, not revoked`);
        offline = at;
      }
      await sleep(POLL_MS);
    }
    return { online, offline };
  };

  const runs = { scim: { online: [], offline: [] }, admin: { online: [], offline: [] } };
  const interval = Number(SYNC_INTERVAL_MS);
  console.log(`${TRIES} tries each, ${AT_ONCE} people at a time; gateway feed sync every ${interval} ms; load ${load()}`);
  for (let done = 0, round = 0; done < TRIES; done += AT_ONCE, round++) {
    // Alternated, so both paths meet the same machine on average.
    for (const viaScim of round % 2 ? [false, true] : [true, false]) {
      const people = [];
      for (let i = 0; i < Math.min(AT_ONCE, TRIES - done); i++) people.push(await personAtTheDoor(done + i, viaScim));
      // Each de-provisioned at a random moment of the gateway's sync cycle: the people were all seen open
      // just after one sync, and a de-provisioning at a fixed distance from it would measure one phase only.
      const times = await Promise.all(
        people.map(async (person) => {
          await sleep(Math.random() * interval);
          return refusedAfter(
            person,
            viaScim
              ? (id) => scim("PATCH", `/Users/${id}`, { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: [{ op: "replace", value: { active: false } }] })
              : (id) => adminCall("POST", "/user/bulkSetInactive", { userIds: [id], isInactive: "1" }),
          );
        }),
      );
      const run = runs[viaScim ? "scim" : "admin"];
      for (const t of times) {
        run.online.push(t.online);
        run.offline.push(t.offline);
      }
    }
    console.log(`  ${Math.min(done + AT_ONCE, TRIES)} tries; load ${load()}`);
  }
  console.log(`SCIM active:false -> refused by the gateway (online)        ${figures(runs.scim.online)}`);
  console.log(`SCIM active:false -> credential revoked at the board alone  ${figures(runs.scim.offline)}`);
  console.log(`baseline, admin deactivation -> refused online               ${figures(runs.admin.online)}`);
  console.log(`baseline, admin deactivation -> revoked at the board alone   ${figures(runs.admin.offline)}`);
  const ratio = (a, b) => (pct(a, 99) / pct(b, 99)).toFixed(2);
  console.log(`p99 ratio SCIM / admin: online ${ratio(runs.scim.online, runs.admin.online)}x, offline ${ratio(runs.scim.offline, runs.admin.offline)}x`);
  const worst = pct(runs.scim.offline, 99);
  console.log(`target: p99 <= 10,000 ms for SCIM to the board: ${worst <= 10_000 ? "met" : "NOT met"} (${worst} ms); load ${load()}`);
} finally {
  await board?.close();
  gateway?.kill("SIGTERM");
  await end.dispose();
  await rm(dataDir, { recursive: true, force: true });
}
