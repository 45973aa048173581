import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditRows, consoleWorker, db, login, ORIGIN, pageCookie, schema } from "./helpers";

const BASE = "/api/admin/company";
const RSL1 = 2;
let root: string;
let reseller: string;
let acme: string;

const request = (over: Record<string, unknown> = {}) => ({
  companyName: "Omega Storage",
  companyType: "ec",
  renewalTerm: 3,
  pocID: 2,
  POCFirstName: "Olga",
  POCLastName: "Omega",
  POCEmail: "Olga@Omega.example",
  POCCountryCode: "001",
  POCPhoneNumber: "555-222-3333",
  ...over,
});

const activity = async () => (await auditRows()).map((r) => `${r.companyId} ${r.name}: ${r.summary}`);

beforeAll(async () => {
  [root, reseller, acme] = await Promise.all([login("root"), login("var"), login("acme")]);
});

describe("company requests", () => {
  let first: number;
  let second: number;

  it("a reseller creates requests ('Company Request Created'); the form's contact fields override pocID's", async () => {
    const r = await api(reseller, "POST", `${BASE}/createCompanyRequest`, request());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Company request created successfully");
    first = r.body.payload.id;
    const row = await db().query.companyRequests.findFirst({ where: eq(schema.companyRequests.id, first) });
    expect(row).toMatchObject({
      companyId: RSL1,
      pocUserId: 2,
      companyName: "Omega Storage",
      billingTerm: 3,
      pocEmail: "olga@omega.example",
      pocPhoneNumber: "+15552223333",
      status: "pending",
    });
    second = (await api(reseller, "POST", `${BASE}/createCompanyRequest`, request({ companyName: "Sigma Foods", POCEmail: "s@sigma.example", renewalTerm: "1" }))).body.payload.id;
    expect(await activity()).toContain(`${RSL1} Company Request Created: Omega Storage (3-Year)`);
  });

  it("the spec's four fields alone: the point of contact is the user pocID names", async () => {
    const r = await api(reseller, "POST", `${BASE}/createCompanyRequest`, { companyName: "Tau Dairy", companyType: "ec", renewalTerm: 1, pocID: 2 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = await db().query.companyRequests.findFirst({ where: eq(schema.companyRequests.id, r.body.payload.id) });
    const vera = await db().query.users.findFirst({ where: eq(schema.users.id, 2) });
    expect(row).toMatchObject({ pocUserId: 2, pocFirstName: "Vera", pocLastName: "Reseller", pocEmail: "var@reseller.example", pocPhoneNumber: vera!.phoneNumber });
    expect(vera!.phoneNumber).toMatch(/^\+\d{10,}$/);
    // Without pocID the caller is the contact; one field given overrides only itself.
    const own = await api(reseller, "POST", `${BASE}/createCompanyRequest`, { companyName: "Tau Mills", companyType: "ec", renewalTerm: 3, POCFirstName: "Tamara" });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(await db().query.companyRequests.findFirst({ where: eq(schema.companyRequests.id, own.body.payload.id) })).toMatchObject({
      pocUserId: 2,
      pocFirstName: "Tamara",
      pocLastName: "Reseller",
    });
    await db().delete(schema.companyRequests).where(eq(schema.companyRequests.companyName, "Tau Dairy"));
    await db().delete(schema.companyRequests).where(eq(schema.companyRequests.companyName, "Tau Mills"));
  });

  it.each([999, 3, "x"])("pocID %j, not a user of the caller's company, is 400 'The provided user is invalid'", async (pocID) => {
    const r = await api(reseller, "POST", `${BASE}/createCompanyRequest`, { companyName: "Tau Dairy", companyType: "ec", renewalTerm: 1, pocID });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("The provided user is invalid");
  });

  it.each([
    ["companyName", "", "Required company name"],
    ["renewalTerm", 2, "Required renewal term"],
    ["renewalTerm", "", "Required renewal term"],
    ["POCEmail", "x", "Email invalid"],
    ["POCPhoneNumber", "123", "Telephone number at least 10 digits"],
  ])("%s = %j → '%s'", async (field, value, message) => {
    const r = await api(reseller, "POST", `${BASE}/createCompanyRequest`, request({ [field]: value }));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });

  it("root is refused a company request (one to itself) with its reason, before its body is read, and nothing is stored", async () => {
    const before = (await db().select().from(schema.companyRequests)).length;
    for (const body of [request({ companyName: "Self Request" }), { companyName: "" }]) {
      const r = await api(root, "POST", `${BASE}/createCompanyRequest`, body);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe("The root company adds companies itself; company requests are for resellers");
    }
    expect((await db().select().from(schema.companyRequests)).length).toBe(before);
    // The page is refused too.
    const page = await consoleWorker.fetch(`${ORIGIN}/newCompanyRequest`, { headers: { Host: new URL(ORIGIN).host, Cookie: await pageCookie("root") } });
    expect(page.status).toBe(403);
  });

  it("an ec company can neither request nor see requests; root sees them all", async () => {
    expect((await api(acme, "POST", `${BASE}/createCompanyRequest`, request())).status).toBe(403);
    expect((await api(acme, "GET", `${BASE}/getCompanyRequest`)).status).toBe(403);
    const all = await api(root, "GET", `${BASE}/getCompanyRequest`);
    expect(all.status).toBe(200);
    expect(all.body.payload[0]).toMatchObject({ status: "pending", company_type: "ec", parent_company_detail: { company_name: "Northwind Resellers", company_id: "RSL1" } });
    const own = await api(reseller, "GET", `${BASE}/getCompanyRequest`);
    expect(own.body.payload.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([first, second]));
    expect(own.body.payload.every((x: { parent_company_detail: { company_id: string } }) => x.parent_company_detail.company_id === "RSL1")).toBe(true);
  });

  it("only root decides: the reseller and ec companies get 403 and nothing changes", async () => {
    expect((await api(reseller, "GET", `${BASE}/acceptCompanyRequest?requestId=${first}`)).status).toBe(403);
    expect((await api(reseller, "GET", `${BASE}/rejectCompanyRequest?id=${first}`)).status).toBe(403);
    expect((await api(acme, "GET", `${BASE}/acceptCompanyRequest?requestId=${first}`)).status).toBe(403);
    expect((await db().query.companyRequests.findFirst({ where: eq(schema.companyRequests.id, first) }))!.status).toBe("pending");
    expect((await api(root, "GET", `${BASE}/acceptCompanyRequest?requestId=99999`)).status).toBe(404);
  });

  it("accepting creates the company under the reseller, its super admin, the invite and the requester's notice", async () => {
    const r = await api(root, "GET", `${BASE}/acceptCompanyRequest?requestId=${first}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Company created successfully");
    const code = r.body.payload.company_id as string;
    expect(code).toMatch(/^[A-UW-Z0-9]{4}$/);
    const company = (await db().query.companies.findFirst({ where: eq(schema.companies.code, code) }))!;
    expect(company).toMatchObject({ name: "Omega Storage", type: "ec", parentId: RSL1, discountPercentage: 0, pocEmail: "olga@omega.example" });
    expect(company.nextBillingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const admin = await db().query.users.findFirst({ where: eq(schema.users.companyId, company.id) });
    expect(admin).toMatchObject({ email: "olga@omega.example", isSuperAdmin: true, accountSetupPending: true });
    const mails = await db().select().from(schema.mailOutbox);
    expect(mails.find((m) => m.toAddress === "olga@omega.example")?.body).toContain(code);
    expect(mails.find((m) => m.toAddress === "var@reseller.example" && m.subject.includes("accepted"))).toBeTruthy();
    const req = await db().query.companyRequests.findFirst({ where: eq(schema.companyRequests.id, first) });
    expect(req).toMatchObject({ status: "accepted", createdCompanyId: company.id, decidedByUserId: 1 });
    const log = await activity();
    expect(log).toContain("1 Company Request Accepted: Omega Storage for Northwind Resellers (RSL1)");
    expect(log).toContain(`1 Created Company: Omega Storage (${code})`);
    // The reseller now sees its new customer.
    const mine = await api(reseller, "GET", `${BASE}/getAllCompany`);
    expect(mine.body.payload.map((x: { company_id: string }) => x.company_id)).toContain(code);
    const again = await api(root, "GET", `${BASE}/acceptCompanyRequest?requestId=${first}`);
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("This company request has already been decided");
  });

  it("rejecting marks it rejected and tells the requester", async () => {
    const r = await api(root, "GET", `${BASE}/rejectCompanyRequest?id=${second}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Company request rejected");
    expect((await db().query.companyRequests.findFirst({ where: eq(schema.companyRequests.id, second) }))!.status).toBe("rejected");
    const mails = await db().select().from(schema.mailOutbox);
    expect(mails.find((m) => m.toAddress === "var@reseller.example" && m.subject === "Company request rejected: Sigma Foods")).toBeTruthy();
    expect(await activity()).toContain("1 Company Request Rejected: Sigma Foods");
    expect(await db().query.companies.findFirst({ where: eq(schema.companies.name, "Sigma Foods") })).toBeUndefined();
  });

  it("is in the OpenAPI document", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    for (const p of ["createCompanyRequest", "getCompanyRequest", "acceptCompanyRequest", "rejectCompanyRequest"]) expect(r.body.paths).toHaveProperty([`/api/admin/company/${p}`]);
  });
});
