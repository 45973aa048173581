import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { consoleWorker, api, createDeviceGroup, db, login, ORIGIN, pageCookie, schema, workerNow } from "./helpers";

/**
 * The group page's "Add devices" picker (`/resources/group-devices`, decision 0040) beyond its first
 * page. ACME gets RSL1's 20 stock boards (17–36), configured as "Picker Door 01"…"Picker Door 20", so
 * it holds 32 devices; the group holds five of them, which leaves 27 outside it: two pages of 20.
 */
const A = "/api/admin";
const HOST = new URL(ORIGIN).host;
const ACME = 3;
const MEMBERS = [1, 2, 3, 17, 18];
const d = schema.devices;

type PickerPage = { rows: { id: number; fullName: string; serialNumber: string }[]; total: number; page: number; pageSize: number };

let acme: string;
let cookie: string;
let groupId: number;

async function picker(query: Record<string, string | number>): Promise<PickerPage> {
  const params = new URLSearchParams(Object.entries({ groupId, ...query }).map(([k, v]) => [k, String(v)]));
  const res = await consoleWorker.fetch(`${ORIGIN}/resources/group-devices?${params}`, { headers: { Host: HOST, Cookie: cookie } });
  expect(res.status, params.toString()).toBe(200);
  return (await res.json()) as PickerPage;
}

/** Every page of a search, in order, until one comes back short. */
async function allPages(query: Record<string, string> = {}): Promise<PickerPage[]> {
  const pages: PickerPage[] = [];
  for (let page = 1; pages.at(-1)?.rows.length !== 0 && page <= 5; page++) pages.push(await picker({ ...query, page }));
  return pages;
}

/** ACME's live devices outside the group, by full name then id (the picker's order). */
async function expectedOutside(match: (x: { fullName: string; displayName: string; serialNumber: string }) => boolean = () => true) {
  const rows = await db()
    .select({ id: d.id, fullName: d.fullName, displayName: d.displayName, serialNumber: d.serialNumber })
    .from(d)
    .where(and(eq(d.companyId, ACME), isNull(d.deletedAt)));
  const members = (await db().select({ id: schema.deviceGroupMembers.deviceId }).from(schema.deviceGroupMembers).where(eq(schema.deviceGroupMembers.groupId, groupId))).map(
    (m) => m.id,
  );
  return rows
    .filter((r) => !members.includes(r.id) && match(r))
    .sort((a, b) => (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : a.id - b.id))
    .map((r) => r.id);
}

beforeAll(async () => {
  const reseller = await login("var");
  acme = await login("acme");
  cookie = await pageCookie("acme");
  const stock = Array.from({ length: 20 }, (_, i) => 17 + i);
  const moved = await api(reseller, "POST", `${A}/company/transferDevices`, {
    fromCompany: "RSL1",
    toCompany: "ACME",
    transferDevices: stock,
    status: "unconfigured",
    shippingDate: new Date(workerNow() + 5 * 86_400_000).toISOString().slice(0, 10),
    subscriptionTerm: 1,
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  for (const id of stock) {
    const n = String(id - 16).padStart(2, "0");
    const r = await api(acme, "POST", `${A}/device/configureDevice`, { id, fullName: `Picker Door ${n}`, displayName: `PD${n}` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  groupId = await createDeviceGroup(acme, "Paging Group", MEMBERS, { status: 1 });
});

describe("the group picker past its first page", () => {
  it("pages every device outside the group once, in name order, and none of the group's", async () => {
    const outside = await expectedOutside();
    expect(outside).toHaveLength(27);
    const pages = await allPages();
    expect(pages.map((p) => p.rows.length)).toEqual([20, 7, 0]);
    for (const p of pages) expect(p).toMatchObject({ total: 27, pageSize: 20 });
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    const ids = pages.flatMap((p) => p.rows.map((r) => r.id));
    expect(ids).toEqual(outside);
    for (const member of MEMBERS) expect(ids).not.toContain(member);
    // Page 2 starts where page 1 ended: the Picker Doors run across the boundary.
    expect(pages[0].rows.at(-1)!.fullName < pages[1].rows[0].fullName).toBe(true);
  });

  it("pages a search that matches more than one page", async () => {
    // Inside every serial (SN-1000NN): all 27 devices outside the group.
    const bySerial = await allPages({ q: "n-100" });
    expect(bySerial.map((p) => p.rows.length)).toEqual([20, 7, 0]);
    expect(bySerial[1].total).toBe(27);
    expect(bySerial.flatMap((p) => p.rows.map((r) => r.id))).toEqual(await expectedOutside());
    // One character: the start of a serial, again every device, and the same two pages.
    const short = await allPages({ q: "S" });
    expect(short.flatMap((p) => p.rows.map((r) => r.id))).toEqual(bySerial.flatMap((p) => p.rows.map((r) => r.id)));
    // Inside a name: Picker Door 10–19, on one page.
    const byName = await allPages({ q: "ker door 1" });
    expect(byName.map((p) => p.rows.length)).toEqual([10, 0]);
    expect(byName[0].rows.map((r) => r.fullName)).toEqual(Array.from({ length: 10 }, (_, i) => `Picker Door ${10 + i}`));
  });

  it("leaves out devices already in the group, also when searched for, and drops the ones just added", async () => {
    expect(await picker({ q: "Picker Door 01" })).toMatchObject({ rows: [], total: 0 });
    expect(await picker({ q: "SN-100001" })).toMatchObject({ rows: [], total: 0 });
    const r = await api(acme, "POST", `${A}/deviceGroup/addDevicesToGroup`, { groupId, deviceIds: [19, 20, 21, 22, 23, 24, 25] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const pages = await allPages();
    expect(pages.map((p) => p.rows.length)).toEqual([20, 0]);
    expect(pages[0].total).toBe(20);
    const ids = pages[0].rows.map((x) => x.id);
    for (const member of [...MEMBERS, 19, 20, 21, 22, 23, 24, 25]) expect(ids).not.toContain(member);
    expect(ids).toEqual(await expectedOutside());
    expect((await picker({ q: "n-100", page: 2 })).rows).toEqual([]);
  });
});
