/**
 * Board clocks and zone data at the console (decision 0092): gateways' `board.clock` readings are
 * stored per board (never back in time), a reading that raises a flag is one activity row that alerts
 * see, and the fleet and device views show the flags.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedGateway } from "../../db/seed/gateway";
import { api, companyLog, consoleWorker, db, login, ORIGIN, schema, workerNow } from "./helpers";

const SECRET = String(env.GATEWAY_SECRET);
const ACME = 3;
let n = 0;
let t0: number;
let reseller: string;
const ids = { drift: 0, zones: 0, quiet: 0 };

async function events(list: unknown[]) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, gatewayId: "gw-clock", events: list }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { accepted: number; rejected?: { id: string | null; reason: string }[] };
}
const reading = (deviceId: number, driftMs: number | null, tzdata: string | null, at: number) => ({
  id: `${deviceId}/gw/clk.1.${++n}`,
  deviceId: String(deviceId),
  type: "board.clock",
  at,
  gatewayId: "gw-clock",
  data: { driftMs, tzdata, coreTzdata: "2025b" },
});

async function addBoard(name: string) {
  const [row] = await db()
    .insert(schema.devices)
    .values({ companyId: ACME, fullName: name, displayName: name, serialNumber: `CLOCK-${name}`, status: "configured" })
    .returning({ id: schema.devices.id });
  return row.id;
}

async function logOf(deviceId: number) {
  const l = schema.activityLogs;
  const rows = await companyLog(ACME)
    .select({ name: schema.activityTypes.name, summary: l.summary })
    .from(l)
    .innerJoin(schema.activityTypes, eq(schema.activityTypes.id, l.activityTypeId))
    .where(eq(l.targetDeviceId, deviceId));
  return rows.map((r) => `${r.name}: ${r.summary}`).sort();
}

beforeAll(async () => {
  await seedGateway(db(), { GATEWAY_SECRET: SECRET });
  reseller = await login("var");
  t0 = workerNow() - 60_000;
  ids.drift = await addBoard("Clock door");
  ids.zones = await addBoard("Zones door");
  ids.quiet = await addBoard("Quiet door");
});

describe("board clock readings", () => {
  it("stores the last reading per board, and a flag raised is one activity row", async () => {
    const r = await events([reading(ids.drift, 1_200, "2025b", t0), reading(ids.zones, -400, "2019c", t0)]);
    expect(r).toMatchObject({ accepted: 2, rejected: [] });
    // The clock slips 45 s ahead: flagged, once, however often the gateway says so.
    await events([reading(ids.drift, 45_300, "2025b", t0 + 1_000)]);
    await events([reading(ids.drift, 52_000, "2025b", t0 + 2_000)]);
    const [row] = await db().select().from(schema.deviceClocks).where(eq(schema.deviceClocks.deviceId, ids.drift));
    expect(row).toMatchObject({ companyId: ACME, driftMs: 52_000, tzdata: "2025b", coreTzdata: "2025b", reportedAt: t0 + 2_000 });
    expect(await logOf(ids.drift)).toEqual(["Device Clock Drift: Clock door clock is 45 s ahead"]);
    expect(await logOf(ids.zones)).toEqual(["Device Zone Data Outdated: Zones door decides with zone data 2019c, older than 2025b"]);
  });

  it("an older reading that arrives late changes nothing; a cleared flag raised again is a new row", async () => {
    await events([reading(ids.drift, 0, "2025b", t0 + 1_500)]);
    const [late] = await db().select().from(schema.deviceClocks).where(eq(schema.deviceClocks.deviceId, ids.drift));
    expect(late.driftMs).toBe(52_000);
    await events([reading(ids.drift, 300, "2025b", t0 + 3_000)]);
    await events([reading(ids.drift, -31_000, "2025b", t0 + 4_000)]);
    expect(await logOf(ids.drift)).toEqual(["Device Clock Drift: Clock door clock is 31 s behind", "Device Clock Drift: Clock door clock is 45 s ahead"]);
  });

  it("refuses a reading that is not one, with the reason, and stores nothing for it", async () => {
    const bad = [
      { ...reading(ids.quiet, 0, "2025b", t0), data: { driftMs: "soon", tzdata: "2025b" } },
      { ...reading(ids.quiet, 0, "2025b", t0), data: { driftMs: 0, tzdata: "latest" } },
      reading(999_999_999, 0, "2025b", t0),
    ];
    const r = await events(bad);
    expect(r.rejected?.map((x) => x.reason).sort()).toEqual([
      "board.clock events need data.driftMs (milliseconds or null) and data.tzdata (a tz database version or null)",
      "board.clock events need data.driftMs (milliseconds or null) and data.tzdata (a tz database version or null)",
      "unknown device",
    ]);
    expect(await db().select().from(schema.deviceClocks).where(eq(schema.deviceClocks.deviceId, ids.quiet))).toEqual([]);
  });

  it("the fleet counts and lists the flagged boards for the reseller", async () => {
    const { companies } = (await api(reseller, "GET", "/api/admin/fleet/companies?trouble=clock")).body.payload;
    expect(companies.find((c: { id: number }) => c.id === ACME)?.clock_flagged).toBe(2);
    const { boards } = (await api(reseller, "GET", `/api/admin/fleet/boards?company_id=${ACME}&trouble=clock`)).body.payload;
    const mine = boards.filter((b: { id: number }) => Object.values(ids).includes(b.id));
    expect(mine.map((b: { name: string; clock_drift_ms: number; tzdata: string; clock_flagged: boolean }) => [b.name, b.clock_drift_ms, b.tzdata, b.clock_flagged]).sort()).toEqual(
      [
        ["Clock door", -31_000, "2025b", true],
        ["Zones door", -400, "2019c", true],
      ],
    );
  });
});
