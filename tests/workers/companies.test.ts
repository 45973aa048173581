import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { CODE_PATTERN, generateCompanyCode } from "~/schemas/companies";
import { api, auditsNamed, db, login, schema } from "./helpers";

const BASE = "/api/admin";
const IDS = { ROOT: 1, RSL1: 2, ACME: 3, BETA: 4 };

let root: string;
let reseller: string;
let acme: string;

const valid = (over: Record<string, unknown> = {}) => ({
  companyName: "Gamma Logistics",
  companyType: "ec",
  parentCompanyId: "RSL1",
  discountPercentage: 0,
  nextBillingDate: "2027-05-01",
  POCFirstName: "Gina",
  POCLastName: "Gamma",
  POCEmail: "Gina@Gamma.example",
  POCCountryCode: "001",
  POCPhoneNumber: "555-123-4567",
  companyId: "GM01",
  isDeactive: "0",
  timeZone: "America/New_York",
  ...over,
});

const companyByCode = (code: string) => db().query.companies.findFirst({ where: eq(schema.companies.code, code) });

/** A role in `companyId` with `modules` and every action, and a signed-in user holding it. */
async function signedInWith(companyId: number, code: string, modules: string[], email: string): Promise<string> {
  const [role] = await db()
    .insert(schema.roles)
    .values({ companyId, title: `Test ${email}`, permissionAll: true, permissionAdd: true, permissionModify: true, permissionDelete: true, permissionView: true })
    .returning({ id: schema.roles.id });
  await db()
    .insert(schema.roleModules)
    .values(modules.map((m) => ({ roleId: role.id, companyId, moduleKey: m })));
  const hash = (await db().query.users.findFirst({ where: eq(schema.users.email, "var@reseller.example") }))!.passwordHash;
  await db()
    .insert(schema.users)
    .values({ companyId, roleId: role.id, firstName: "T", lastName: "User", displayName: "User, T", email, passwordHash: hash, passwordChangedAt: Date.now(), isSuperAdmin: true });
  const r = await api(null, "POST", `${BASE}/user/login`, { companyId: code, userName: email, password: "Var#Demo2026" });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token;
}

beforeAll(async () => {
  [root, reseller, acme] = await Promise.all([login("root"), login("var"), login("acme")]);
});

describe("company codes", () => {
  it("are 4 characters: upper-case letters except V, and digits", () => {
    for (let i = 0; i < 500; i++) expect(generateCompanyCode()).toMatch(CODE_PATTERN);
    expect(generateCompanyCode(() => 0.999999)).toBe("9999");
    expect(generateCompanyCode(() => 0)).toBe("AAAA");
  });

  it("generateCompanyId hands out a free code", async () => {
    const r = await api(root, "GET", `${BASE}/company/generateCompanyId`);
    expect(r.status).toBe(200);
    expect(r.body.payload.company_id).toMatch(CODE_PATTERN);
    expect(await companyByCode(r.body.payload.company_id)).toBeUndefined();
  });
});

describe("POST /company/addCompany", () => {
  it("creates the company, its super admin, the invite and 'Created Company' together", async () => {
    const r = await api(root, "POST", `${BASE}/company/addCompany`, valid());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Company created successfully");
    const company = await companyByCode("GM01");
    expect(company).toMatchObject({ name: "Gamma Logistics", type: "ec", parentId: IDS.RSL1, pocEmail: "gina@gamma.example", pocPhoneNumber: "+15551234567", isDeactive: false });
    expect(r.body.payload).toEqual({ id: company!.id, company_id: "GM01" });
    const admin = await db().query.users.findFirst({ where: eq(schema.users.companyId, company!.id) });
    expect(admin).toMatchObject({ email: "gina@gamma.example", isSuperAdmin: true, accountSetupPending: true, passwordHash: null });
    const modules = await db().select().from(schema.roleModules).where(eq(schema.roleModules.roleId, admin!.roleId!));
    expect(modules.map((m) => m.moduleKey).sort()).toContain("users");
    const mail = await db().query.mailOutbox.findFirst({ where: eq(schema.mailOutbox.toAddress, "gina@gamma.example") });
    expect(mail?.body).toContain("GM01");
    const audit = await auditsNamed("Created Company");
    expect(audit).toContainEqual(expect.objectContaining({ companyId: IDS.ROOT, summary: "Gamma Logistics (GM01)" }));
  });

  it("accepts a lower-case code and stores it upper case; codes are unique case-insensitively", async () => {
    const first = await api(root, "POST", `${BASE}/company/addCompany`, valid({ companyId: "lc01", companyName: "Lower Co", POCEmail: "lc@lower.example" }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(await companyByCode("LC01")).toBeTruthy();
    const again = await api(root, "POST", `${BASE}/company/addCompany`, valid({ companyId: "Lc01", companyName: "Other", POCEmail: "o@other.example" }));
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("This company ID is already in use");
  });

  it("refuses a code with V or of the wrong length", async () => {
    for (const companyId of ["VVVV", "AB1", "ABCDE", "AB-1"]) {
      const r = await api(root, "POST", `${BASE}/company/addCompany`, valid({ companyId, companyName: `Bad ${companyId}` }));
      expect(r.status).toBe(400);
    }
  });

  it("keeps the name + email pair unique, but allows the same name or the same email alone", async () => {
    const dup = await api(root, "POST", `${BASE}/company/addCompany`, valid({ companyId: "GM02", companyName: "gamma logistics", POCEmail: "GINA@gamma.example" }));
    expect(dup.status).toBe(422);
    expect(dup.body.message).toBe("A company with this name and email already exists");
    const sameName = await api(root, "POST", `${BASE}/company/addCompany`, valid({ companyId: "GM03", POCEmail: "other@gamma.example" }));
    expect(sameName.status, JSON.stringify(sameName.body)).toBe(200);
    const sameEmail = await api(root, "POST", `${BASE}/company/addCompany`, valid({ companyId: "GM04", companyName: "Gamma Two" }));
    expect(sameEmail.status, JSON.stringify(sameEmail.body)).toBe(200);
  });

  it.each([
    ["companyType", "", "Required company type"],
    ["parentCompanyId", "", "Required parent company code"],
    ["discountPercentage", "", "Required discount percentage"],
    ["discountPercentage", 17, "Required discount percentage"],
    ["companyName", "", "Required company name"],
    ["POCFirstName", "", "Required first name"],
    ["POCLastName", "", "Required last name"],
    ["POCEmail", "", "Required email"],
    ["POCEmail", "not-an-email", "Email invalid"],
    ["POCCountryCode", "", "Required country code"],
    ["POCCountryCode", "1234", "The country code must be between 1 to 3 digits"],
    ["POCPhoneNumber", "", "Required telephone"],
    ["POCPhoneNumber", "555-1234", "Telephone number at least 10 digits"],
    ["companyId", "", "Required company ID"],
  ])("%s = %j → '%s'", async (field, value, message) => {
    const r = await api(root, "POST", `${BASE}/company/addCompany`, valid({ [field]: value, companyId: field === "companyId" ? value : "ZZ99" }));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect(await companyByCode("ZZ99")).toBeUndefined();
  });

  it("applies the parent rules: oem under root only; var and ec under root or var", async () => {
    const oemUnderVar = await api(root, "POST", `${BASE}/company/addCompany`, valid({ companyType: "oem", companyId: "OE01", companyName: "Oem", discountPercentage: 15 }));
    expect(oemUnderVar.status).toBe(422);
    expect(oemUnderVar.body.message).toBe("The parent company is not allowed for this company type");
    const ecUnderEc = await api(root, "POST", `${BASE}/company/addCompany`, valid({ parentCompanyId: "ACME", companyId: "EC01", companyName: "Under Acme" }));
    expect(ecUnderEc.status).toBe(422);
    const oem = await api(
      root,
      "POST",
      `${BASE}/company/addCompany`,
      valid({ companyType: "oem", parentCompanyId: "root", companyId: "OE02", companyName: "Oem", discountPercentage: 15 }),
    );
    expect(oem.status, JSON.stringify(oem.body)).toBe(200);
    const unknown = await api(root, "POST", `${BASE}/company/addCompany`, valid({ parentCompanyId: "NOPE", companyId: "EC02", companyName: "Nowhere" }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe("The provided company code is invalid");
  });
});

describe("hierarchy", () => {
  it("root sees every company; the reseller only its subtree; an ec company none", async () => {
    const all = await api(root, "GET", `${BASE}/company/getAllCompany`);
    expect(all.status).toBe(200);
    const codes = all.body.payload.map((r: { company_id: string }) => r.company_id);
    expect(codes).toEqual(expect.arrayContaining(["ROOT", "RSL1", "ACME", "BETA"]));
    const acmeRow = all.body.payload.find((r: { company_id: string }) => r.company_id === "ACME");
    expect(acmeRow).toMatchObject({ company_name: "Acme Corporation", is_deactive: "0", parent_company: { company_id: "RSL1", company_type: "var" } });
    expect(acmeRow.totalDevices).toBe(12);
    expect(acmeRow.totalUsers).toBeGreaterThan(0);

    const mine = await api(reseller, "GET", `${BASE}/company/getAllCompany`);
    expect(mine.status).toBe(200);
    const mineCodes = mine.body.payload.map((r: { company_id: string }) => r.company_id);
    expect(mineCodes).toContain("ACME");
    expect(mineCodes).not.toContain("BETA");
    expect(mineCodes).not.toContain("RSL1");
    expect(mineCodes).not.toContain("ROOT");

    for (const path of ["/company/getAllCompany", "/company/getCompanyListForDropdown", `/company/getCompanyDetails?id=${IDS.ACME}`]) {
      const r = await api(acme, "GET", BASE + path);
      expect(r.status, path).toBe(403);
    }
  });

  it("the reseller reads its child and gets 404 for a company outside its subtree", async () => {
    const child = await api(reseller, "GET", `${BASE}/company/getCompanyDetails?id=${IDS.ACME}`);
    expect(child.status).toBe(200);
    expect(child.body.payload).toMatchObject({ company_id: "ACME", company_type: "ec", parent_company: { company_id: "RSL1" } });
    for (const id of [IDS.BETA, IDS.ROOT, IDS.RSL1, 99999]) {
      const r = await api(reseller, "GET", `${BASE}/company/getCompanyDetails?id=${id}`);
      expect(r.status, String(id)).toBe(404);
    }
  });

  it("a reseller with the company module changes only its subtree: another reseller's child is 404 and unchanged", async () => {
    // A second reseller with a child, made by root.
    expect(
      (
        await api(
          root,
          "POST",
          `${BASE}/company/addCompany`,
          valid({ companyType: "var", parentCompanyId: "ROOT", companyId: "RS02", companyName: "Reseller Two", POCEmail: "two@rs.example", discountPercentage: 15 }),
        )
      ).status,
    ).toBe(200);
    expect(
      (await api(root, "POST", `${BASE}/company/addCompany`, valid({ parentCompanyId: "RS02", companyId: "KID2", companyName: "Kid Two", POCEmail: "kid@two.example" }))).status,
    ).toBe(200);
    const kid = (await companyByCode("KID2"))!;
    const rsl1Admin = await signedInWith(IDS.RSL1, "RSL1", ["company", "var_panel"], "platform@reseller.example");

    const read = await api(rsl1Admin, "GET", `${BASE}/company/getCompanyDetails?id=${kid.id}`);
    expect(read.status).toBe(404);
    const change = await api(rsl1Admin, "PUT", `${BASE}/company/updateCompany`, { ...valid({ companyName: "Hijacked", POCEmail: "kid@two.example" }), id: kid.id });
    expect(change.status).toBe(404);
    const remove = await api(rsl1Admin, "DELETE", `${BASE}/user/deleteCompany?id=${kid.id}`);
    expect(remove.status).toBe(404);
    expect(await companyByCode("KID2")).toMatchObject({ name: "Kid Two", deletedAt: null });

    // Its own subtree: it may create a customer under itself, not under another reseller or root.
    const own = await api(rsl1Admin, "POST", `${BASE}/company/addCompany`, valid({ companyId: "RC01", companyName: "Reseller Customer", POCEmail: "rc@rc.example" }));
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const elsewhere = await api(
      rsl1Admin,
      "POST",
      `${BASE}/company/addCompany`,
      valid({ parentCompanyId: "RS02", companyId: "RC02", companyName: "Elsewhere", POCEmail: "e@e.example" }),
    );
    expect(elsewhere.status).toBe(422);
    expect(await companyByCode("RC02")).toBeUndefined();
    const dropdown = await api(rsl1Admin, "GET", `${BASE}/company/getCompanyListForDropdown`);
    expect(dropdown.body.payload.map((r: { company_id: string }) => r.company_id)).toEqual(["RSL1"]);
  });

  it("var_panel alone may read but not change companies", async () => {
    const r = await api(reseller, "PUT", `${BASE}/company/updateCompany`, { ...valid({ companyName: "Acme X", POCEmail: "admin@acme.example" }), id: IDS.ACME });
    expect(r.status).toBe(403);
    expect((await companyByCode("ACME"))!.name).toBe("Acme Corporation");
  });
});

describe("PUT /company/updateCompany", () => {
  it("saves the editable fields and ignores type, parent and code", async () => {
    const id = (await companyByCode("GM04"))!.id;
    const r = await api(root, "PUT", `${BASE}/company/updateCompany`, {
      ...valid({ companyName: "Gamma Renamed", POCPhoneNumber: "555-999-0000", discountPercentage: 30, companyType: "var", parentCompanyId: "ROOT", companyId: "XXXX" }),
      id,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Company modified successfully");
    expect(await db().query.companies.findFirst({ where: eq(schema.companies.id, id) })).toMatchObject({
      name: "Gamma Renamed",
      code: "GM04",
      type: "ec",
      parentId: IDS.RSL1,
      discountPercentage: 30,
      pocPhoneNumber: "+15559990000",
    });
    expect(await auditsNamed("Modified Company")).toContainEqual(expect.objectContaining({ summary: "Gamma Renamed (GM04)" }));
  });

  it("de-activating ends the company's sessions and inserts its gateway feed row in the same batch", async () => {
    const acmeAgain = await login("acme");
    const before = await db()
      .select({ n: sql<number>`count(*)` })
      .from(schema.sessions)
      .where(eq(schema.sessions.companyId, IDS.ACME));
    expect(before[0].n).toBeGreaterThan(0);
    const detail = (await api(root, "GET", `${BASE}/company/getCompanyDetails?id=${IDS.ACME}`)).body.payload;
    const body = {
      id: IDS.ACME,
      companyName: detail.company_name,
      discountPercentage: detail.discount_percentage,
      POCFirstName: detail.poc_first_name,
      POCLastName: detail.poc_last_name,
      POCEmail: detail.poc_e_mail,
      POCCountryCode: detail.poc_country_code,
      POCPhoneNumber: detail.poc_phone_number,
      nextBillingDate: detail.next_billing_date,
      isDeactive: "1",
    };
    const r = await api(root, "PUT", `${BASE}/company/updateCompany`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = await db()
      .select({ n: sql<number>`count(*)` })
      .from(schema.sessions)
      .where(eq(schema.sessions.companyId, IDS.ACME));
    expect(after[0].n).toBe(0);
    expect((await api(acmeAgain, "GET", `${BASE}/user/getAllUsers`)).status).toBe(401);
    const feed = await db()
      .select()
      .from(schema.gatewayChanges)
      .where(and(eq(schema.gatewayChanges.entity, "company"), eq(schema.gatewayChanges.entityId, IDS.ACME)));
    expect(feed.length).toBeGreaterThan(0);
    expect(await auditsNamed("Modified Company")).toContainEqual(expect.objectContaining({ summary: "Acme Corporation (ACME) de-activated" }));
    const signIn = await api(null, "POST", `${BASE}/user/login`, { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" });
    expect(signIn.status).not.toBe(200);

    // Re-activate, so later files are not affected (each file has its own storage anyway).
    expect((await api(root, "PUT", `${BASE}/company/updateCompany`, { ...body, isDeactive: "0" })).status).toBe(200);
    expect((await companyByCode("ACME"))!.isDeactive).toBe(false);
  });

  it("refuses de-activating one's own company", async () => {
    const r = await api(root, "PUT", `${BASE}/company/updateCompany`, { ...valid({ companyName: "Platform Root", POCEmail: "root@example.com" }), id: IDS.ROOT, isDeactive: "1" });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("You cannot remove or de-activate your own company");
  });
});

describe("DELETE /user/deleteCompany", () => {
  it("refuses a company with child companies, and one with configured devices", async () => {
    const parent = await api(root, "DELETE", `${BASE}/user/deleteCompany?id=${IDS.RSL1}`);
    expect(parent.status).toBe(422);
    expect(parent.body.message).toBe("This company still has child companies; remove or move them first");
    const withDevices = await api(root, "DELETE", `${BASE}/user/deleteCompany?id=${IDS.BETA}`);
    expect(withDevices.status).toBe(422);
    expect(withDevices.body.message).toBe("This company still has configured devices; retire or transfer them first");
    expect((await companyByCode("BETA"))!.deletedAt).toBeNull();
  });

  it("soft-deletes, ends its sessions, feeds gateways and writes 'Removed Company'; the pair is free again", async () => {
    const company = (await companyByCode("GM03"))!;
    const companyChanges = () =>
      db()
        .select()
        .from(schema.gatewayChanges)
        .where(and(eq(schema.gatewayChanges.entity, "company"), eq(schema.gatewayChanges.entityId, company.id)));
    const before = (await companyChanges()).length;
    const r = await api(root, "DELETE", `${BASE}/user/deleteCompany?id=${company.id}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Company removed successfully");
    expect((await companyByCode("GM03"))!.deletedAt).not.toBeNull();
    expect(await auditsNamed("Removed Company")).toContainEqual(expect.objectContaining({ summary: `${company.name} (GM03)`, companyId: IDS.ROOT }));
    expect((await companyChanges()).length).toBe(before + 1);
    expect((await api(root, "GET", `${BASE}/company/getCompanyDetails?id=${company.id}`)).status).toBe(404);
    const again = await api(root, "POST", `${BASE}/company/addCompany`, valid({ companyId: "GM05", POCEmail: company.pocEmail }));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it("an ec company may not delete", async () => {
    const r = await api(acme, "DELETE", `${BASE}/user/deleteCompany?id=${IDS.BETA}`);
    expect([401, 403]).toContain(r.status);
  });
});

describe("GET /company/getCompanyRelatedDevices", () => {
  it("lists a visible company's devices; other callers get 403 or 404", async () => {
    const r = await api(root, "GET", `${BASE}/company/getCompanyRelatedDevices?company_id=${IDS.BETA}`);
    expect(r.status).toBe(200);
    expect(r.body.payload.company).toEqual({ company_name: "Beta Labs", company_id: "BETA", company_type: "ec" });
    expect(r.body.payload.details).toHaveLength(4);
    expect(r.body.payload.details[0]).toMatchObject({ status: "configured", board_type: expect.any(String), serial_front: expect.stringMatching(/^SF/) });
    expect((await api(root, "GET", `${BASE}/company/getCompanyRelatedDevices?company_id=99999`)).status).toBe(404);
    // var_panel alone (the transfer screen) opens the caller's direct children only.
    expect((await api(reseller, "GET", `${BASE}/company/getCompanyRelatedDevices?company_id=${IDS.ACME}`)).status).toBe(200);
    expect((await api(reseller, "GET", `${BASE}/company/getCompanyRelatedDevices?company_id=${IDS.BETA}`)).status).toBe(404);
    // An ec company has no such view (a fresh session: an earlier test de-activated ACME once).
    expect((await api(await login("acme"), "GET", `${BASE}/company/getCompanyRelatedDevices?company_id=${IDS.ACME}`)).status).toBe(403);
  });
});

describe("OpenAPI", () => {
  it("documents the company calls", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    for (const p of ["addCompany", "getCompanyDetails", "updateCompany", "getAllCompany", "getCompanyListForDropdown"])
      expect(JSON.stringify(r.body.paths)).toContain(`/company/${p}`);
    expect(r.body.paths).toHaveProperty(["/api/admin/user/deleteCompany"]);
  });
});
