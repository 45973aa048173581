/**
 * The investigator's filters (issue 26): one date alone, one time alone, free text, event types, a person
 * and a door, through the admin API and the page's own routes, read from ACME's store (decision 0047:
 * rows written to D1's outbox are copied into the company's store before each read). March 2019 is
 * far from the demo's traffic and from the other files' rows, so each answer is exact; the token "zq19"
 * in the summaries keeps a search to these rows.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, consoleWorker, db, login, ORIGIN, pageCookie, schema } from "./helpers";

const BASE = "/api/admin";
const ACME = 3;
const MADRID = "Europe/Madrid";
const at = (iso: string) => Date.parse(iso);
// Madrid is UTC+1 in March 2019: 10:00Z is 11:00 there, 12:00Z is 13:00.
const FIXED = [
  { key: "denied", name: "Access Denied", op: "Device", ts: at("2019-03-01T10:00:00Z"), device: 2, creator: 6, target: 6, summary: "zq19 denied at the side door" },
  { key: "forced", name: "Door Forced Open", op: "Device", ts: at("2019-03-02T10:00:00Z"), device: 1, creator: null, target: null, summary: "zq19 forced" },
  { key: "granted", name: "Access Granted", op: "Device", ts: at("2019-03-03T10:00:00Z"), device: 1, creator: 3, target: 3, summary: "zq19 granted" },
  { key: "ekey", name: "eKey Assigned", op: "Admin", ts: at("2019-03-03T12:00:00Z"), device: 2, creator: 3, target: 6, summary: "zq19 key 100%" },
] as const;
const MARCH = { filterFromDate: "2019-03-01", filterToDate: "2019-03-31", tz: MADRID };
const ids: Record<string, number> = {};
let acme: string;
let beta: string;
let alice: string;
let device1: string;

beforeAll(async () => {
  [acme, beta] = await Promise.all([login("acme"), login("beta")]);
  const types = await db().select().from(schema.activityTypes);
  for (const f of FIXED) {
    const [row] = await db()
      .insert(schema.activityLogs)
      .values({
        companyId: ACME,
        activityTypeId: types.find((t) => t.name === f.name)!.id,
        operationType: f.op,
        createdByUserId: f.creator,
        targetUserId: f.target,
        targetDeviceId: f.device,
        summary: f.summary,
        activityTimestamp: f.ts,
      })
      .returning({ id: schema.activityLogs.id });
    ids[f.key] = row.id;
  }
  alice = (await db().select({ n: schema.users.displayName }).from(schema.users).where(eq(schema.users.id, 3)))[0].n;
  device1 = (await db().select({ n: schema.devices.fullName }).from(schema.devices).where(eq(schema.devices.id, 1)))[0].n;
});

type Page = { status: number; body: { message?: string; payload: { rows: { id: number; activity_timestamp: number; activity: { name: string } }[]; total: number } } };
const list = (token: string, body: Record<string, unknown>) => api(token, "POST", `${BASE}/user/activityLogs`, { pageSize: 100, ...body }) as Promise<Page>;
const idsOf = (r: Page) => r.body.payload.rows.map((x) => x.id);
const mine = (...keys: (keyof typeof ids)[]) => keys.map((k) => ids[k]);

describe("one date is enough", () => {
  it("a to date alone is everything up to the end of that local day", async () => {
    expect(idsOf(await list(acme, { filterToDate: "2019-03-01", tz: MADRID, q: "zq19" }))).toEqual(mine("denied"));
    const all = await list(acme, { filterToDate: "2019-03-02", tz: MADRID });
    expect(all.status).toBe(200);
    expect(idsOf(all)).toEqual(expect.arrayContaining(mine("forced", "denied")));
    for (const r of all.body.payload.rows) expect(r.activity_timestamp).toBeLessThan(at("2019-03-02T23:00:00Z"));
  });

  it("a from date alone is everything from the start of that local day on", async () => {
    expect(idsOf(await list(acme, { filterFromDate: "2019-03-02", tz: MADRID, q: "zq19" }))).toEqual(mine("ekey", "granted", "forced"));
    const later = await list(acme, { filterFromDate: "2019-03-03", tz: MADRID, sort: "date", pageSize: 5 });
    expect(idsOf(later).slice(0, 2)).toEqual(mine("granted", "ekey"));
    expect(later.body.payload.total).toBeGreaterThan(300);
  });

  it("the same date on both sides is that one day; either time alone runs to or from midnight", async () => {
    expect(idsOf(await list(acme, { filterFromDate: "2019-03-03", filterToDate: "2019-03-03", tz: MADRID }))).toEqual(mine("ekey", "granted"));
    expect(idsOf(await list(acme, { ...MARCH, filterFromTime: "12:30" }))).toEqual(mine("ekey"));
    expect(idsOf(await list(acme, { ...MARCH, filterToTime: "12:00" }))).toEqual(mine("granted", "forced", "denied"));
  });

  it("still refuses a reversed range and a malformed date", async () => {
    expect((await list(acme, { filterFromDate: "2019-03-05", filterToDate: "2019-03-01" })).status).toBe(400);
    expect((await list(acme, { filterToDate: "2019-02-30x" })).status).toBe(400);
  });
});

describe("text search", () => {
  it("matches the summary, a person's name and a door's name, case-insensitively", async () => {
    expect(idsOf(await list(acme, { q: "ZQ19" }))).toEqual(mine("ekey", "granted", "forced", "denied"));
    expect(idsOf(await list(acme, { ...MARCH, q: "side door" }))).toEqual(mine("denied"));
    expect(idsOf(await list(acme, { ...MARCH, q: alice.slice(0, 8) }))).toEqual(mine("ekey", "granted"));
    expect(idsOf(await list(acme, { ...MARCH, q: device1 }))).toEqual(mine("granted", "forced"));
  });

  it("takes % and _ literally", async () => {
    expect(idsOf(await list(acme, { ...MARCH, q: "100%" }))).toEqual(mine("ekey"));
    expect(idsOf(await list(acme, { ...MARCH, q: "%" }))).toEqual(mine("ekey"));
    expect(idsOf(await list(acme, { ...MARCH, q: "zq19_" }))).toEqual([]);
  });

  it("refuses a search over 100 characters", async () => {
    expect((await list(acme, { q: "x".repeat(101) })).status).toBe(400);
  });
});

describe("event type, person and door", () => {
  it("keeps rows of any chosen event type, with or without the spec's additionalFilter", async () => {
    expect(idsOf(await list(acme, { ...MARCH, events: ["Door Forced Open", "Access Denied"] }))).toEqual(mine("forced", "denied"));
    expect(idsOf(await list(acme, { ...MARCH, events: ["Door Forced Open"], additionalFilter: "Access Granted" }))).toEqual(mine("granted", "forced"));
    // Without dates the tallies count: the total matches the rows, all of that type.
    const forced = await list(acme, { events: ["Door Forced Open"] });
    expect(forced.body.payload.total).toBe(forced.body.payload.rows.length);
    expect(new Set(forced.body.payload.rows.map((r) => r.activity.name))).toEqual(new Set(["Door Forced Open"]));
    expect(idsOf(forced)).toContain(ids.forced);
  });

  it("a person is whoever triggered the entry or is its user; a door is its device", async () => {
    expect(idsOf(await list(acme, { ...MARCH, person: 6 }))).toEqual(mine("ekey", "denied"));
    expect(idsOf(await list(acme, { ...MARCH, person: 3 }))).toEqual(mine("ekey", "granted"));
    expect(idsOf(await list(acme, { ...MARCH, door: 1 }))).toEqual(mine("granted", "forced"));
    expect(idsOf(await list(acme, { ...MARCH, door: 2, person: 6, events: ["Access Denied"], q: "zq19" }))).toEqual(mine("denied"));
    expect((await list(acme, { person: "me" })).status).toBe(400);
  });
});

describe("tenant isolation", () => {
  it("another company finds none of these rows by any filter", async () => {
    for (const body of [{ q: "zq19" }, { ...MARCH }, { person: 6 }, { door: 1 }, { events: ["Door Forced Open"], ...MARCH }]) {
      const r = await list(beta, body);
      expect(r.status, JSON.stringify(body)).toBe(200);
      for (const id of Object.values(ids)) expect(idsOf(r)).not.toContain(id);
    }
  });

  it("the pickers answer with the caller's company only", async () => {
    const page = (cookie: string, path: string) => consoleWorker.fetch(`${ORIGIN}${path}`, { headers: { Host: new URL(ORIGIN).host, Cookie: cookie } });
    const [acmeCookie, betaCookie] = await Promise.all([pageCookie("acme"), pageCookie("beta")]);
    const acmePeople = await (await page(acmeCookie, "/resources/activity-options?kind=person&q=admin")).json<{ options: { value: string; name: string }[] }>();
    expect(acmePeople.options).toContainEqual(expect.objectContaining({ value: "3", name: alice }));
    const betaPeople = await (
      await page(betaCookie, `/resources/activity-options?kind=person&q=${encodeURIComponent(alice.slice(0, 5))}`)
    ).json<{ options: { value: string }[] }>();
    expect(betaPeople.options.map((o) => o.value)).not.toContain("3");
    const betaDoors = await (await page(betaCookie, `/resources/activity-options?kind=door&q=${encodeURIComponent(device1)}`)).json<{ options: { value: string }[] }>();
    expect(betaDoors.options.map((o) => o.value)).not.toContain("1");
    const acmeDoors = await (await page(acmeCookie, `/resources/activity-options?kind=door&q=${encodeURIComponent(device1)}`)).json<{ options: { value: string }[] }>();
    expect(acmeDoors.options.map((o) => o.value)).toContain("1");
    const events = await (await page(acmeCookie, "/resources/activity-options?kind=event")).json<{ options: { value: string }[] }>();
    expect(events.options.slice(0, 4).map((o) => o.value)).toEqual(["Access Granted", "Access Denied", "Door Forced Open", "Door Held Open"]);
    expect(events.options.map((o) => o.value)).toContain("eKey Assigned");
    expect((await page(acmeCookie, "/resources/activity-options?kind=secrets")).status).toBe(400);
  });
});

describe("the page and its report follow the URL", () => {
  const get = async (who: "acme" | "auditor", path: string) => consoleWorker.fetch(`${ORIGIN}${path}`, { headers: { Host: new URL(ORIGIN).host, Cookie: await pageCookie(who) } });

  it("reads the dashboard's additionalFilter link as an event type, and the report takes the same filter", async () => {
    const html = await (await get("acme", "/activity?additionalFilter=Door+Forced+Open&q=zq19&lng=en")).text();
    expect(html).toContain("zq19 forced");
    expect(html).not.toContain("zq19 granted");
    const csv = await (await get("acme", "/resources/activity-report?event=Door+Forced+Open&event=Access+Denied&q=zq19")).text();
    const lines = csv.trim().split("\r\n").slice(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("zq19 forced");
    expect(lines[1]).toContain("zq19 denied");
    const oneDay = await (await get("acme", "/resources/activity-report?filterToDate=2019-03-01&q=zq19")).text();
    expect(oneDay.trim().split("\r\n").slice(1)).toEqual([expect.stringContaining("zq19 denied")]);
  });

  it("links names only to pages the reader may open", async () => {
    const path = `/activity?q=zq19&filterFromDate=2019-03-03&filterToDate=2019-03-03&lng=en`;
    const admin = await (await get("acme", path)).text();
    expect(admin).toContain(`href="/modifyUser?id=3"`);
    expect(admin).toContain(`href="/deviceDetails?id=1"`);
    // The auditor's role has devices and activity, not users.
    const auditor = await (await get("auditor", path)).text();
    expect(auditor).not.toContain(`href="/modifyUser?id=`);
    expect(auditor).toContain(`href="/deviceDetails?id=1"`);
    expect(auditor).toContain(alice);
    // Dates and triggers are text: no cell links back into the log (sort headers and pages still do).
    const body = admin.slice(admin.indexOf("<tbody"), admin.indexOf("</tbody>"));
    expect(body).toContain("zq19 key 100%");
    expect(body).not.toContain(`href="/activity?`);
  });
});
