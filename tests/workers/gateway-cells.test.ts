/**
 * Cells (docs/decisions/0050-cells.md): a gateway writes into the companies of its own cell only. With BETA
 * moved to cell "b", the main cell's gateway has its events and board presence for BETA's doors refused as
 * not served: nothing reaches BETA's log or BETA's devices. Cell b's gateway is the mirror image. A company
 * moved by the platform administrator is still served by the cell it left for 24 hours, so events its old
 * gateway buffered drain; one sent through both cells is stored once. A device transferred to a company of
 * another cell gets the same day in the cell it left, and within it its events are filed by board time:
 * from before the transfer into the log of the company it left, the others into the one it joined
 * (decision 0074).
 */
import { env } from "cloudflare:test";
import { desc, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedGateway } from "../../db/seed/gateway";
import { api, companyLog, consoleWorker, db, login, ORIGIN, schema, workerNow } from "./helpers";

const ACME = 3;
const BETA = 4;
const MAIN_SECRET = String(env.GATEWAY_SECRET);
const CELL_B_SECRET = "cell-b-gateway-secret";
/** A recent instant: inside the hot window whenever the suite runs (decision 0049). */
const AT = workerNow() - 3_600_000;

async function post(secret: string, events: unknown[]) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, events }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { accepted: number; duplicates: number; rejected: { id: string; reason: string }[] };
}

let acmeDoor: number;
let betaDoor: number;
let n = 0;
const opened = (deviceId: number) => ({ id: `${deviceId}/cells-${++n}`, deviceId: String(deviceId), type: "door.opened", at: AT + n, data: {} });
const presence = (deviceId: number) => ({
  id: `${deviceId}/cells-prs-${++n}`,
  deviceId: String(deviceId),
  type: "board.presence",
  at: AT + n,
  gatewayId: "cells-1",
  data: { online: true },
});
const logged = async (companyId: number, ids: string[]) =>
  (await companyLog(companyId).select({ id: schema.activityLogs.eventId }).from(schema.activityLogs).where(inArray(schema.activityLogs.eventId, ids))).map((r) => r.id);

/** A device's transfers as recorded, oldest first. */
const transfersOf = (deviceId: number) =>
  db()
    .select({ from: schema.deviceTransfers.companyId, to: schema.deviceTransfers.toCompanyId, at: schema.deviceTransfers.createdAt })
    .from(schema.deviceTransfers)
    .innerJoin(schema.deviceTransferItems, eq(schema.deviceTransferItems.transferId, schema.deviceTransfers.id))
    .where(eq(schema.deviceTransferItems.deviceId, deviceId))
    .orderBy(schema.deviceTransfers.createdAt);

/** Moves a device's latest transfer back in time to `at`, as if it had been made then (the device's record and the transfer's). */
async function movedBack(deviceId: number, at: number) {
  const [latest] = await db()
    .select({ id: schema.deviceTransfers.id })
    .from(schema.deviceTransfers)
    .innerJoin(schema.deviceTransferItems, eq(schema.deviceTransferItems.transferId, schema.deviceTransfers.id))
    .where(eq(schema.deviceTransferItems.deviceId, deviceId))
    .orderBy(desc(schema.deviceTransfers.id))
    .limit(1);
  await db().batch([
    db().update(schema.devices).set({ cellMovedAt: at }).where(eq(schema.devices.id, deviceId)),
    db().update(schema.deviceTransfers).set({ createdAt: at }).where(eq(schema.deviceTransfers.id, latest.id)),
  ]);
}

beforeAll(async () => {
  await seedGateway(db(), { GATEWAY_SECRET: MAIN_SECRET });
  const hash = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(CELL_B_SECRET)))].map((b) => b.toString(16).padStart(2, "0")).join("");
  await db().insert(schema.gateways).values({ name: "cell-b", secretHash: hash, cell: "b" });
  await db().insert(schema.cells).values({ name: "b", mqttUrl: "mqtts://cell-b.example:8884" });
  await db().update(schema.companies).set({ cell: "b" }).where(eq(schema.companies.id, BETA));
  const doors = await db()
    .select({ id: schema.devices.id, companyId: schema.devices.companyId })
    .from(schema.devices)
    .where(inArray(schema.devices.companyId, [ACME, BETA]));
  acmeDoor = doors.find((d) => d.companyId === ACME)!.id;
  betaDoor = doors.find((d) => d.companyId === BETA)!.id;
});

describe("a gateway and the companies of its cell", () => {
  it("the main cell's gateway writes ACME's events and is refused BETA's, which reach no log and no device", async () => {
    const [mine, theirs] = [opened(acmeDoor), opened(betaDoor)];
    const before = await db().select({ at: schema.devices.lastActivityAt }).from(schema.devices).where(eq(schema.devices.id, betaDoor));
    const r = await post(MAIN_SECRET, [mine, theirs, presence(betaDoor)]);
    expect(r.accepted).toBe(1);
    expect(r.rejected.map((x) => x.reason)).toEqual(["device not served by this gateway", "device not served by this gateway"]);
    expect(await logged(ACME, [mine.id])).toEqual([mine.id]);
    expect(await logged(BETA, [theirs.id])).toEqual([]);
    expect(await db().select({ at: schema.devices.lastActivityAt }).from(schema.devices).where(eq(schema.devices.id, betaDoor))).toEqual(before);
    expect(await db().select().from(schema.devicePresence).where(eq(schema.devicePresence.deviceId, betaDoor))).toEqual([]);
  });

  it("cell b's gateway writes BETA's events and is refused ACME's", async () => {
    const [mine, theirs] = [opened(betaDoor), opened(acmeDoor)];
    const r = await post(CELL_B_SECRET, [mine, theirs]);
    expect(r.accepted).toBe(1);
    expect(r.rejected).toEqual([{ id: theirs.id, reason: "device not served by this gateway" }]);
    expect(await logged(BETA, [mine.id])).toEqual([mine.id]);
    expect(await logged(ACME, [theirs.id])).toEqual([]);
  });
});

describe("a company moving between cells", () => {
  const HOUR = 3_600_000;
  const movedAt = (at: number) => db().update(schema.companies).set({ cellMovedAt: at }).where(eq(schema.companies.id, ACME));

  beforeAll(async () => {
    const r = await api(await login("root"), "PUT", "/api/admin/company/setCompanyCell", { id: ACME, cell: "b" });
    expect(r.status).toBe(200);
  });

  it("during the grace, an event sent through the old cell's gateway and the new one's is stored once, whichever comes first", async () => {
    const [viaOldFirst, viaNewFirst] = [opened(acmeDoor), opened(acmeDoor)];
    expect(await post(MAIN_SECRET, [viaOldFirst])).toMatchObject({ accepted: 1, duplicates: 0, rejected: [] });
    expect(await post(CELL_B_SECRET, [viaOldFirst, viaNewFirst])).toMatchObject({ accepted: 1, duplicates: 1, rejected: [] });
    expect(await post(MAIN_SECRET, [viaNewFirst])).toMatchObject({ accepted: 0, duplicates: 1, rejected: [] });
    expect((await logged(ACME, [viaOldFirst.id, viaNewFirst.id])).sort()).toEqual([viaOldFirst.id, viaNewFirst.id].sort());
    const rows = await companyLog(ACME)
      .select({ id: schema.activityLogs.eventId })
      .from(schema.activityLogs)
      .where(inArray(schema.activityLogs.eventId, [viaOldFirst.id, viaNewFirst.id]));
    expect(rows).toHaveLength(2);
  });

  it("the old cell is still served 23 hours after the move, and refused after 24", async () => {
    await movedAt(workerNow() - 23 * HOUR);
    const late = opened(acmeDoor);
    expect(await post(MAIN_SECRET, [late])).toMatchObject({ accepted: 1, rejected: [] });
    expect(await logged(ACME, [late.id])).toEqual([late.id]);

    await movedAt(workerNow() - 24 * HOUR - 60_000);
    const [tooLate, viaNew] = [opened(acmeDoor), opened(acmeDoor)];
    const r = await post(MAIN_SECRET, [tooLate, presence(acmeDoor)]);
    expect(r.accepted).toBe(0);
    expect(r.rejected.map((x) => x.reason)).toEqual(["device not served by this gateway", "device not served by this gateway"]);
    expect(await logged(ACME, [tooLate.id])).toEqual([]);
    expect(await post(CELL_B_SECRET, [viaNew])).toMatchObject({ accepted: 1, rejected: [] });
  });

  it("the grace belongs to the cell the company left: a third cell's gateway is refused", async () => {
    await movedAt(workerNow());
    const hash = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("cell-c-secret")))].map((b) => b.toString(16).padStart(2, "0")).join("");
    await db().insert(schema.gateways).values({ name: "cell-c", secretHash: hash, cell: "c" });
    const r = await post("cell-c-secret", [opened(acmeDoor)]);
    expect(r.rejected.map((x) => x.reason)).toEqual(["device not served by this gateway"]);
  });
});

describe("a device transferred to a company of another cell", () => {
  const HOUR = 3_600_000;
  const RSL1 = 2;
  const STOCK_BOARD = 17; // RSL1's stock, in the main cell
  const transferredAgo = (ms: number) => movedBack(STOCK_BOARD, workerNow() - ms);
  /** The transfer's instant as the Worker recorded it. */
  const transferAt = async () => (await db().select({ at: schema.devices.cellMovedAt }).from(schema.devices).where(eq(schema.devices.id, STOCK_BOARD)))[0].at!;
  const openedAt = (at: number) => ({ ...opened(STOCK_BOARD), at });
  /** An event the main cell delivered while the board was still RSL1's. */
  let deliveredBefore: ReturnType<typeof opened>;

  beforeAll(async () => {
    deliveredBefore = openedAt(workerNow() - 60_000);
    expect(await post(MAIN_SECRET, [deliveredBefore])).toMatchObject({ accepted: 1, rejected: [] });
    // ACME (now in cell b) left the main cell long ago: only the device's own transfer can serve it there.
    await db()
      .update(schema.companies)
      .set({ cellMovedAt: workerNow() - 48 * HOUR })
      .where(eq(schema.companies.id, ACME));
    const shippingDate = new Date(workerNow() + 3 * 86_400_000).toISOString().slice(0, 10);
    const r = await api(await login("var"), "POST", "/api/admin/company/transferDevices", {
      toCompany: "ACME",
      transferDevices: [STOCK_BOARD],
      status: "unconfigured",
      shippingDate,
      subscriptionTerm: 1,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it("records the company and the cell it left, and when", async () => {
    const [row] = await db().select().from(schema.devices).where(eq(schema.devices.id, STOCK_BOARD));
    expect(row).toMatchObject({ companyId: ACME, previousCell: "main" });
    expect(Math.abs(row.cellMovedAt! - workerNow())).toBeLessThan(60_000);
    expect(await transfersOf(STOCK_BOARD)).toEqual([{ from: RSL1, to: ACME, at: row.cellMovedAt }]);
  });

  it("an event from before the transfer that arrives after it goes to the company it left; a later one to the company it joined", async () => {
    const at = await transferAt();
    const [before, after] = [openedAt(at - 1_000), openedAt(at + 1_000)];
    expect(await post(MAIN_SECRET, [before, after])).toMatchObject({ accepted: 2, duplicates: 0, rejected: [] });
    expect(await logged(RSL1, [before.id, after.id])).toEqual([before.id]);
    expect(await logged(ACME, [before.id, after.id])).toEqual([after.id]);
    // the new cell sends them again (a PUBACK the board missed): each is stored once, where it already is
    expect(await post(CELL_B_SECRET, [before, after])).toMatchObject({ accepted: 0, duplicates: 2, rejected: [] });
    expect(await logged(RSL1, [before.id, after.id])).toEqual([before.id]);
    expect(await logged(ACME, [before.id, after.id])).toEqual([after.id]);
  });

  it("an event the new cell sends first is stored once when the old cell sends it too, each in the log its board time names", async () => {
    const at = await transferAt();
    const [before, after] = [openedAt(at - 500), openedAt(at + 500)];
    expect(await post(CELL_B_SECRET, [before, after])).toMatchObject({ accepted: 2, duplicates: 0, rejected: [] });
    expect(await post(MAIN_SECRET, [before, after])).toMatchObject({ accepted: 0, duplicates: 2, rejected: [] });
    expect(await logged(RSL1, [before.id, after.id])).toEqual([before.id]);
    expect(await logged(ACME, [before.id, after.id])).toEqual([after.id]);
  });

  it("an event delivered before the transfer and sent again after it is a duplicate, not a copy in the new company's log", async () => {
    expect(await post(MAIN_SECRET, [deliveredBefore])).toMatchObject({ accepted: 0, duplicates: 1, rejected: [] });
    expect(await logged(RSL1, [deliveredBefore.id])).toEqual([deliveredBefore.id]);
    expect(await logged(ACME, [deliveredBefore.id])).toEqual([]);
  });

  it("a person of the company it left is named on an entry from before the transfer", async () => {
    const [person] = await db().select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.companyId, RSL1)).limit(1);
    const granted = { ...openedAt((await transferAt()) - 2_000), type: "access.granted", data: { userId: person.id } };
    expect(await post(MAIN_SECRET, [granted])).toMatchObject({ accepted: 1, rejected: [] });
    const rows = await companyLog(RSL1)
      .select({ by: schema.activityLogs.createdByUserId, target: schema.activityLogs.targetUserId })
      .from(schema.activityLogs)
      .where(eq(schema.activityLogs.eventId, granted.id));
    expect(rows).toEqual([{ by: person.id, target: person.id }]);
  });

  it("a first person in from before the transfer counts for the company it left, not for the doors of the one it joined", async () => {
    const firstIn = { ...openedAt((await transferAt()) - 3_000), type: "schedule.firstEntry" };
    expect(await post(MAIN_SECRET, [firstIn])).toMatchObject({ accepted: 1, rejected: [] });
    const f = schema.companyFirstEntries;
    const entries = await db().select({ companyId: f.companyId }).from(f).where(eq(f.at, firstIn.at));
    expect(entries).toEqual([{ companyId: RSL1 }]);
  });

  it("the old cell is served 23 hours after the transfer and refused after 24; another cell never", async () => {
    await transferredAgo(23 * HOUR);
    const late = openedAt(workerNow());
    expect(await post(MAIN_SECRET, [late])).toMatchObject({ accepted: 1, rejected: [] });
    expect(await logged(ACME, [late.id])).toEqual([late.id]);
    expect((await post("cell-c-secret", [openedAt(workerNow())])).rejected.map((x) => x.reason)).toEqual(["device not served by this gateway"]);
    await transferredAgo(24 * HOUR + 60_000);
    const tooLate = openedAt(workerNow());
    expect((await post(MAIN_SECRET, [tooLate])).rejected.map((x) => x.reason)).toEqual(["device not served by this gateway"]);
    expect(await logged(ACME, [tooLate.id])).toEqual([]);
    expect(await logged(RSL1, [tooLate.id])).toEqual([]);
    expect(await post(CELL_B_SECRET, [openedAt(workerNow())])).toMatchObject({ accepted: 1, rejected: [] });
  });

  it("after the day, an event from before the transfer goes to the device's company", async () => {
    await transferredAgo(24 * HOUR + 60_000);
    const old = openedAt((await transferAt()) - 1_000);
    expect(await post(CELL_B_SECRET, [old])).toMatchObject({ accepted: 1, rejected: [] });
    expect(await logged(ACME, [old.id])).toEqual([old.id]);
    expect(await logged(RSL1, [old.id])).toEqual([]);
  });
});

describe("a device transferred within one cell", () => {
  const RSL1 = 2;
  const STOCK_BOARD = 18; // RSL1's stock, in the main cell
  let at: number;

  beforeAll(async () => {
    // ACME back in the main cell, long since: the board's company and the one it joins share the cell.
    await db()
      .update(schema.companies)
      .set({ cell: "main", cellMovedAt: workerNow() - 48 * 3_600_000 })
      .where(eq(schema.companies.id, ACME));
    const shippingDate = new Date(workerNow() + 3 * 86_400_000).toISOString().slice(0, 10);
    const r = await api(await login("var"), "POST", "/api/admin/company/transferDevices", {
      toCompany: "ACME",
      transferDevices: [STOCK_BOARD],
      status: "unconfigured",
      shippingDate,
      subscriptionTerm: 1,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    at = (await db().select({ at: schema.devices.cellMovedAt }).from(schema.devices).where(eq(schema.devices.id, STOCK_BOARD)))[0].at!;
  });

  it("files its events by board time too: from before the transfer into the company it left, the others into the one it joined", async () => {
    const [before, after] = [
      { ...opened(STOCK_BOARD), at: at - 1_000 },
      { ...opened(STOCK_BOARD), at: at + 1_000 },
    ];
    expect(await post(MAIN_SECRET, [before, after])).toMatchObject({ accepted: 2, duplicates: 0, rejected: [] });
    expect(await logged(RSL1, [before.id, after.id])).toEqual([before.id]);
    expect(await logged(ACME, [before.id, after.id])).toEqual([after.id]);
    // Another cell's gateway never delivers for it.
    expect((await post(CELL_B_SECRET, [{ ...opened(STOCK_BOARD), at: at + 2_000 }])).rejected.map((x) => x.reason)).toEqual(["device not served by this gateway"]);
  });
});

describe("a device transferred twice within a day", () => {
  const ROOT = 1;
  const RSL1 = 2;
  const BOARD = 19; // one of RSL1's stock boards, first put in the platform's stock
  let first: number;
  let second: number;

  beforeAll(async () => {
    // The platform's stock board goes to the reseller (as stock) two hours ago, then from the reseller to ACME now.
    await db().update(schema.devices).set({ companyId: ROOT, status: "stock" }).where(eq(schema.devices.id, BOARD));
    const toReseller = await api(await login("root"), "POST", "/api/admin/company/transferDevices", { toCompany: "RSL1", transferDevices: [BOARD], status: "stock" });
    expect(toReseller.status, JSON.stringify(toReseller.body)).toBe(200);
    first = workerNow() - 2 * 3_600_000;
    await movedBack(BOARD, first);
    const shippingDate = new Date(workerNow() + 3 * 86_400_000).toISOString().slice(0, 10);
    const toCustomer = await api(await login("var"), "POST", "/api/admin/company/transferDevices", {
      toCompany: "ACME",
      transferDevices: [BOARD],
      status: "unconfigured",
      shippingDate,
      subscriptionTerm: 1,
    });
    expect(toCustomer.status, JSON.stringify(toCustomer.body)).toBe(200);
    second = (await db().select({ at: schema.devices.cellMovedAt }).from(schema.devices).where(eq(schema.devices.id, BOARD)))[0].at!;
    expect((await transfersOf(BOARD)).map((t) => [t.from, t.to])).toEqual([
      [ROOT, RSL1],
      [RSL1, ACME],
    ]);
  });

  it("files each event under the company that held the device at its board time: the platform, the reseller, then ACME", async () => {
    const [platformTime, resellerTime, customerTime] = [first - 1_000, first + 1_000, second + 1_000].map((at) => ({ ...opened(BOARD), at }));
    const ids = [platformTime.id, resellerTime.id, customerTime.id];
    expect(await post(MAIN_SECRET, [platformTime, resellerTime, customerTime])).toMatchObject({ accepted: 3, duplicates: 0, rejected: [] });
    expect(await logged(ROOT, ids)).toEqual([platformTime.id]);
    expect(await logged(RSL1, ids)).toEqual([resellerTime.id]);
    expect(await logged(ACME, ids)).toEqual([customerTime.id]);
  });
});
