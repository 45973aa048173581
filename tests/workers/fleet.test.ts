/**
 * Fleet health across customers (decision 0091): a reseller sees its subtree's boards and nothing of a
 * company outside it, a customer company sees no fleet at all, the counts are the boards' own, and no
 * answer carries a person.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, login, schema, workerNow } from "./helpers";

const ACME = 3;
let n = 0;

async function addBoard(name: string, extra: Partial<typeof schema.devices.$inferInsert> = {}) {
  const [row] = await db()
    .insert(schema.devices)
    .values({ companyId: ACME, fullName: name, displayName: name, serialNumber: `FLEET-${name}-${++n}`, status: "configured", ...extra })
    .returning({ id: schema.devices.id });
  return row.id;
}

type CompanyWire = {
  id: number;
  code: string;
  boards: number;
  online: number;
  offline: number;
  offline_since: number | null;
  low_battery: number;
  firmware_behind: number;
  active_alarms: number;
};
type BoardWire = { id: number; name: string; online: boolean | null; low_battery: boolean; firmware_behind: boolean; latest_version: string | null; active_alarms: number };

const companies = async (token: string, query = ""): Promise<{ total: number; companies: CompanyWire[] }> =>
  (await api(token, "GET", `/api/admin/fleet/companies${query}`)).body.payload;
const boards = async (token: string, query: string): Promise<{ total: number; boards: BoardWire[] }> => (await api(token, "GET", `/api/admin/fleet/boards${query}`)).body.payload;

let reseller: string;
const ids = { offline: 0, battery: 0, behind: 0, alarmed: 0, current: 0 };

beforeAll(async () => {
  reseller = await login("var");
  const now = workerNow();
  const [type] = await db().insert(schema.deviceTypes).values({ deviceCode: "FLEETT", deviceType: "Fleet test lock" }).returning({ id: schema.deviceTypes.id });
  await db()
    .insert(schema.firmwareReleases)
    .values({
      companyId: 1,
      deviceTypeId: type.id,
      version: "9.9.9",
      r2Key: "fleet/9.9.9.bin",
      fileName: "9.9.9.bin",
      size: 1,
      sha256: "0".repeat(64),
      isActive: true,
    });
  ids.offline = await addBoard("Offline door", { deviceTypeId: type.id, firmwareVersion: "9.9.9" });
  ids.battery = await addBoard("Battery door", { deviceTypeId: type.id, firmwareVersion: "9.9.9", lowBattery: true });
  ids.behind = await addBoard("Behind door", { deviceTypeId: type.id, firmwareVersion: "1.0.0" });
  ids.alarmed = await addBoard("Alarmed door", { deviceTypeId: type.id, firmwareVersion: "9.9.9" });
  ids.current = await addBoard("Current door", { deviceTypeId: type.id, firmwareVersion: "9.9.9" });
  // A board in stock is boxed, not in the fleet.
  await addBoard("Boxed door", { deviceTypeId: type.id, status: "stock", lowBattery: true });
  const [gw] = await db().select({ id: schema.gateways.id }).from(schema.gateways).limit(1);
  await db().update(schema.gateways).set({ lastSeenAt: now });
  await db()
    .insert(schema.devicePresence)
    .values({ deviceId: ids.offline, gatewayId: gw.id, companyId: ACME, online: false, since: now - 3_600_000, updatedAt: now });
  await db().insert(schema.doorAlarms).values({ companyId: ACME, deviceId: ids.alarmed, kind: "forced", raisedAt: now, raisedEventId: "fleet-alarm", lastSeenAt: now });
});

describe("fleet view", () => {
  it("a reseller sees its customer's boards' health and only its subtree", async () => {
    const page = await companies(reseller, "?page_size=100");
    const codes = page.companies.map((c) => c.code);
    expect(codes).toContain("ACME");
    expect(codes).not.toContain("BETA");
    expect(codes).not.toContain("RSL1");
    const acme = page.companies.find((c) => c.code === "ACME")!;
    const expected = await db().select({ id: schema.devices.id }).from(schema.devices).where(eq(schema.devices.companyId, ACME));
    expect(acme.boards).toBeLessThan(expected.length); // the boxed board is not counted
    expect(acme.offline).toBeGreaterThanOrEqual(1);
    expect(acme.offline_since).toBeLessThanOrEqual(workerNow() - 3_600_000);
    expect(acme.low_battery).toBeGreaterThanOrEqual(1);
    expect(acme.firmware_behind).toBeGreaterThanOrEqual(1);
    expect(acme.active_alarms).toBe(1);
  });

  it("each count's filter lists exactly the boards it counts", async () => {
    const only = async (trouble: string) => (await boards(reseller, `?company_id=ACME&trouble=${trouble}&page_size=100`)).boards.map((b) => b.id);
    expect(await only("offline")).toContain(ids.offline);
    expect(await only("offline")).not.toContain(ids.current);
    expect(await only("lowBattery")).toContain(ids.battery);
    expect(await only("lowBattery")).not.toContain(ids.current);
    expect(await only("behind")).toContain(ids.behind);
    expect(await only("behind")).not.toContain(ids.current);
    expect(await only("alarms")).toEqual([ids.alarmed]);
    const all = (await boards(reseller, "?company_id=ACME&page_size=100")).boards;
    const behind = all.find((b) => b.id === ids.behind)!;
    expect(behind).toMatchObject({ firmware_behind: true, latest_version: "9.9.9" });
    expect(all.find((b) => b.id === ids.current)).toMatchObject({ firmware_behind: false, low_battery: false, active_alarms: 0 });
  });

  it("companies filtered by a trouble are those with such a board", async () => {
    const withAlarms = await companies(reseller, "?trouble=alarms");
    expect(withAlarms.companies.map((c) => c.code)).toEqual(["ACME"]);
  });

  it("a company outside the reseller's subtree is not found, and a customer company has no fleet", async () => {
    expect((await api(reseller, "GET", "/api/admin/fleet/boards?company_id=BETA")).status).toBe(404);
    expect((await api(reseller, "GET", "/api/admin/fleet/boards?company_id=RSL1")).status).toBe(404);
    const acme = await login("acme");
    expect((await api(acme, "GET", "/api/admin/fleet/companies")).status).toBe(403);
    expect((await api(acme, "GET", "/api/admin/fleet/boards?company_id=ACME")).status).toBe(403);
  });

  it("root sees every customer company", async () => {
    const codes = (await companies(await login("root"), "?page_size=100")).companies.map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(["ACME", "BETA", "RSL1"]));
    expect(codes).not.toContain("ROOT");
  });

  it("never answers a person: no user, e-mail or key field anywhere", async () => {
    const text = JSON.stringify([await companies(reseller), await boards(reseller, "?company_id=ACME")]);
    expect(text).not.toMatch(/@|user|email|phone|ekey|fob/i);
  });
});
