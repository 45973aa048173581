import { env } from "cloudflare:test";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_IDS } from "../../db/seed/demo";
import { seedGateway } from "../../db/seed/gateway";
import { settleExpired } from "../../app/services/device-commands.server";
import { api, auditRows, consoleWorker, db, login, ORIGIN, schema, workerNow } from "./helpers";

/** Remote unlock (decision 0034): permission, tenant boundary, claim once, expiry, results from the board. */
const SECRET = String(env.GATEWAY_SECRET);
const SECOND_SECRET = "second-gateway-secret";
const c = schema.deviceCommands;

async function claim(boards: string[], secret = SECRET, gatewayName = "gw-a") {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/commands/claim`, {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "X-Gateway-Id": gatewayName, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, boards }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function postEvents(events: unknown[]) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, events }),
  });
  return (await res.json()) as any;
}

const sha256Hex = async (s: string) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Configured devices of a company, by id; each test takes its own so they never share an open command. */
async function configuredDevices(companyId: number) {
  const d = schema.devices;
  const rows = await db()
    .select({ id: d.id, fullName: d.fullName })
    .from(d)
    .where(and(eq(d.companyId, companyId), eq(d.status, "configured")))
    .orderBy(d.id);
  return rows;
}

const activityOf = (deviceId: number) =>
  auditRows(and(eq(schema.activityLogs.targetDeviceId, deviceId), inArray(schema.activityTypes.name, ["Remote Unlock Requested", "Command Succeeded", "Command Failed"])));

let acme: string;
let acmeDevices: { id: number; fullName: string }[];
let betaDevice: { id: number; fullName: string };

beforeAll(async () => {
  await seedGateway(db(), { GATEWAY_SECRET: SECRET });
  await db()
    .insert(schema.gateways)
    .values({ name: "second", secretHash: await sha256Hex(SECOND_SECRET) })
    .onConflictDoNothing();
  acme = await login("acme");
  acmeDevices = await configuredDevices(DEMO_IDS.companies.ACME);
  [betaDevice] = await configuredDevices(DEMO_IDS.companies.BETA);
  expect(acmeDevices.length).toBeGreaterThanOrEqual(7);
});

describe("requesting an unlock", () => {
  it("records a pending command with its audit entry, expiring 60 s later, and refuses a second while it is open", async () => {
    const device = acmeDevices[0];
    const before = workerNow();
    const r = await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Unlock sent");
    expect(r.body.payload).toMatchObject({ device_id: device.id, command: "unlock", status: "pending", error: null, finished_at: null });
    expect(r.body.payload.command_id).toBe(`console.${r.body.payload.id}`);
    expect(r.body.payload.expires_at - r.body.payload.created_at).toBe(60_000);
    expect(r.body.payload.created_at).toBeGreaterThanOrEqual(before);
    const audit = await activityOf(device.id);
    expect(audit).toContainEqual(expect.objectContaining({ name: "Remote Unlock Requested", summary: `Remote unlock requested for ${device.fullName}` }));

    const again = await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("An unlock is already in progress for this device");
    expect(await db().select().from(c).where(eq(c.deviceId, device.id))).toHaveLength(1);
  });

  it("needs the devices module with the modify right: the read-only auditor is refused and nothing is written", async () => {
    const device = acmeDevices[1];
    const auditor = await login("auditor");
    const r = await api(auditor, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id });
    expect(r.status).toBe(403);
    expect(await db().select().from(c).where(eq(c.deviceId, device.id))).toHaveLength(0);
    expect(await activityOf(device.id)).toHaveLength(0);
  });

  it("treats another company's device and command as not found, and leaves them unchanged", async () => {
    const r = await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: betaDevice.id });
    expect(r.status).toBe(404);
    expect(await db().select().from(c).where(eq(c.deviceId, betaDevice.id))).toHaveLength(0);

    const beta = await login("beta");
    const own = await api(beta, "POST", "/api/admin/device/remoteUnlock", { deviceId: betaDevice.id });
    expect(own.status).toBe(200);
    const foreign = await api(acme, "GET", `/api/admin/device/getCommandStatus?commandId=${own.body.payload.id}`);
    expect(foreign.status).toBe(404);
    const [row] = await db().select().from(c).where(eq(c.id, own.body.payload.id));
    expect(row.status).toBe("pending");
  });

  it("answers bad input with a message, never a 500", async () => {
    for (const deviceId of ["abc", -1, 0, 1.5]) {
      const r = await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId });
      expect(r.status).toBe(400);
    }
    expect((await api(acme, "GET", "/api/admin/device/getCommandStatus?commandId=x")).status).toBe(400);
    expect((await api(acme, "GET", "/api/admin/device/getCommandStatus?commandId=999999")).status).toBe(404);
    expect((await claim("nope" as never)).status).toBe(400);
  });

  it("refuses a device that is not configured", async () => {
    const d = schema.devices;
    const device = acmeDevices[acmeDevices.length - 1];
    await db().update(d).set({ status: "unconfigured" }).where(eq(d.id, device.id));
    const r = await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("Only a configured device can be unlocked remotely");
    expect(await db().select().from(c).where(eq(c.deviceId, device.id))).toHaveLength(0);
  });
});

describe("admin API document", () => {
  it("lists the unlock and status calls in the OpenAPI document", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    expect(r.body.paths["/api/admin/device/remoteUnlock"].post).toBeTruthy();
    expect(r.body.paths["/api/admin/device/getCommandStatus"].get).toBeTruthy();
  });
});

describe("delivery through the gateways", () => {
  it("hands a command to one gateway only, even when two ask for the board at once, and only to one that holds it", async () => {
    const device = acmeDevices[2];
    const sent = await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id });
    const board = String(device.id);
    expect((await claim([String(acmeDevices[3].id)])).body).toEqual({ v: 1, commands: [] });

    const [a, b] = await Promise.all([claim([board], SECRET, "gw-a"), claim([board, "not-a-console-board"], SECOND_SECRET, "gw-b")]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const handed = [...a.body.commands, ...b.body.commands];
    expect(handed).toEqual([
      { id: sent.body.payload.command_id, boardId: board, cmd: "unlock", args: {}, expiresAt: sent.body.payload.expires_at, expiresInMs: expect.any(Number) },
    ]);
    expect(handed[0].expiresInMs).toBeGreaterThan(0);
    expect(handed[0].expiresInMs).toBeLessThanOrEqual(60_000);
    expect((await claim([board])).body.commands).toEqual([]);

    const [row] = await db().select().from(c).where(eq(c.id, sent.body.payload.id));
    expect(row.status).toBe("sent");
    expect(row.claimedBy).not.toBeNull();
    const status = await api(acme, "GET", `/api/admin/device/getCommandStatus?commandId=${row.id}`);
    expect(status.body.payload.status).toBe("sent");
  });

  it("finishes a command from its own board's command.result: succeeded once, a forged answer from another board changes nothing", async () => {
    const device = acmeDevices[3];
    const other = acmeDevices[4];
    const sent = (await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id })).body.payload;
    await claim([String(device.id)]);
    const at = workerNow();

    const forged = await postEvents([{ id: `${other.id}/forged.1`, deviceId: String(other.id), type: "command.result", at, data: { cmd: sent.command_id, ok: false } }]);
    expect(forged.accepted).toBe(1);
    expect((await api(acme, "GET", `/api/admin/device/getCommandStatus?commandId=${sent.id}`)).body.payload.status).toBe("sent");

    const answer = { id: `${device.id}/res.1`, deviceId: String(device.id), type: "command.result", at, data: { cmd: sent.command_id, ok: true } };
    expect((await postEvents([answer])).accepted).toBe(1);
    const done = (await api(acme, "GET", `/api/admin/device/getCommandStatus?commandId=${sent.id}`)).body.payload;
    expect(done).toMatchObject({ status: "succeeded", error: null });
    expect(done.finished_at).toEqual(expect.any(Number));
    // a later failure report of the same command does not overturn it
    await postEvents([{ ...answer, id: `${device.id}/res.2`, data: { cmd: sent.command_id, ok: false, error: "late" } }]);
    expect((await api(acme, "GET", `/api/admin/device/getCommandStatus?commandId=${sent.id}`)).body.payload.status).toBe("succeeded");
    const names = (await activityOf(device.id)).map((a) => a.name);
    expect(names).toContain("Command Succeeded");
  });

  it("records a board's refusal with its reason", async () => {
    const device = acmeDevices[4];
    const sent = (await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id })).body.payload;
    await claim([String(device.id)]);
    await postEvents([
      { id: `${device.id}/res.9`, deviceId: String(device.id), type: "command.result", at: workerNow(), data: { cmd: sent.command_id, ok: false, error: "motor jammed" } },
    ]);
    expect((await api(acme, "GET", `/api/admin/device/getCommandStatus?commandId=${sent.id}`)).body.payload).toMatchObject({ status: "failed", error: "motor jammed" });
    expect(await activityOf(device.id)).toContainEqual(expect.objectContaining({ name: "Command Failed", summary: `Remote command failed on ${device.fullName}: motor jammed` }));
  });
});

describe("expiry", () => {
  it("fails a command no board answered by its deadline, once, with a Command Failed activity, and never hands it out after", async () => {
    const device = acmeDevices[5];
    const sent = (await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id })).body.payload;
    // one millisecond early: still open
    await settleExpired(db(), sent.expires_at - 1);
    expect((await db().select().from(c).where(eq(c.id, sent.id)))[0].status).toBe("pending");

    await settleExpired(db(), sent.expires_at);
    await settleExpired(db(), sent.expires_at + 5_000);
    const [row] = await db().select().from(c).where(eq(c.id, sent.id));
    expect(row).toMatchObject({ status: "failed", error: "expired", finishedAt: sent.expires_at });
    const failed = (await activityOf(device.id)).filter((a) => a.name === "Command Failed");
    expect(failed).toEqual([
      expect.objectContaining({
        summary: `Remote unlock failed on ${device.fullName}: the board did not answer within 60 s`,
        eventId: `${device.id}/console/cmd.${sent.id}.expired`,
      }),
    ]);
    expect((await claim([String(device.id)])).body.commands).toEqual([]);
    expect((await api(acme, "GET", `/api/admin/device/getCommandStatus?commandId=${sent.id}`)).body.payload).toMatchObject({ status: "failed", error: "expired" });
    // a late answer from the board leaves the outcome alone
    await postEvents([{ id: `${device.id}/late.1`, deviceId: String(device.id), type: "command.result", at: workerNow(), data: { cmd: sent.command_id, ok: true } }]);
    expect((await db().select().from(c).where(eq(c.id, sent.id)))[0].status).toBe("failed");
    // and the device takes a new unlock
    expect((await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id })).status).toBe(200);
  });

  it("does not hand out a command the gateway asks for after its deadline", async () => {
    const device = acmeDevices[1];
    const sent = (await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id })).body.payload;
    await db()
      .update(c)
      .set({ expiresAt: workerNow() - 1 })
      .where(eq(c.id, sent.id));
    expect((await claim([String(device.id)])).body.commands).toEqual([]);
    expect((await api(acme, "GET", `/api/admin/device/getCommandStatus?commandId=${sent.id}`)).body.payload).toMatchObject({ status: "failed", error: "expired" });
  });
});

describe("a lockdown withdraws unlocks", () => {
  const startLockdown = async (deviceId: number) => {
    const plan = await api(acme, "POST", "/api/admin/lockdown/plans", { name: `Unlock race ${deviceId}.${workerNow()}`, mode: "lockdown", scope: "doors", scope_ids: [deviceId] });
    expect(plan.status).toBe(200);
    expect((await api(acme, "POST", `/api/admin/lockdown/plans/${plan.body.payload.id}/start`)).status).toBe(200);
  };
  const endLockdown = async () => expect((await api(acme, "POST", "/api/admin/lockdown/end")).status).toBe(200);
  const rowOf = async (id: number) => (await db().select().from(c).where(eq(c.id, id)))[0];

  it("fails an unlock asked before the start, pending or already with a gateway, and never hands one out while the door is locked down", async () => {
    const device = acmeDevices[6];
    const board = String(device.id);
    // Asked, not yet claimed: the start withdraws it, with its entry.
    const pending = (await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id })).body.payload;
    await startLockdown(device.id);
    expect(await rowOf(pending.id)).toMatchObject({ status: "failed", error: "lockdown" });
    expect((await claim([board])).body.commands).toEqual([]);
    expect(await activityOf(device.id)).toContainEqual(
      expect.objectContaining({
        name: "Command Failed",
        summary: `Remote unlock failed on ${device.fullName}: withdrawn by a lockdown`,
        eventId: `${device.id}/console/cmd.${pending.id}.lockdown`,
      }),
    );
    await endLockdown();

    // Claimed by a gateway, not yet answered: failed too (the gateway drops it on its own, decision 0117).
    const sent = (await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id })).body.payload;
    expect((await claim([board])).body.commands).toHaveLength(1);
    await startLockdown(device.id);
    expect(await rowOf(sent.id)).toMatchObject({ status: "failed", error: "lockdown" });

    // An unlock that passed its check while the lockdown was starting (written after the start): the claim fails it.
    const [raced] = await db()
      .insert(c)
      .values({ companyId: DEMO_IDS.companies.ACME, deviceId: device.id, command: "unlock", expiresAt: workerNow() + 60_000, createdAt: workerNow() })
      .returning({ id: c.id });
    expect((await claim([board])).body.commands).toEqual([]);
    expect(await rowOf(raced.id)).toMatchObject({ status: "failed", error: "lockdown" });
    await endLockdown();

    // After the end the door takes an unlock again, and a gateway gets it.
    const after = (await api(acme, "POST", "/api/admin/device/remoteUnlock", { deviceId: device.id })).body.payload;
    expect((await claim([board])).body.commands).toEqual([expect.objectContaining({ id: after.command_id })]);
  });
});
