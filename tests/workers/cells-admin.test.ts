/**
 * Cells in the admin API (docs/decisions/0050-cells.md): the platform administrator lists the cells and moves
 * a company to another one; the move is remembered on the company, audited, and put on the gateways' feed in
 * the same statement. Nobody else may do either, whatever their role says.
 */
import { and, eq, gt, isNull, max } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, pageCookie, schema, workerNow } from "./helpers";

const ACME = 3;
const BETA = 4;
const B_URL = "mqtts://cell-b.example:8884";
const company = async (id: number) => (await db().select().from(schema.companies).where(eq(schema.companies.id, id)))[0];

let root: string;
beforeAll(async () => {
  await db().insert(schema.cells).values({ name: "b", mqttUrl: B_URL, label: "Cell B" });
  // The reseller may add, modify and delete companies of its own: still no cells.
  const [reseller] = await db().select({ id: schema.roles.id }).from(schema.roles).where(eq(schema.roles.companyId, 2));
  await db().insert(schema.roleModules).values({ roleId: reseller.id, companyId: 2, moduleKey: "company" });
  root = await login("root");
});

describe("who may see and move cells", () => {
  it("answers a company admin and a reseller (holding the right to modify companies) 403 on both calls, and moves nothing", async () => {
    for (const who of ["acme", "var"] as const) {
      const token = await login(who);
      expect((await api(token, "GET", "/api/admin/cell/getCells")).status, who).toBe(403);
      expect((await api(token, "PUT", "/api/admin/company/setCompanyCell", { id: BETA, cell: "b" })).status, who).toBe(403);
      // Refused before the body is read.
      expect((await api(token, "PUT", "/api/admin/company/setCompanyCell", { id: "x" })).status, who).toBe(403);
    }
    expect((await company(BETA)).cell).toBe("main");
  });

  it("lists every cell for the platform administrator, with its MQTT endpoint and live companies", async () => {
    const live = (await db().select({ id: schema.companies.id }).from(schema.companies).where(isNull(schema.companies.deletedAt))).length;
    const r = await api(root, "GET", "/api/admin/cell/getCells");
    expect(r.status).toBe(200);
    expect(r.body.payload).toEqual([
      { name: "b", mqtt_url: B_URL, label: "Cell B", companies: 0 },
      { name: "main", mqtt_url: "mqtt://127.0.0.1:1883", label: "Main", companies: live },
    ]);
  });
});

describe("moving a company", () => {
  it("refuses bad input with a 4xx and changes nothing", async () => {
    const cases: [unknown, number][] = [
      [{ id: BETA }, 400],
      [{ id: BETA, cell: "" }, 400],
      [{ id: BETA, cell: "B C" }, 400],
      [{ id: {}, cell: "b" }, 400],
      [{ id: "x", cell: "b" }, 404],
      [{ id: BETA, cell: "nowhere" }, 422],
      [{ id: BETA, cell: "main" }, 422],
      [{ id: 99999, cell: "b" }, 404],
      ["not json", 400],
    ];
    for (const [body, status] of cases) expect((await api(root, "PUT", "/api/admin/company/setCompanyCell", body)).status, JSON.stringify(body)).toBe(status);
    expect(await company(BETA)).toMatchObject({ cell: "main", previousCell: null, cellMovedAt: null });
  });

  it("moves the company, remembers the cell it left and when, audits it and puts it on the feed", async () => {
    const before = workerNow();
    const [{ head }] = await db()
      .select({ head: max(schema.gatewayChanges.seq) })
      .from(schema.gatewayChanges);
    const r = await api(root, "PUT", "/api/admin/company/setCompanyCell", { id: BETA, cell: "b" });
    expect(r).toEqual({ status: 200, body: { message: "Company moved to another cell", payload: { from_cell: "main", to_cell: "b" } } });

    const row = await company(BETA);
    expect(row).toMatchObject({ cell: "b", previousCell: "main" });
    expect(row.cellMovedAt).toBeGreaterThanOrEqual(before);
    expect(row.cellMovedAt).toBeLessThanOrEqual(workerNow());

    const audits = await auditsNamed("Moved Company To Cell");
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ companyId: 1, summary: `${row.name} (BETA) moved from cell main to cell b` });
    expect(JSON.parse(audits[0].details)).toEqual({ company_id: "BETA", from_cell: "main", to_cell: "b" });

    const feedRows = await db()
      .select({ entity: schema.gatewayChanges.entity, entityId: schema.gatewayChanges.entityId, cell: schema.gatewayChanges.cell })
      .from(schema.gatewayChanges)
      .where(and(gt(schema.gatewayChanges.seq, head ?? 0), eq(schema.gatewayChanges.entity, "companyCell")));
    expect(feedRows).toEqual([{ entity: "companyCell", entityId: BETA, cell: "main" }]);

    // Back again, named by its code as the spec's company_id: the cell it left is now b.
    expect((await api(root, "PUT", "/api/admin/company/setCompanyCell", { company_id: "beta", cell: "main" })).status).toBe(200);
    expect(await company(BETA)).toMatchObject({ cell: "main", previousCell: "b" });
    expect(await auditsNamed("Moved Company To Cell")).toHaveLength(2);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await api(null, "GET", "/api/openapi.json")).body;
    expect(doc.paths["/api/admin/cell/getCells"].get.summary).toMatch(/MQTT endpoint/);
    expect(doc.paths["/api/admin/company/setCompanyCell"].put.summary).toMatch(/Platform administrators only/);
  });
});

describe("the company's modify screen", () => {
  const headers = (cookie: string) => ({ Host: new URL(ORIGIN).host, Cookie: cookie, Origin: ORIGIN });
  const page = async (cookie: string, id: number) => (await consoleWorker.fetch(`${ORIGIN}/modifyCompany?id=${id}`, { headers: headers(cookie) })).text();
  const post = async (cookie: string, id: number, fields: Record<string, string>) => {
    const res = await consoleWorker.fetch(`${ORIGIN}/modifyCompany.data?id=${id}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: headers(cookie),
      redirect: "manual",
    });
    await res.text();
    return res.status;
  };

  it("shows the cells to the platform administrator only", async () => {
    const html = await page(await pageCookie("root"), ACME);
    expect(html).toContain("Gateway cell");
    expect(html).toContain(`Cell B (b) · ${B_URL}`);
    const reseller = await page(await pageCookie("var"), ACME);
    expect(reseller).toContain("Modify a Company");
    expect(reseller).not.toContain("Gateway cell");
  });

  it("moves the company when the platform administrator confirms, and refuses a reseller's post", async () => {
    const reseller = await pageCookie("var");
    expect(await post(reseller, ACME, { intent: "cell", cell: "b" })).toBeLessThan(500);
    expect((await company(ACME)).cell).toBe("main");

    const root = await pageCookie("root");
    expect(await post(root, ACME, { intent: "cell", cell: "b" })).toBeLessThan(400);
    expect(await company(ACME)).toMatchObject({ cell: "b", previousCell: "main" });
    expect(await post(root, ACME, { intent: "cell", cell: "nowhere" })).toBeLessThan(500);
    expect((await company(ACME)).cell).toBe("b");
  });
});
