import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, schema } from "./helpers";

let root: string;
let acme: string;

beforeAll(async () => {
  root = await login("root");
  acme = await login("acme");
});

const zip = (text: string, name = "fw.zip") => new File([new TextEncoder().encode(`PK\u0003\u0004${text}`)], name, { type: "application/zip" });
const upload = (token: string, fields: Record<string, string | File>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return api(token, "POST", "/api/admin/ota/addota", form);
};
const sha256 = async (bytes: ArrayBuffer) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
const activityCount = async (name: string) => (await auditsNamed(name)).length;

describe("POST /ota/addota", () => {
  it("stores the zip in R2 with size and SHA-256 and records an inactive release", async () => {
    const file = zip("release 3.1");
    const r = await upload(root, { version: "3.1", zip_file: file, version_description: "Faster unlock", device_type_id: "1" });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("OTA added successfully");
    const expected = await sha256(await file.arrayBuffer());
    expect(r.body.payload).toMatchObject({ size: file.size, sha256: expected });
    const object = await env.FIRMWARE.get(`firmware/${expected}.zip`);
    expect(object?.size).toBe(file.size);
    await object?.body.cancel();
    const [row] = await db().select().from(schema.firmwareReleases).where(eq(schema.firmwareReleases.id, r.body.payload.id));
    expect(row).toMatchObject({ version: "3.1", versionDescription: "Faster unlock", deviceTypeId: 1, isActive: false, companyId: 1 });
    const changes = await db()
      .select()
      .from(schema.gatewayChanges)
      .where(and(eq(schema.gatewayChanges.entity, "firmware"), eq(schema.gatewayChanges.entityId, row.id)));
    expect(changes).toHaveLength(1);
    expect(await activityCount("Firmware Uploaded")).toBeGreaterThan(0);
  });

  it("answers the spec's validation messages", async () => {
    expect((await upload(root, { zip_file: zip("x") })).body.message).toBe("version: Required version");
    expect((await upload(root, { version: "abc", zip_file: zip("x") })).body.message).toBe("version: Version must be numeric");
    const noFile = await upload(root, { version: "1" });
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe("zip_file: Required file");
    expect((await upload(root, { version: "1", zip_file: zip("x", "fw.exe") })).status).toBe(400);
    const json = await api(root, "POST", "/api/admin/ota/addota", { version: "1" });
    expect(json.status).toBe(400);
  });

  it("needs the company module: an ACME admin gets 403, no token 401", async () => {
    expect((await upload(acme, { version: "1", zip_file: zip("x") })).status).toBe(403);
    expect((await api(acme, "POST", "/api/admin/ota/getallota", { company_id: "" })).status).toBe(403);
    expect((await api(acme, "POST", "/api/admin/ota/activeota", { id: 1 })).status).toBe(403);
    expect((await api(acme, "POST", "/api/admin/ota/deleteota", { id: 1 })).status).toBe(403);
    expect((await api(null, "POST", "/api/admin/ota/getallota", { company_id: "" })).status).toBe(401);
  });
});

describe("getallota, activeota, deleteota", () => {
  it("lists, activates one per device type and deletes", async () => {
    const a = (await upload(root, { version: "4.0", zip_file: zip("a"), device_type_id: "2" })).body.payload.id;
    const b = (await upload(root, { version: "4.1", zip_file: zip("b"), device_type_id: "2" })).body.payload.id;
    const list = await api(root, "POST", "/api/admin/ota/getallota", { company_id: "" });
    expect(list.status).toBe(200);
    const rec = list.body.payload.find((x: any) => x.id === b);
    expect(rec).toMatchObject({ version: 4.1, version_label: "4.1", device_type: "MB-50", is_active: false, file_name: "fw.zip" });
    expect(rec.zip_files).toBe(`${ORIGIN}/api/admin/ota/download?id=${b}`);
    expect(rec.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    expect((await api(root, "POST", "/api/admin/ota/activeota", { id: a })).body.message).toBe("OTA activated successfully");
    expect((await api(root, "POST", "/api/admin/ota/activeota", { id: b })).status).toBe(200);
    const rows = await db().select().from(schema.firmwareReleases).where(eq(schema.firmwareReleases.deviceTypeId, 2));
    expect(rows.filter((r) => r.isActive).map((r) => r.id)).toEqual([b]);
    expect(await activityCount("Firmware Activated")).toBe(2);

    const del = await api(root, "POST", "/api/admin/ota/deleteota", { id: b });
    expect(del.body.message).toBe("OTA deleted successfully");
    const after = await api(root, "POST", "/api/admin/ota/getallota", { company_id: "" });
    expect(after.body.payload.some((x: any) => x.id === b)).toBe(false);
    expect(await activityCount("Firmware Removed")).toBe(1);
    const tomb = await db()
      .select()
      .from(schema.gatewayChanges)
      .where(and(eq(schema.gatewayChanges.entityId, b), eq(schema.gatewayChanges.op, "delete")));
    expect(tomb).toHaveLength(1);
  });

  it("answers 404 for unknown ids and 400 for missing ones", async () => {
    expect((await api(root, "POST", "/api/admin/ota/activeota", { id: 987654 })).status).toBe(404);
    expect((await api(root, "POST", "/api/admin/ota/deleteota", { id: 987654 })).status).toBe(404);
    expect((await api(root, "POST", "/api/admin/ota/deleteota", {})).status).toBe(400);
    expect((await api(root, "POST", "/api/admin/ota/activeota", "{not json")).status).toBe(400);
  });
});

describe("GET /ota/download (the zip_files link)", () => {
  it("returns the uploaded zip byte for byte as an attachment", async () => {
    const file = zip("download me", "placa añadida v5.zip");
    const id = (await upload(root, { version: "5.0", zip_file: file })).body.payload.id;
    const link = (await api(root, "POST", "/api/admin/ota/getallota", { company_id: "" })).body.payload.find((x: any) => x.id === id).zip_files;
    const res = await consoleWorker.fetch(link, { headers: { Authorization: root } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="placa a_adida v5.zip"; filename*=UTF-8''${encodeURIComponent("placa añadida v5.zip")}`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(await file.arrayBuffer()));
  });

  it("needs a token and the company module; unknown or removed releases are 404", async () => {
    const id = (await upload(root, { version: "5.1", zip_file: zip("gone") })).body.payload.id;
    expect((await api(null, "GET", `/api/admin/ota/download?id=${id}`)).status).toBe(401);
    expect((await api(acme, "GET", `/api/admin/ota/download?id=${id}`)).status).toBe(403);
    expect((await api(root, "GET", "/api/admin/ota/download?id=987654")).status).toBe(404);
    expect((await api(root, "GET", "/api/admin/ota/download?id=abc")).status).toBe(400);
    await api(root, "POST", "/api/admin/ota/deleteota", { id });
    expect((await api(root, "GET", `/api/admin/ota/download?id=${id}`)).status).toBe(404);
  });
});

describe("OpenAPI", () => {
  it("documents the OTA calls, addota as multipart", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    const addota = r.body.paths["/api/admin/ota/addota"]?.post;
    expect(addota?.requestBody?.content?.["multipart/form-data"]).toBeTruthy();
    for (const p of ["getallota", "deleteota", "activeota"]) expect(r.body.paths[`/api/admin/ota/${p}`]?.post).toBeTruthy();
    expect(r.body.paths["/api/admin/ota/download"]?.get?.responses?.["200"]?.content?.["application/zip"]).toBeTruthy();
  });
});
