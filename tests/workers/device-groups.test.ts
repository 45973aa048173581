import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditRows, db, deviceGroupBody, login, madridZoneId, schema } from "./helpers";

const BASE = "/api/admin";
const ACME_GROUP = 1; // Office Hours: devices 1, 5, 7
const BETA_GROUP = 5;
const BETA_DEVICE = 13;

let acme: string;
let beta: string;
let auditor: string;
let madrid: number;

const validGroup = () =>
  deviceGroupBody(madrid, "Loading Dock Crew", [2, 3], {
    display_name: "Dock",
    description: "Deliveries",
    sch_wednesday: "0",
    sch_thursday: "0",
    start_at: "07:00",
    end_at: "15:30",
  });

const activities = async (groupId: number) => (await auditRows(eq(schema.activityLogs.targetDeviceGroupId, groupId))).map(({ name }) => ({ name }));

const gatewayOps = async (groupId: number) =>
  db()
    .select({ op: schema.gatewayChanges.op })
    .from(schema.gatewayChanges)
    .where(and(eq(schema.gatewayChanges.entity, "group"), eq(schema.gatewayChanges.entityId, groupId)));

const members = async (groupId: number) =>
  (await db().select().from(schema.deviceGroupMembers).where(eq(schema.deviceGroupMembers.groupId, groupId))).map((m) => m.deviceId).sort((a, b) => a - b);

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
  madrid = await madridZoneId();
});

describe("GET /deviceGroup/getDeviceGroups", () => {
  it("lists the company's groups in the spec's names", async () => {
    const r = await api(acme, "GET", `${BASE}/deviceGroup/getDeviceGroups`);
    expect(r.status).toBe(200);
    expect(r.body.payload.map((g: { id: number }) => g.id).sort()).toEqual([1, 2, 3, 4]);
    const office = r.body.payload.find((g: { id: number }) => g.id === ACME_GROUP);
    expect(office).toMatchObject({
      full_name: "Office Hours",
      display_name: "Office",
      sch_monday: true,
      sch_saturday: false,
      start_at: "08:00",
      end_at: "18:00",
      is_all_day: "0",
      time_zone_id: madrid,
      time_zone: { name: "Europe/Madrid" },
      status: 1,
    });
    expect(r.body.payload.find((g: { id: number }) => g.id === 4).status).toBe(3);
  });
});

describe("GET /deviceGroup/getDeviceGroupDetails and getAvailableDevices", () => {
  it("returns the group with its devices", async () => {
    const r = await api(acme, "GET", `${BASE}/deviceGroup/getDeviceGroupDetails?id=${ACME_GROUP}`);
    expect(r.status).toBe(200);
    expect(r.body.payload.full_name).toBe("Office Hours");
    expect(r.body.payload.deviceDetails.map((d: { id: number }) => d.id).sort((a: number, b: number) => a - b)).toEqual([1, 5, 7]);
    expect(r.body.payload.deviceDetails[0]).toHaveProperty("serial_number");
  });

  it("lists available devices: outside the group, or every company device without a group", async () => {
    const inGroup = await api(acme, "GET", `${BASE}/deviceGroup/getAvailableDevices?groupId=${ACME_GROUP}`);
    expect(inGroup.status).toBe(200);
    const ids = inGroup.body.payload.map((d: { id: number }) => d.id);
    expect(ids).toHaveLength(9);
    expect(ids).not.toContain(1);
    const all = await api(acme, "GET", `${BASE}/deviceGroup/getAvailableDevices`);
    expect(all.body.payload).toHaveLength(12);
    expect(all.body.payload.map((d: { id: number }) => d.id)).not.toContain(BETA_DEVICE);
  });

  it("groupId=0, the add screen's group not yet created, lists every company device", async () => {
    const zero = await api(acme, "GET", `${BASE}/deviceGroup/getAvailableDevices?groupId=0`);
    expect(zero.status, JSON.stringify(zero.body)).toBe(200);
    const all = await api(acme, "GET", `${BASE}/deviceGroup/getAvailableDevices`);
    expect(zero.body.payload).toEqual(all.body.payload);
    expect((await api(acme, "GET", `${BASE}/deviceGroup/getAvailableDevices?groupId=-1`)).status).toBe(400);
  });

  it("answers 404 for another company's group and 400 for a bad id", async () => {
    expect((await api(acme, "GET", `${BASE}/deviceGroup/getDeviceGroupDetails?id=${BETA_GROUP}`)).status).toBe(404);
    expect((await api(acme, "GET", `${BASE}/deviceGroup/getAvailableDevices?groupId=${BETA_GROUP}`)).status).toBe(404);
    expect((await api(acme, "GET", `${BASE}/deviceGroup/getDeviceGroupDetails?id=abc`)).status).toBe(400);
  });
});

describe("POST /deviceGroup/createDeviceGroup", () => {
  it("creates the group, its members, the audit entry and a gateway change together", async () => {
    const r = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, validGroup());
    expect(r.status).toBe(200);
    const id = r.body.payload.id;
    expect(id).toBeGreaterThan(BETA_GROUP);
    const row = await db().query.deviceGroups.findFirst({ where: eq(schema.deviceGroups.id, id) });
    expect(row).toMatchObject({ companyId: 3, fullName: "Loading Dock Crew", schMonday: true, schWednesday: false, startAt: "07:00", status: 1 });
    expect(await members(id)).toEqual([2, 3]);
    expect(await activities(id)).toEqual([{ name: "Device Group Created" }]);
    // A new group holds no keys yet: its doors, which now name it, are what gateways must learn.
    const doorChanges = await db()
      .select({ id: schema.gatewayChanges.entityId })
      .from(schema.gatewayChanges)
      .where(and(eq(schema.gatewayChanges.entity, "device"), inArray(schema.gatewayChanges.entityId, [2, 3])));
    expect(new Set(doorChanges.map((c) => c.id))).toEqual(new Set([2, 3]));
  });

  it("clears the times of an all-day group", async () => {
    const r = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, { ...validGroup(), is_all_day: "1", start_at: "07:00", end_at: "" });
    expect(r.status).toBe(200);
    const row = await db().query.deviceGroups.findFirst({ where: eq(schema.deviceGroups.id, r.body.payload.id) });
    expect(row).toMatchObject({ isAllDay: true, startAt: null, endAt: null });
  });

  it.each([
    ["display_name", { display_name: "" }, "Display name is required"],
    ["full_name", { full_name: " " }, "Full name is required"],
    ["days", { sch_monday: "0", sch_tuesday: "0", sch_friday: "0" }, "Please select at least one day"],
    ["available_devices", { available_devices: [] }, "Please select at least one device"],
    ["time_zone_id", { time_zone_id: undefined }, "Time zone is required"],
    ["end_at", { end_at: "" }, "Start and End time are required"],
    ["start_at", { start_at: "7am" }, "Time must be HH:mm"],
  ])("refuses a missing or bad %s with 400", async (field, change, message) => {
    const before = (await db().select().from(schema.deviceGroups)).length;
    const r = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, { ...validGroup(), ...change });
    expect(r.status).toBe(400);
    expect(r.body.errors[field]).toContain(message);
    expect((await db().select().from(schema.deviceGroups)).length).toBe(before);
  });

  it("checks the schedule through the core (equal start and end)", async () => {
    const r = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, { ...validGroup(), start_at: "09:00", end_at: "09:00" });
    expect(r.status).toBe(400);
    expect(r.body.errorCode).toMatch(/Time/);
    expect(Object.keys(r.body.errors).some((k) => k === "start_at" || k === "end_at" || k === "_")).toBe(true);
    // The console's text (a Spanish page translates it), not the core's English sentence.
    expect(r.body.message).toBe("End time must differ from start time");
    expect(r.body.errors.end_at).toEqual(["End time must differ from start time"]);
  });

  it("refuses another company's devices with 404 and creates nothing", async () => {
    const before = (await db().select().from(schema.deviceGroups)).length;
    const r = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, { ...validGroup(), available_devices: [2, BETA_DEVICE] });
    expect(r.status).toBe(404);
    expect((await db().select().from(schema.deviceGroups)).length).toBe(before);
  });
});

describe("PUT /deviceGroup/modifyDeviceGroup", () => {
  it("saves the form and replaces the members", async () => {
    const r = await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...validGroup(), id: 2, full_name: "Night Watch", available_devices: [6, 9] });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Device Group Modified");
    expect(r.body.payload).toEqual({ id: 2, status: 1 });
    expect(await members(2)).toEqual([6, 9]);
    expect((await db().query.deviceGroups.findFirst({ where: eq(schema.deviceGroups.id, 2) }))!.fullName).toBe("Night Watch");
    expect(await activities(2)).toContainEqual({ name: "Device Group Modified" });
    expect(await gatewayOps(2)).toEqual([{ op: "upsert" }]);
  });

  it("deactivates with status 3 (logged as de-activated) and reactivates to 1", async () => {
    const off = await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...validGroup(), id: 3, status: 3 });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe("Device Group De-Activated");
    expect(await activities(3)).toContainEqual({ name: "Device Group De-Activated" });
    const on = await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...validGroup(), id: 3 });
    expect(on.body.payload.status).toBe(1);
  });

  it("keeps the zone when none is sent, validates like create", async () => {
    const r = await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...validGroup(), id: 3, time_zone_id: "" });
    expect(r.status).toBe(200);
    const bad = await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...validGroup(), id: 3, available_devices: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.available_devices).toContain("Please select at least one device");
  });

  it("answers 404 for another company's group and changes nothing", async () => {
    const r = await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...validGroup(), id: BETA_GROUP });
    expect(r.status).toBe(404);
    const row = await db().query.deviceGroups.findFirst({ where: eq(schema.deviceGroups.id, BETA_GROUP) });
    expect(row!.fullName).toBe("All Doors");
    expect(await members(BETA_GROUP)).toEqual([13, 14, 15, 16]);
  });
});

describe("DELETE /user/deleteDeviceGroup", () => {
  it("removes the group with its members and audit entry", async () => {
    const created = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, validGroup());
    const id = created.body.payload.id;
    const r = await api(acme, "DELETE", `${BASE}/user/deleteDeviceGroup?id=${id}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Removed Device Group");
    expect(await members(id)).toEqual([]);
    expect(await activities(id)).toContainEqual({ name: "Removed Device Group" });
    expect(await gatewayOps(id)).toContainEqual({ op: "delete" });
    expect((await api(acme, "GET", `${BASE}/deviceGroup/getDeviceGroupDetails?id=${id}`)).status).toBe(404);
  });

  it("answers 404 for another company's group and keeps it", async () => {
    expect((await api(acme, "DELETE", `${BASE}/user/deleteDeviceGroup?id=${BETA_GROUP}`)).status).toBe(404);
    expect((await api(beta, "GET", `${BASE}/deviceGroup/getDeviceGroupDetails?id=${BETA_GROUP}`)).status).toBe(200);
  });
});

describe("permissions", () => {
  it("refuses every call without the device_group module (403)", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/deviceGroup/getDeviceGroups"],
      ["GET", `/deviceGroup/getDeviceGroupDetails?id=${ACME_GROUP}`],
      ["GET", "/deviceGroup/getAvailableDevices"],
      ["POST", "/deviceGroup/createDeviceGroup", validGroup()],
      ["PUT", "/deviceGroup/modifyDeviceGroup", { ...validGroup(), id: ACME_GROUP }],
      ["DELETE", `/user/deleteDeviceGroup?id=${ACME_GROUP}`],
    ];
    for (const [method, path, body] of calls) expect((await api(auditor, method, BASE + path, body)).status, path).toBe(403);
  });

  it("with the module but no add, modify or delete right: reads only", async () => {
    await db().insert(schema.roleModules).values({ roleId: 4, companyId: 3, moduleKey: "device_group" });
    expect((await api(auditor, "GET", `${BASE}/deviceGroup/getDeviceGroups`)).status).toBe(200);
    expect((await api(auditor, "POST", `${BASE}/deviceGroup/createDeviceGroup`, validGroup())).status).toBe(403);
    expect((await api(auditor, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...validGroup(), id: ACME_GROUP })).status).toBe(403);
    expect((await api(auditor, "DELETE", `${BASE}/user/deleteDeviceGroup?id=${ACME_GROUP}`)).status).toBe(403);
    expect(await members(ACME_GROUP)).toEqual([1, 5, 7]);
  });

  it("needs a token (401)", async () => {
    expect((await api(null, "GET", `${BASE}/deviceGroup/getDeviceGroups`)).status).toBe(401);
  });
});
