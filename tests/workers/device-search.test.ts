import { env } from "cloudflare:test";
import { asc, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { devicesWhere } from "../../app/services/devices.server";
import { api, db, login, schema, workerNow } from "./helpers";

/**
 * Device search on /device/getDevices (decision 0043): three characters or more match inside the full
 * name, display name or serial from the trigram index `devices_search` (migration 0021); one or two
 * match the start of a column. Demo data: ACME doors 1–12 ("Main Entrance" ME1 … "Archive" A12,
 * serials SN-100001…), BETA 13–16 ("Front Door", "Clean Room", "Storage", "Back Door"), RSL1 stock 17–36.
 */
const A = "/api/admin";
const ACME = 3;
const d = schema.devices;

let acme: string;
let beta: string;

/** The ids a company's search answers, in id order (every match fits one page of 100). */
async function search(token: string, q: string): Promise<number[]> {
  const r = await api(token, "GET", `${A}/device/getDevices?pageSize=100&q=${encodeURIComponent(q)}`);
  expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body.payload.rows.map((x: { id: number }) => x.id).sort((a: number, b: number) => a - b);
}

async function configure(id: number, fullName: string, displayName: string) {
  const r = await api(acme, "POST", `${A}/device/configureDevice`, { id, fullName, displayName });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The plans SQLite picks for the grid's two queries with this search: a page (joined type, sorted by name) and the total. */
async function planOf(q: string): Promise<string> {
  const where = devicesWhere(ACME, q);
  const page = db()
    .select({ id: d.id, deviceType: schema.deviceTypes.deviceType })
    .from(d)
    .leftJoin(schema.deviceTypes, eq(schema.deviceTypes.id, d.deviceTypeId))
    .where(where)
    .orderBy(asc(d.fullName), asc(d.id))
    .limit(25)
    .toSQL();
  const total = db().select({ total: count() }).from(d).where(where).toSQL();
  const plans = [];
  for (const query of [page, total]) {
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    plans.push(plan.results.map((r) => r.detail).join("\n"));
  }
  return plans.join("\n--\n");
}

beforeAll(async () => {
  const reseller = await login("var");
  [acme, beta] = await Promise.all([login("acme"), login("beta")]);
  const shippingDate = new Date(workerNow() + 5 * 86_400_000).toISOString().slice(0, 10);
  const moved = await api(reseller, "POST", `${A}/company/transferDevices`, {
    fromCompany: "RSL1",
    toCompany: "ACME",
    transferDevices: [17, 18, 19],
    status: "unconfigured",
    shippingDate,
    subscriptionTerm: 1,
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  await configure(17, "Bay 5%_North", "B5N");
  await configure(18, 'Quay "East" Gate', "QEG");
});

describe("device search (getDevices q)", () => {
  it("finds a device by the middle of its serial number, full name or display name", async () => {
    expect(await search(acme, "00007")).toEqual([7]);
    expect(await search(acme, "ouse")).toEqual([6]);
    expect(await search(acme, " room ")).toEqual([3, 10]);
    expect(await search(acme, "R10")).toEqual([10]);
    expect(await search(acme, "ay 5%")).toEqual([17]);
  });

  it("ignores case", async () => {
    expect(await search(acme, "WAREHOUSE")).toEqual([6]);
    expect(await search(acme, "wArEh")).toEqual([6]);
    expect(await search(acme, "sn-100012")).toEqual([12]);
    expect(await search(acme, "b5n")).toEqual([17]);
  });

  it("matches the start of a name or serial for one or two characters", async () => {
    expect(await search(acme, "g")).toEqual([9, 11]);
    expect(await search(acme, "LA")).toEqual([4, 5]);
    // "ar" is inside Warehouse and Garage, but only Archive starts with it.
    expect(await search(acme, "ar")).toEqual([12]);
    expect(await search(acme, "a1")).toEqual([12]);
    expect(await search(acme, "q")).toEqual([18]);
    expect((await search(acme, "sn")).length).toBe(15);
  });

  it("takes %, _ and the search syntax's characters literally", async () => {
    expect(await search(acme, "5%_")).toEqual([17]);
    expect(await search(acme, "5_%")).toEqual([]);
    expect(await search(acme, "%%%")).toEqual([]);
    expect(await search(acme, "___")).toEqual([]);
    expect(await search(acme, "%")).toEqual([]);
    expect(await search(acme, "_")).toEqual([]);
    expect(await search(acme, "%_")).toEqual([]);
    expect(await search(acme, '"East"')).toEqual([18]);
    expect(await search(acme, 'y "E')).toEqual([18]);
    for (const q of ['"', 'a"b', "NEAR(Lab", "Lab*", "^Lab", "Lab OR Gym", "Lab AND", "NOT", "{full_name}: Lab", "\\"]) expect(await search(acme, q), q).toEqual([]);
    // Characters a search could trip on: a NUL, an emoji (two UTF-16 units, one character).
    for (const q of ["La\u0000b", "\u{1F6AA}", "\u{1F6AA}\u{1F6AA}", "Lab\u{1F6AA}"]) expect(await search(acme, q), q).toEqual([]);
  });

  it("never finds another company's device", async () => {
    expect(await search(acme, "clean")).toEqual([]);
    expect(await search(acme, "door")).toEqual([]);
    expect(await search(acme, "100013")).toEqual([]);
    expect(await search(acme, "fr")).toEqual([]);
    expect(await search(beta, "door")).toEqual([13, 16]);
    expect(await search(beta, "00013")).toEqual([13]);
    expect(await search(beta, "ouse")).toEqual([]);
    expect(await search(beta, "bay")).toEqual([]);
    // RSL1's stock boards are named "Stock Board N": only the one moved to ACME and not configured yet is ACME's.
    expect(await search(acme, "tock")).toEqual([19]);
    expect(await search(acme, "100020")).toEqual([]);
  });

  it("finds a renamed device by its new name and no longer by its old one", async () => {
    const removed = await api(acme, "POST", `${A}/device/removeDeviceConfiguration`, { id: 17, displayName: "B5N" });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    // Unconfigured: no names, still listed by its serial as before.
    expect(await search(acme, "North")).toEqual([]);
    expect(await search(acme, "100017")).toEqual([17]);
    await configure(17, "Quokka Yard", "QY");
    expect(await search(acme, "okka ya")).toEqual([17]);
    expect(await search(acme, "qy")).toEqual([17]);
    expect(await search(acme, "North")).toEqual([]);
    expect(await search(acme, "b5n")).toEqual([]);
    expect(await search(acme, "5%_")).toEqual([]);
    expect(await search(acme, "q")).toEqual([17, 18]);
  });

  it("leaves out a deleted device and forgets a device row that is gone", async () => {
    await db().update(d).set({ deletedAt: workerNow() }).where(eq(d.id, 19));
    expect(await search(acme, "100019")).toEqual([]);
    const indexed = () => env.DB.prepare("select count(*) as n from devices_search where rowid = ?").bind(19).first<{ n: number }>();
    expect((await indexed())?.n).toBe(1);
    await env.DB.prepare("delete from devices where id = ?").bind(19).run();
    expect((await indexed())?.n).toBe(0);
  });

  it("answers from the trigram index or index ranges, never a scan of the devices", async () => {
    const long = await planOf("ouse");
    expect(long.match(/SCAN devices_search VIRTUAL TABLE INDEX/g)).toHaveLength(2);
    expect(long.match(/SEARCH devices USING INTEGER PRIMARY KEY/g)).toHaveLength(2);
    expect(long).not.toMatch(/SCAN devices\b/);
    const short = await planOf("ar");
    for (const index of ["devices_company_full_lc_idx", "devices_company_display_lc_idx", "devices_company_serial_lc_idx"]) expect(short).toContain(index);
    expect(short).not.toMatch(/SCAN devices\b/);
  });
});
