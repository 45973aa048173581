// @clock: a transfer's today is the reseller's day at the Worker's instant; scripts/test.sh runs this file again half an hour before the DST switch.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditRows, consoleWorker, db, login, ORIGIN, pageCookie, schema, workerNow } from "./helpers";

/**
 * A device's settings after configuration (decision 0057): the lock type is one of a set, a
 * configured door's settings change in place (configuration and board secret kept, the change on the
 * gateway feed), and a transfer's "today" is the reseller's own day. Demo data: ACME doors 1-12,
 * BETA 13-16, RSL1 stock 17-36 (RSL1 runs in New York); ACME is RSL1's child.
 */
const A = "/api/admin";
const HOST = new URL(ORIGIN).host;
let reseller: string;
let acme: string;
let beta: string;
let auditor: string;

const device = async (id: number) => (await db().query.devices.findFirst({ where: eq(schema.devices.id, id) }))!;
const feedRows = async (id: number) =>
  Number((await env.DB.prepare("select count(*) as n from gateway_changes where entity = 'device' and entity_id = ?").bind(id).first<{ n: number }>())!.n);
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayIn = (ms: number, timeZone: string) => new Intl.DateTimeFormat("en-CA", { timeZone }).format(ms);

/** The details page's post as the browser sends it (`.data`), so the action's own status comes back. */
async function postDetails(cookie: string, id: number, fields: Record<string, string>) {
  const res = await consoleWorker.fetch(`${ORIGIN}/deviceDetails.data?id=${id}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Host: HOST, Cookie: cookie, Origin: ORIGIN },
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}

async function transferToAcme(ids: number[]) {
  const r = await api(reseller, "POST", `${A}/company/transferDevices`, {
    toCompany: "ACME",
    transferDevices: ids,
    status: "unconfigured",
    shippingDate: utcDay(workerNow() + 3 * 86_400_000),
    subscriptionTerm: 1,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

beforeAll(async () => {
  [reseller, acme, beta, auditor] = await Promise.all([login("var"), login("acme"), login("beta"), login("auditor")]);
});

describe("lock type", () => {
  it("is one of the set, on configuring and on editing; anything else is a 400 that changes nothing", async () => {
    await transferToAcme([20]);
    const bad = await api(acme, "POST", `${A}/device/configureDevice`, { id: 20, fullName: "Side Gate", displayName: "SG", lockType: "Banana" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Choose a lock type from the list");
    expect(await device(20)).toMatchObject({ status: "unconfigured", boardSecretHash: null });
    const good = await api(acme, "POST", `${A}/device/configureDevice`, { id: 20, fullName: "Side Gate", displayName: "SG", lockType: "Magnetic Lock" });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(await device(20)).toMatchObject({ status: "configured", lockType: "Magnetic Lock" });
    // None is allowed (the API's callers that never sent one), a near miss is not.
    expect((await api(acme, "POST", `${A}/device/updateDeviceSettings`, { id: 20, fullName: "Side Gate", displayName: "SG", lockType: "" })).status).toBe(200);
    const edit = await api(acme, "POST", `${A}/device/updateDeviceSettings`, { id: 20, fullName: "Side Gate", displayName: "SG", lockType: "magnetic lock" });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toBe("Choose a lock type from the list");
    expect(await device(20)).toMatchObject({ lockType: "" });
  });

  it("is a choice on the console's configure form: none is a 400 naming the field that configures nothing", async () => {
    await transferToAcme([23]);
    await db().update(schema.devices).set({ lockType: "" }).where(eq(schema.devices.id, 23));
    const cookie = await pageCookie("acme");
    const fields = { intent: "configure", id: "23", fullName: "Back Gate", displayName: "BG", relockTrigger: "Timer", relockTimer: "5", bluetoothPowerLevel: "3" };
    const refused = await postDetails(cookie, 23, { ...fields, lockType: "" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Choose the door's lock type");
    expect(await device(23)).toMatchObject({ status: "unconfigured", boardSecretHash: null });
    const configured = await postDetails(cookie, 23, { ...fields, lockType: "Deadbolt" });
    expect(configured.status, configured.text).toBeLessThan(400);
    expect(await device(23)).toMatchObject({ status: "configured", lockType: "Deadbolt" });
  });
});

describe("editing a configured door's settings", () => {
  it("changes them in place: configuration, secret and install date stay, the feed carries the new name and re-lock time", async () => {
    const before = await device(2);
    const feedBefore = await feedRows(2);
    const r = await api(acme, "POST", `${A}/device/updateDeviceSettings`, {
      id: 2,
      fullName: "Loading Dock East",
      displayName: "LDE",
      lockType: "Deadbolt",
      relockTrigger: "Timer",
      relockTimer: 12,
      sensor1OpenName: "Dock open",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Device settings saved");
    const after = await device(2);
    expect(after).toMatchObject({
      status: "configured",
      fullName: "Loading Dock East",
      displayName: "LDE",
      lockType: "Deadbolt",
      relockTimer: 12,
      sensor1OpenName: "Dock open",
      boardSecretHash: before.boardSecretHash,
      installedAt: before.installedAt,
      companyId: 3,
    });
    expect(await feedRows(2)).toBe(feedBefore + 1);
    const feed = await api(`Bearer ${String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET)}`, "GET", "/api/gateway/changes?limit=1000");
    let page = feed.body as { changes: { type: string; id: string; data?: Record<string, unknown> }[]; cursor: string; more: boolean };
    const all = [...page.changes];
    while (page.more) {
      page = (await api(`Bearer ${String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET)}`, "GET", `/api/gateway/changes?limit=1000&cursor=${page.cursor}`)).body;
      all.push(...page.changes);
    }
    expect(all.filter((c) => c.type === "device" && c.id === "2").at(-1)?.data).toMatchObject({ name: "Loading Dock East", unlockMs: 12_000, active: true });
    const audit = (await auditRows()).filter((a) => a.name === "Device Settings Changed" && a.deviceId === 2);
    expect(audit.map((a) => `${a.companyId} #${a.deviceId}: ${a.summary}`)).toEqual([`3 #2: Loading Dock East (${before.serialNumber})`]);
  });

  it("refuses what it must, with a 4xx, and changes nothing", async () => {
    await transferToAcme([21]);
    const before = [await device(3), await device(21)];
    const body = { id: 3, fullName: "Server Room B", displayName: "SRB" };
    expect((await api(auditor, "POST", `${A}/device/updateDeviceSettings`, body)).status).toBe(403);
    expect((await api(beta, "POST", `${A}/device/updateDeviceSettings`, body)).status).toBe(404);
    const clash = await api(acme, "POST", `${A}/device/updateDeviceSettings`, { ...body, fullName: "main entrance" });
    expect([clash.status, clash.body.message]).toEqual([422, "Device configuration already exists"]);
    const noName = await api(acme, "POST", `${A}/device/updateDeviceSettings`, { id: 3, displayName: "SRB" });
    expect([noName.status, noName.body.message]).toEqual([400, "Required full name"]);
    // An unconfigured board is configured, not edited.
    const unconfigured = await api(acme, "POST", `${A}/device/updateDeviceSettings`, { ...body, id: 21 });
    expect([unconfigured.status, unconfigured.body.message]).toEqual([404, "Device configuration could not be found"]);
    expect([await device(3), await device(21)]).toEqual(before);
  });

  it("goes through the details page's one form path, whose refusal names the field", async () => {
    const cookie = await pageCookie("acme");
    const fields = { intent: "edit", id: "4", fullName: "Lab A North", displayName: "LAN", relockTrigger: "Timer", relockTimer: "8", bluetoothPowerLevel: "2" };
    const refused = await postDetails(cookie, 4, { ...fields, lockType: "Banana" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Choose a lock type from the list");
    expect(await device(4)).toMatchObject({ fullName: "Lab A" });
    const saved = await postDetails(cookie, 4, { ...fields, lockType: "Mortise Lock" });
    expect(saved.status, saved.text).toBeLessThan(400);
    expect(await device(4)).toMatchObject({ status: "configured", fullName: "Lab A North", lockType: "Mortise Lock", relockTimer: 8, bluetoothPowerLevel: 2 });
  });
});

describe("a transfer's today", () => {
  it("is the reseller's own day: its shipping-date default, and what 'not in the past' compares with", async () => {
    const now = workerNow();
    // A zone whose day differs from UTC's now: 12 hours behind in the UTC morning, 14 ahead after.
    const zone = new Date(now).getUTCHours() < 12 ? "Etc/GMT+12" : "Pacific/Kiritimati";
    const local = dayIn(now, zone);
    expect(local).not.toBe(utcDay(now));
    const tz = (await db().query.timeZones.findFirst({ where: eq(schema.timeZones.name, zone) }))!;
    await db().update(schema.companySettings).set({ defaultTimeZoneId: tz.id }).where(eq(schema.companySettings.companyId, 2));

    // The transfer page starts its dialog at that day.
    const cookie = await pageCookie("var");
    const res = await consoleWorker.fetch(`${ORIGIN}/deviceTransfer.data?company_id=3`, { headers: { Host: HOST, Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`"${local}"`);

    // Behind UTC, the reseller's today is UTC's yesterday and is accepted; ahead, UTC's today is its yesterday and is refused.
    const body = { toCompany: "ACME", transferDevices: [22], status: "unconfigured", subscriptionTerm: 1 };
    const yesterday = await api(reseller, "POST", `${A}/company/transferDevices`, { ...body, shippingDate: local < utcDay(now) ? local : utcDay(now) });
    if (local < utcDay(now)) {
      expect(yesterday.status, JSON.stringify(yesterday.body)).toBe(200);
      expect(await device(22)).toMatchObject({ companyId: 3, shippingDate: local });
    } else {
      expect([yesterday.status, yesterday.body.message]).toEqual([400, "The shipping date cannot be in the past"]);
      expect((await api(reseller, "POST", `${A}/company/transferDevices`, { ...body, shippingDate: local })).status).toBe(200);
    }
  });
});
