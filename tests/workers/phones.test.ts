import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, DEMO, login, schema } from "./helpers";

/** International phones (docs/decisions/0037-phone-numbers-e164.md): E.164 stored, the spec's names in and out. */
const BASE = "/api/admin";
let acme: string;
let root: string;

beforeAll(async () => {
  [acme, root] = await Promise.all([login("acme"), login("root")]);
});

/** A Spanish mobile no other test uses: 6 + 8 digits. */
const spanishMobile = () => `6${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

const newUser = (countryCode: unknown, phoneNumer: unknown) => ({
  firstName: "Pilar",
  lastName: "Prieto",
  displayName: "Prieto, Pilar",
  emailId: `pilar.${Math.random().toString(36).slice(2, 8)}@acme.example`,
  countryCode,
  phoneNumer,
  isSOInterrupt: "1",
});

const storedPhone = async (id: number) => (await db().query.users.findFirst({ where: eq(schema.users.id, id) }))?.phoneNumber;

describe("user phones through the admin API", () => {
  it("accepts a Spanish mobile, stores E.164 and answers with the spec's pair", async () => {
    const national = spanishMobile();
    const r = await api(acme, "POST", `${BASE}/user/addUser`, newUser("034", `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.payload.id as number;
    expect(await storedPhone(id)).toBe(`+34${national}`);

    const details = await api(acme, "GET", `${BASE}/user/getUserDetails?id=${id}`);
    expect(details.body.payload).toMatchObject({ countryCode: "034", cell: national });
    const list = await api(acme, "GET", `${BASE}/user/getAllUsers?includeInactive=true`);
    expect(list.body.payload.find((u: { id: number }) => u.id === id)).toMatchObject({ country_code: "034", phone_number: national });
  });

  it.each([
    ["+34", (n: string) => n],
    ["34", (n: string) => n],
    ["0034", (n: string) => n],
    ["ES", (n: string) => n],
    ["001", (n: string) => `+34 ${n}`],
    ["001", (n: string) => `0034${n}`],
  ])("reads country %s with the number given as %s", async (countryCode, shape) => {
    const national = spanishMobile();
    const r = await api(acme, "POST", `${BASE}/user/addUser`, newUser(countryCode, shape(national)));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await storedPhone(r.body.payload.id)).toBe(`+34${national}`);
  });

  it("keeps the spec's US rule: 10 digits, with the mask, with or without leading zeros in the code", async () => {
    const digits = `555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const r = await api(acme, "POST", `${BASE}/user/addUser`, newUser("001", `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await storedPhone(r.body.payload.id)).toBe(`+1${digits}`);
    const details = await api(acme, "GET", `${BASE}/user/getUserDetails?id=${r.body.payload.id}`);
    expect(details.body.payload).toMatchObject({ countryCode: "001", cell: digits });
    const short = await api(acme, "POST", `${BASE}/user/addUser`, newUser("1", "555-123-456"));
    expect(short.status).toBe(400);
    expect(short.body.message).toBe("Cell number is invalid");
  });

  it("refuses bad input with the spec's messages, writing nothing", async () => {
    const before = (await db().select({ id: schema.users.id }).from(schema.users)).length;
    for (const [cc, n, message] of [
      ["034", "12345", "Cell number is invalid"],
      ["034", "61234567x", "Cell number is invalid"],
      ["034", "0612345678", "Cell number is invalid"],
      ["999", "612345678", "Country code is invalid"],
      ["", "612345678", "Country code is required"],
      ["034", "", "Cell is required"],
    ]) {
      const r = await api(acme, "POST", `${BASE}/user/addUser`, newUser(cc, n));
      expect(r.status, `${cc} ${n}`).toBe(400);
      expect(r.body.message, `${cc} ${n}`).toBe(message);
    }
    expect((await db().select({ id: schema.users.id }).from(schema.users)).length).toBe(before);
  });

  it("compares E.164 for uniqueness, whatever shape the number came in", async () => {
    const national = spanishMobile();
    expect((await api(acme, "POST", `${BASE}/user/addUser`, newUser("34", national))).status).toBe(200);
    const again = await api(acme, "POST", `${BASE}/user/addUser`, newUser("001", `+34 ${national}`));
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("This phone number already exists in this company");
  });

  it("modifies a phone from the spec's pair of another country", async () => {
    const created = await api(acme, "POST", `${BASE}/user/addUser`, newUser("001", `555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`));
    const id = created.body.payload.id as number;
    const national = spanishMobile();
    const r = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, { ...newUser("+34", national), userId: id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await storedPhone(id)).toBe(`+34${national}`);
  });
});

describe("sign-in by phone", () => {
  it("reads a national number in the company's default country, and an international one as given", async () => {
    // The ACME admin's phone is +1 555-100-0003 (db/seed/demo.ts); ACME's default country is +1.
    for (const userName of ["555-100-0003", "+1 555 100 0003", "0015551000003"]) {
      const r = await api(null, "POST", `${BASE}/user/login`, { companyId: "ACME", userName, password: DEMO.acme.password });
      expect(r.status, userName).toBe(200);
    }
  });
});

describe("company and settings phones", () => {
  it("a company's contact phone is stored as E.164 and read back as the spec's pair", async () => {
    const body = {
      companyName: "Iberia Doors",
      companyType: "ec",
      parentCompanyId: "RSL1",
      discountPercentage: 0,
      POCFirstName: "Inés",
      POCLastName: "Ibáñez",
      POCEmail: "ines@iberia.example",
      POCCountryCode: "+34",
      POCPhoneNumber: "612 345 678",
      companyId: "IB01",
      isDeactive: "0",
      timeZone: "Europe/Madrid",
    };
    const r = await api(root, "POST", `${BASE}/company/addCompany`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const company = await db().query.companies.findFirst({ where: eq(schema.companies.code, "IB01") });
    expect(company).toMatchObject({ pocPhoneNumber: "+34612345678", pocCountryCode: "034" });
    const detail = await api(root, "GET", `${BASE}/company/getCompanyDetails?id=${company!.id}`);
    expect(detail.body.payload).toMatchObject({ poc_country_code: "034", poc_phone_number: "612345678" });
    const bad = await api(root, "POST", `${BASE}/company/addCompany`, {
      ...body,
      companyName: "Bad",
      POCEmail: "b@b.example",
      POCCountryCode: "001",
      POCPhoneNumber: "555-1234",
      companyId: "IB02",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Telephone number at least 10 digits");
  });

  it("the default country takes any usual shape and the admin-reset contact phone is read in it", async () => {
    const settings = (await api(acme, "GET", `${BASE}/settings/getCompanySettings`)).body.payload;
    const r = await api(acme, "PUT", `${BASE}/settings/modifyCompanySettings`, {
      ...settings,
      default_country_code: "+34",
      password_reset_security: "admin",
      password_reset_phone: "612 345 678",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = await db().query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, 3) });
    expect(row).toMatchObject({ defaultCountryCode: "034", passwordResetPhone: "+34612345678" });
    const bad = await api(acme, "PUT", `${BASE}/settings/modifyCompanySettings`, { ...settings, password_reset_security: "admin", password_reset_phone: "12345" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.password_reset_phone ?? bad.body.message).toBeTruthy();
  });
});
