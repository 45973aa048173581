import { beforeAll, describe, expect, it } from "vitest";
import { api, login } from "./helpers";

const BASE = "/api/admin/company";
const C = { RSL1: 2, ACME: 3, BETA: 4 } as const;
let root: string;
let reseller: string;
let acme: string;
let beta: string;

beforeAll(async () => {
  [root, reseller, acme, beta] = await Promise.all([login("root"), login("var"), login("acme"), login("beta")]);
});

/** The same call with the company's id and with its code (either case) answers the same. */
async function sameByCode(token: string, call: string, id: number, code: string) {
  const byId = await api(token, "GET", `${BASE}/${call}?company_id=${id}`);
  for (const ref of [code, code.toLowerCase()]) {
    const byCode = await api(token, "GET", `${BASE}/${call}?company_id=${ref}`);
    expect(byCode, `${call} ${ref}`).toEqual(byId);
  }
  return byId;
}

describe("company_id takes the 4-character code as well as the id", () => {
  it("getCompanyRelatedDevices, getCompanyRelatedInvoices, getInvoiceList and getCompanyMailerConfig", async () => {
    expect((await sameByCode(root, "getCompanyRelatedDevices", C.BETA, "BETA")).status).toBe(200);
    expect((await sameByCode(root, "getCompanyRelatedInvoices", C.ACME, "ACME")).status).toBe(200);
    expect((await sameByCode(acme, "getInvoiceList", C.ACME, "ACME")).status).toBe(200);
    const mailer = await sameByCode(acme, "getCompanyMailerConfig", C.ACME, "ACME");
    expect(mailer.status).toBe(200);
    expect(mailer.body.payload.company_id).toBe(C.ACME);
  });

  it("a code outside the caller's view is refused exactly as its id is", async () => {
    expect((await sameByCode(reseller, "getCompanyRelatedDevices", C.BETA, "BETA")).status).toBe(404);
    expect((await sameByCode(acme, "getInvoiceList", C.RSL1, "RSL1")).status).toBe(404);
    expect((await sameByCode(reseller, "getCompanyRelatedInvoices", C.ACME, "ACME")).status).toBe(403);
    expect((await sameByCode(beta, "getCompanyMailerConfig", C.ACME, "ACME")).status).toBe(404);
  });

  it("an unknown code is a 404 and a malformed one a 400", async () => {
    expect((await api(root, "GET", `${BASE}/getCompanyRelatedDevices?company_id=ZZZZ`)).status).toBe(404);
    expect((await api(root, "GET", `${BASE}/getCompanyMailerConfig?company_id=ZZZZ`)).status).toBe(404);
    expect((await api(root, "GET", `${BASE}/getCompanyRelatedInvoices?company_id=abc`)).status).toBe(400);
  });
});
