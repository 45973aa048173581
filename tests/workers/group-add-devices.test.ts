import { and, eq, gt } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditRows, consoleWorker, createDeviceGroup, db, login, ORIGIN, pageCookie, schema } from "./helpers";

/**
 * Adding devices to a group from the group page's picker and through the API (decisions 0035, 0040):
 * a deactivated group takes none, another company's group or device is refused and nothing of it
 * changes, a read-only role is refused, and each added device has its audit entry and feed row.
 */
const BASE = "/api/admin";
const HOST = new URL(ORIGIN).host;
// Demo ids (db/seed/demo.ts): ACME devices 1–12 (serials SN-100001…), BETA device 13 and BETA's group "All Doors".
const BETA_DEVICE = 13;

let acme: string;
let acmeCookie: string;
let auditorCookie: string;

const { deviceGroupMembers: m, activityLogs: logs, gatewayChanges: feed } = schema;

const createGroup = (name: string, deviceIds: number[], status = 1) => createDeviceGroup(acme, name, deviceIds, { status });

const membersOf = async (groupId: number) => (await db().select({ id: m.deviceId }).from(m).where(eq(m.groupId, groupId))).map((x) => x.id).sort((a, b) => a - b);
const auditsOf = (groupId: number) => auditRows(eq(logs.targetDeviceGroupId, groupId));
const lastSeq = async () => (await db().select({ seq: feed.seq }).from(feed).orderBy(feed.seq)).at(-1)?.seq ?? 0;
const deviceFeedSince = async (seq: number) =>
  (
    await db()
      .select({ id: feed.entityId })
      .from(feed)
      .where(and(gt(feed.seq, seq), eq(feed.entity, "device")))
  )
    .map((x) => x.id)
    .sort((a, b) => a - b);

/** Posts the group page's form as the console's client does (`.data`), so the action's own status and reply come back. */
async function postPage(cookie: string, groupId: number, form: Record<string, string>) {
  const res = await consoleWorker.fetch(`${ORIGIN}/modifyDeviceGroup.data?id=${groupId}`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: { Host: HOST, Cookie: cookie, Origin: ORIGIN },
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}

async function picker(cookie: string, query: string) {
  const res = await consoleWorker.fetch(`${ORIGIN}/resources/group-devices?${query}`, { headers: { Host: HOST, Cookie: cookie } });
  const text = await res.text();
  return { status: res.status, body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

beforeAll(async () => {
  acme = await login("acme");
  [acmeCookie, auditorCookie] = await Promise.all([pageCookie("acme"), pageCookie("auditor")]);
});

describe("a deactivated group", () => {
  it("takes no devices through the API: 409 with the message, and no membership, audit entry or feed row", async () => {
    const groupId = await createGroup("Dormant Wing", [1], 3);
    const seq = await lastSeq();
    const r = await api(acme, "POST", `${BASE}/deviceGroup/addDevicesToGroup`, { groupId, deviceIds: [2, 3] });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("This device group is deactivated: activate it before adding devices");
    expect(await membersOf(groupId)).toEqual([1]);
    expect((await auditsOf(groupId)).filter((a) => a.deviceId != null)).toEqual([]);
    expect(await deviceFeedSince(seq)).toEqual([]);
  });

  it("takes no devices through the group page either: the reply carries the message as the form's error", async () => {
    const groupId = await createGroup("Dormant Annex", [12], 3);
    const r = await postPage(acmeCookie, groupId, { intent: "addDevices", groupId: String(groupId), deviceIds: "2,3" });
    expect(r.status).toBe(409);
    expect(r.text).toContain("This device group is deactivated: activate it before adding devices");
    expect(await membersOf(groupId)).toEqual([12]);
  });

  it("takes devices again once re-activated", async () => {
    const groupId = await createGroup("Dormant Loft", [12], 3);
    await db().update(schema.deviceGroups).set({ status: 1 }).where(eq(schema.deviceGroups.id, groupId));
    const r = await api(acme, "POST", `${BASE}/deviceGroup/addDevicesToGroup`, { groupId, deviceIds: [4] });
    expect(r.status).toBe(200);
    expect(await membersOf(groupId)).toEqual([4, 12]);
  });
});

describe("the group page's Add devices form", () => {
  it("adds the ticked devices in one go: a result per device, one audit entry and one feed row per added device", async () => {
    const groupId = await createGroup("Picker Hall", [5]);
    const seq = await lastSeq();
    const r = await postPage(acmeCookie, groupId, { intent: "addDevices", groupId: String(groupId), deviceIds: "5,6,7,8" });
    expect(r.status).toBe(200);
    for (const outcome of ["already", "done"]) expect(r.text).toContain(outcome);
    expect(await membersOf(groupId)).toEqual([5, 6, 7, 8]);
    const audits = (await auditsOf(groupId)).filter((a) => a.deviceId != null);
    expect(audits.map((a) => a.deviceId).sort((a, b) => a! - b!)).toEqual([6, 7, 8]);
    expect(await deviceFeedSince(seq)).toEqual([6, 7, 8]);
  });

  it("refuses another company's device for that row only and leaves that device untouched", async () => {
    const groupId = await createGroup("Picker Porch", [12]);
    const betaMemberships = await db().select().from(m).where(eq(m.deviceId, BETA_DEVICE));
    const r = await postPage(acmeCookie, groupId, { intent: "addDevices", groupId: String(groupId), deviceIds: `9,${BETA_DEVICE}` });
    expect(r.status).toBe(200);
    expect(r.text).toContain("notFound");
    expect(await membersOf(groupId)).toEqual([9, 12]);
    expect(await db().select().from(m).where(eq(m.deviceId, BETA_DEVICE))).toEqual(betaMemberships);
    expect((await auditsOf(groupId)).some((a) => a.deviceId === BETA_DEVICE)).toBe(false);
  });

  it("refuses another company's group with 404 and adds nothing to it", async () => {
    const betaGroup = (await db().query.deviceGroups.findFirst({ where: eq(schema.deviceGroups.companyId, 4) }))!.id;
    const before = await membersOf(betaGroup);
    const r = await postPage(acmeCookie, betaGroup, { intent: "addDevices", groupId: String(betaGroup), deviceIds: "10" });
    expect(r.status).toBe(404);
    expect(await membersOf(betaGroup)).toEqual(before);
    // The group id in the form, not the URL, names the group: pointing it at BETA's from an ACME page is refused the same way.
    const own = await createGroup("Picker Gate", [12]);
    const crossed = await postPage(acmeCookie, own, { intent: "addDevices", groupId: String(betaGroup), deviceIds: "10" });
    expect(crossed.status).toBe(404);
    expect(await membersOf(betaGroup)).toEqual(before);
    expect(await membersOf(own)).toEqual([12]);
  });

  it("refuses a read-only role with 403 and changes nothing", async () => {
    const groupId = await createGroup("Picker Attic", [12]);
    const r = await postPage(auditorCookie, groupId, { intent: "addDevices", groupId: String(groupId), deviceIds: "11" });
    expect(r.status).toBe(403);
    expect(await membersOf(groupId)).toEqual([12]);
    expect(await auditsOf(groupId)).toHaveLength(1); // only "Device Group Created"
  });

  it("answers an empty selection with the schema's message and writes nothing", async () => {
    const groupId = await createGroup("Picker Cellar", [12]);
    const r = await postPage(acmeCookie, groupId, { intent: "addDevices", groupId: String(groupId), deviceIds: "" });
    expect(r.status).toBe(400);
    expect(r.text).toContain("Select at least one row");
    expect(await membersOf(groupId)).toEqual([12]);
  });
});

describe("the picker's device list (/resources/group-devices)", () => {
  it("lists the company's devices outside the group, searched by name or serial and paged", async () => {
    const groupId = await createGroup("Picker Roof", [1, 2, 3]);
    const all = await picker(acmeCookie, `groupId=${groupId}`);
    expect(all.status).toBe(200);
    const ids = all.body.rows.map((d: { id: number }) => d.id);
    expect(all.body.total).toBe(ids.length);
    expect(ids).not.toContain(1);
    expect(ids).not.toContain(BETA_DEVICE);
    expect(ids).toEqual(expect.arrayContaining([4, 5, 6, 7, 8, 9, 10, 11, 12]));

    const bySerial = await picker(acmeCookie, `groupId=${groupId}&q=SN-100004`);
    expect(bySerial.body.rows.map((d: { id: number }) => d.id)).toEqual([4]);
    const inGroup = await picker(acmeCookie, `groupId=${groupId}&q=SN-100002`);
    expect(inGroup.body).toMatchObject({ rows: [], total: 0 });
    const name = (await db().query.devices.findFirst({ where: eq(schema.devices.id, 5) }))!.fullName;
    const byName = await picker(acmeCookie, `groupId=${groupId}&q=${encodeURIComponent(name.slice(0, 4).toLowerCase())}`);
    expect(byName.body.rows.map((d: { id: number }) => d.id)).toContain(5);

    const pageSize = all.body.pageSize as number;
    const late = await picker(acmeCookie, `groupId=${groupId}&page=2`);
    expect(late.body.rows).toHaveLength(Math.max(0, all.body.total - pageSize));
  });

  it("refuses another company's group (404), a read-only role (403) and a malformed query (400)", async () => {
    const betaGroup = (await db().query.deviceGroups.findFirst({ where: eq(schema.deviceGroups.companyId, 4) }))!.id;
    expect((await picker(acmeCookie, `groupId=${betaGroup}`)).status).toBe(404);
    const own = await createGroup("Picker Yard", [12]);
    expect((await picker(auditorCookie, `groupId=${own}`)).status).toBe(403);
    expect((await picker(acmeCookie, `groupId=${own}&q=${"x".repeat(101)}`)).status).toBe(400);
    expect((await picker(acmeCookie, "groupId=abc")).status).toBe(400);
  });
});
