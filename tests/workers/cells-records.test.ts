/**
 * Cells managed in the admin API (docs/decisions/0065-cells-managed-in-the-console.md): the platform
 * administrator adds a cell, changes its endpoint or label, and removes an empty one; a new endpoint reaches
 * the gateways' feed. Nobody else may, whatever their role says, and bad input is a 4xx that changes nothing.
 */
import { and, eq, gt, max } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, db, login, schema } from "./helpers";

const A = "/api/admin/cell";
const cell = async (name: string) => (await db().select().from(schema.cells).where(eq(schema.cells.name, name)))[0];
const feedHead = async () =>
  (
    await db()
      .select({ head: max(schema.gatewayChanges.seq) })
      .from(schema.gatewayChanges)
  )[0].head ?? 0;
const cellFeedRows = async (after: number) =>
  db()
    .select({ entity: schema.gatewayChanges.entity, cell: schema.gatewayChanges.cell, op: schema.gatewayChanges.op })
    .from(schema.gatewayChanges)
    .where(and(gt(schema.gatewayChanges.seq, after), eq(schema.gatewayChanges.entity, "cell")));

let root: string;
beforeAll(async () => {
  // The reseller may add, modify and delete companies of its own: still no cells.
  const [reseller] = await db().select({ id: schema.roles.id }).from(schema.roles).where(eq(schema.roles.companyId, 2));
  await db().insert(schema.roleModules).values({ roleId: reseller.id, companyId: 2, moduleKey: "company" });
  root = await login("root");
});

describe("who may add, change and remove cells", () => {
  it("answers a company admin, a reseller with the company right and the auditor 403 before reading the input, and changes nothing", async () => {
    for (const who of ["acme", "var", "auditor"] as const) {
      const token = await login(who);
      expect((await api(token, "POST", `${A}/addCell`, { name: "x1", mqtt_url: "mqtt://x1.example:1883" })).status, who).toBe(403);
      expect((await api(token, "POST", `${A}/addCell`, {})).status, who).toBe(403);
      expect((await api(token, "PUT", `${A}/modifyCell`, { name: "main", mqtt_url: "mqtt://evil.example:1883" })).status, who).toBe(403);
      expect((await api(token, "DELETE", `${A}/deleteCell`)).status, who).toBe(403);
    }
    expect(await cell("x1")).toBeUndefined();
    expect((await cell("main")).mqttUrl).toBe("mqtt://127.0.0.1:1883");
  });
});

describe("adding a cell", () => {
  it("refuses bad input with a 4xx naming the field, and adds nothing", async () => {
    const cases: [unknown, number, string][] = [
      [{}, 400, "Required cell name"],
      [{ name: "Bad Name", mqtt_url: "mqtt://a.example:1883" }, 400, "A cell name is up to 32 lower-case letters, digits and hyphens, starting with a letter or a digit"],
      [{ name: "eu-1" }, 400, "Required MQTT URL"],
      [{ name: "eu-1", mqtt_url: "http://a.example" }, 400, "The MQTT URL must be mqtt://host:port or mqtts://host:port"],
      [{ name: "eu-1", mqtt_url: "mqtt://a.example:70000" }, 400, "The MQTT URL must be mqtt://host:port or mqtts://host:port"],
      [{ name: "eu-1", mqtt_url: "mqtts://user:pw@a.example:8883" }, 400, "The MQTT URL must be mqtt://host:port or mqtts://host:port"],
      [{ name: "eu-1", mqtt_url: "mqtts://a.example:8883/path" }, 400, "The MQTT URL must be mqtt://host:port or mqtts://host:port"],
      [{ name: "eu-1", mqtt_url: "mqtts://a.example:8883", label: "x".repeat(65) }, 400, "The label is too long (at most 64 characters)"],
      [{ name: "main", mqtt_url: "mqtts://a.example:8883" }, 409, "There is already a cell with this name"],
      [{ name: "eu-1", mqtt_url: "MQTT://127.0.0.1:1883" }, 409, "Another cell already has this MQTT URL"],
      ["not json", 400, ""],
    ];
    for (const [body, status, message] of cases) {
      const r = await api(root, "POST", `${A}/addCell`, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      if (message) expect(r.body.message, JSON.stringify(body)).toBe(message);
    }
    expect(await cell("eu-1")).toBeUndefined();
    expect(await auditsNamed("Cell Created")).toHaveLength(0);
  });

  it("adds the cell with its endpoint in lower case, audits it, and puts its record on the feed", async () => {
    const head = await feedHead();
    const r = await api(root, "POST", `${A}/addCell`, { name: "eu-1", mqtt_url: " MQTTS://EU-1.Example.net:8884 ", label: "Europe 1" });
    expect(r).toMatchObject({ status: 200, body: { message: "Cell created" } });
    expect(await cell("eu-1")).toMatchObject({ mqttUrl: "mqtts://eu-1.example.net:8884", label: "Europe 1" });
    expect(await cellFeedRows(head)).toEqual([{ entity: "cell", cell: "eu-1", op: "upsert" }]);
    const [audit] = await auditsNamed("Cell Created");
    expect(audit).toMatchObject({ companyId: 1, summary: "eu-1 · mqtts://eu-1.example.net:8884" });
    const listed = await api(root, "GET", `${A}/getCells`);
    expect(listed.body.payload).toContainEqual({ name: "eu-1", mqtt_url: "mqtts://eu-1.example.net:8884", label: "Europe 1", companies: 0 });
  });
});

describe("changing a cell", () => {
  it("refuses an unknown cell (404), another cell's endpoint (409) and a bad URL (400)", async () => {
    expect((await api(root, "PUT", `${A}/modifyCell`, { name: "nowhere", mqtt_url: "mqtt://n.example:1883" })).status).toBe(404);
    expect((await api(root, "PUT", `${A}/modifyCell`, { name: "eu-1", mqtt_url: "mqtt://127.0.0.1:1883" })).status).toBe(409);
    expect((await api(root, "PUT", `${A}/modifyCell`, { name: "eu-1", mqtt_url: "tcp://x" })).status).toBe(400);
    expect((await cell("eu-1")).mqttUrl).toBe("mqtts://eu-1.example.net:8884");
  });

  it("a new label alone is saved and audited but does not reach the feed; a new endpoint does", async () => {
    let head = await feedHead();
    const label = await api(root, "PUT", `${A}/modifyCell`, { name: "eu-1", mqtt_url: "mqtts://eu-1.example.net:8884", label: "Europe one" });
    expect(label).toEqual({ status: 200, body: { message: "Cell saved", payload: { endpoint_changed: false } } });
    expect((await cell("eu-1")).label).toBe("Europe one");
    expect(await cellFeedRows(head)).toEqual([]);

    head = await feedHead();
    const moved = await api(root, "PUT", `${A}/modifyCell`, { name: "eu-1", mqtt_url: "mqtts://eu-1b.example.net:8884", label: "Europe one" });
    expect(moved.body.payload).toEqual({ endpoint_changed: true });
    expect(await cellFeedRows(head)).toEqual([{ entity: "cell", cell: "eu-1", op: "upsert" }]);
    const audits = await auditsNamed("Cell Modified");
    expect(audits.map((a) => a.summary).sort()).toEqual(["eu-1 · mqtts://eu-1.example.net:8884", "eu-1 · mqtts://eu-1.example.net:8884 → mqtts://eu-1b.example.net:8884"]);
  });
});

describe("removing a cell", () => {
  it("refuses the main cell and a cell companies are in (422), an unknown one (404), and removes an empty one", async () => {
    expect((await api(root, "DELETE", `${A}/deleteCell?name=main`)).status).toBe(422);
    expect((await api(root, "DELETE", `${A}/deleteCell?name=nowhere`)).status).toBe(404);
    expect((await api(root, "DELETE", `${A}/deleteCell`)).status).toBe(400);

    expect((await api(root, "PUT", "/api/admin/company/setCompanyCell", { company_id: "BETA", cell: "eu-1" })).status).toBe(200);
    const inUse = await api(root, "DELETE", `${A}/deleteCell?name=eu-1`);
    expect(inUse).toMatchObject({ status: 422, body: { message: "Companies are still in this cell: move them to another cell first" } });
    expect(await cell("eu-1")).toBeDefined();

    expect((await api(root, "PUT", "/api/admin/company/setCompanyCell", { company_id: "BETA", cell: "main" })).status).toBe(200);
    expect(await api(root, "DELETE", `${A}/deleteCell?name=eu-1`)).toMatchObject({ status: 200, body: { message: "Cell removed" } });
    expect(await cell("eu-1")).toBeUndefined();
    expect(await auditsNamed("Cell Removed")).toHaveLength(1);
    // A company cannot be moved into a removed cell.
    expect((await api(root, "PUT", "/api/admin/company/setCompanyCell", { company_id: "BETA", cell: "eu-1" })).status).toBe(422);
  });

  it("is described in the OpenAPI document with its permission", async () => {
    const doc = (await api(null, "GET", "/api/openapi.json")).body;
    for (const [path, method] of [
      ["addCell", "post"],
      ["modifyCell", "put"],
      ["deleteCell", "delete"],
    ]) {
      const op = doc.paths[`${A}/${path}`][method];
      expect(op.summary, path).toMatch(/Platform administrators only/);
      expect(op["x-permission"], path).toBeDefined();
    }
  });
});
