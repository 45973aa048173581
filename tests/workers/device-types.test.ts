import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditRows, db, login, schema } from "./helpers";

const BASE = "/api/admin/deviceType";
let root: string;
let reseller: string;
let acme: string;

const audit = async () => (await auditRows()).map((r) => `${r.companyId} ${r.name}: ${r.summary}`);

beforeAll(async () => {
  [root, reseller, acme] = await Promise.all([login("root"), login("var"), login("acme")]);
});

describe("device types", () => {
  it("lists the types with how many devices use them", async () => {
    const r = await api(root, "GET", `${BASE}/getAllDeviceTypes`);
    expect(r.status).toBe(200);
    expect(r.body.payload.map((t: { device_code: string }) => t.device_code)).toEqual(["AB-100", "BL-1", "MB-50"]);
    expect(r.body.payload.find((t: { id: number }) => t.id === 1).devices).toBeGreaterThan(0);
    const one = await api(root, "GET", `${BASE}/getDeviceTypeDetails?id=2`);
    expect(one.body.payload).toEqual({ id: 2, device_code: "MB-50", device_type: "Mini Board" });
    expect((await api(root, "GET", `${BASE}/getDeviceTypeDetails?id=999`)).status).toBe(404);
  });

  it("adds, modifies and deletes with audit entries in the same batch", async () => {
    const add = await api(root, "POST", `${BASE}/addDeviceType`, { deviceCode: "KP-9", deviceType: "Keypad" });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(add.body.message).toBe("Device type created successfully");
    const row = (await db().query.deviceTypes.findFirst({ where: eq(schema.deviceTypes.deviceCode, "KP-9") }))!;
    const upd = await api(root, "PUT", `${BASE}/updateDeviceType`, { id: row.id, deviceCode: "KP-10", deviceType: "Keypad 2" });
    expect(upd.status).toBe(200);
    expect(upd.body.message).toBe("Device type modified successfully");
    expect(await db().query.deviceTypes.findFirst({ where: eq(schema.deviceTypes.id, row.id) })).toMatchObject({ deviceCode: "KP-10", deviceType: "Keypad 2" });
    const del = await api(root, "DELETE", `${BASE}/deleteDeviceType?id=${row.id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toBe("Device type deleted successfully");
    expect(await db().query.deviceTypes.findFirst({ where: eq(schema.deviceTypes.id, row.id) })).toBeUndefined();
    const log = await audit();
    expect(log).toContain("1 Device Type Created: Keypad (KP-9)");
    expect(log).toContain("1 Device Type Modified: Keypad 2 (KP-10)");
    expect(log).toContain("1 Removed Device Type: Keypad 2 (KP-10)");
  });

  it("validates with the spec's messages and keeps codes unique", async () => {
    const noCode = await api(root, "POST", `${BASE}/addDeviceType`, { deviceCode: " ", deviceType: "X" });
    expect(noCode.status).toBe(400);
    expect(noCode.body.message).toBe("Device Code is Required");
    const noType = await api(root, "POST", `${BASE}/addDeviceType`, { deviceCode: "X-1" });
    expect(noType.status).toBe(400);
    expect(noType.body.message).toBe("Device Type is Required");
    const dup = await api(root, "POST", `${BASE}/addDeviceType`, { deviceCode: "ab-100", deviceType: "Copy" });
    expect(dup.status).toBe(422);
    expect(dup.body.message).toBe("This device code already exists");
  });

  it("a type in use cannot be deleted", async () => {
    const r = await api(root, "DELETE", `${BASE}/deleteDeviceType?id=1`);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("This device type is in use by devices or firmware and cannot be deleted");
    expect(await db().query.deviceTypes.findFirst({ where: eq(schema.deviceTypes.id, 1) })).toBeTruthy();
  });

  it("companies without the module get 403 and change nothing", async () => {
    for (const token of [acme, reseller]) {
      expect((await api(token, "GET", `${BASE}/getAllDeviceTypes`)).status).toBe(403);
      expect((await api(token, "POST", `${BASE}/addDeviceType`, { deviceCode: "Z-1", deviceType: "Z" })).status).toBe(403);
      expect((await api(token, "PUT", `${BASE}/updateDeviceType`, { id: 2, deviceCode: "Z-2", deviceType: "Z" })).status).toBe(403);
      expect((await api(token, "DELETE", `${BASE}/deleteDeviceType?id=3`)).status).toBe(403);
    }
    expect(await db().query.deviceTypes.findFirst({ where: eq(schema.deviceTypes.id, 2) })).toMatchObject({ deviceCode: "MB-50" });
    expect(await db().query.deviceTypes.findFirst({ where: eq(schema.deviceTypes.deviceCode, "Z-1") })).toBeUndefined();
  });

  it("is in the OpenAPI document", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    for (const p of ["getAllDeviceTypes", "addDeviceType", "updateDeviceType", "deleteDeviceType", "getDeviceTypeDetails"])
      expect(r.body.paths).toHaveProperty([`/api/admin/deviceType/${p}`]);
  });
});
