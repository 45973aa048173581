import { z } from "zod";
import { addCompanySetupBody, companyCreateSchema, companyIdQuery, companyRefQuery, companyUpdateSchema, updateCompanyBody } from "~/schemas/companies";
import * as companies from "~/services/companies.server";
import type { CompanyDetails, CompanyDeviceRow, CompanyListRow, CompanyRef } from "~/services/companies.server";
import { parseInput } from "~/utils/parse-input.server";
import { splitPhone } from "~/utils/phone";
import { bit, bitShape } from "../flags.server";
import { endpoint } from "../define.server";
import { deliveringMessages } from "../message-delivery.server";

const message = z.object({ message: z.string() });
const origin = (request: Request) => new URL(request.url).origin;
const tag = "Companies";

const parentShape = z.object({ company_name: z.string(), company_id: z.string(), company_type: z.string() });
const companyRow = z.object({
  id: z.number(),
  company_name: z.string(),
  company_id: z.string(),
  company_type: z.string(),
  full_name: z.string(),
  poc_e_mail: z.string(),
  poc_country_code: z.string(),
  poc_phone_number: z.string(),
  parent_company: parentShape.nullable(),
  is_deactive: bitShape,
  totalDevices: z.number(),
  totalUsers: z.number(),
  totalInvoices: z.number(),
});

/** The product's names for a company (decision 0017): `company_id` is the 4-character code, flags are '1'/'0'. */ const companyDetails = z.object({
  id: z.number(),
  ...parentShape.shape,
  parent_company: parentShape.nullable(),
  discount_percentage: z.number(),
  poc_first_name: z.string(),
  poc_last_name: z.string(),
  poc_e_mail: z.string(),
  poc_country_code: z.string(),
  poc_phone_number: z.string(),
  next_billing_date: z.string().nullable(),
  is_deactive: bitShape,
  cell: z.string().describe("The gateway cell serving its doors"),
  totalDevices: z.number(),
  totalUsers: z.number(),
  totalInvoices: z.number(),
});
const companyDevice = z.object({
  id: z.number(),
  serial_front: z.string(),
  serial_back: z.string(),
  serial_number: z.string(),
  board_type: z.string(),
  status: z.string(),
  start_date: z.string().nullable(),
  full_name: z.string(),
});

const refPayload = (r: CompanyRef) => ({ company_name: r.name, company_id: r.code, company_type: r.type });
const counts = (r: { totalDevices: number; totalUsers: number; totalInvoices: number }) => ({
  totalDevices: r.totalDevices,
  totalUsers: r.totalUsers,
  totalInvoices: r.totalInvoices,
});

const listPayload = (r: CompanyListRow) => ({
  id: r.id,
  ...refPayload(r),
  full_name: r.contactName,
  poc_e_mail: r.email,
  poc_country_code: splitPhone(r.phone).countryCode,
  poc_phone_number: splitPhone(r.phone).phoneNumber,
  parent_company: r.parent ? refPayload(r.parent) : null,
  is_deactive: bit(r.isDeactive),
  ...counts(r),
});

const detailsPayload = (r: CompanyDetails) => ({
  id: r.id,
  ...refPayload(r),
  parent_company: r.parent ? refPayload(r.parent) : null,
  discount_percentage: r.discountPercentage,
  poc_first_name: r.pocFirstName,
  poc_last_name: r.pocLastName,
  poc_e_mail: r.pocEmail,
  poc_country_code: r.pocCountryCode,
  poc_phone_number: r.pocPhoneNumber,
  next_billing_date: r.nextBillingDate,
  is_deactive: bit(r.isDeactive),
  cell: r.cell,
  ...counts(r),
});

const devicePayload = (d: CompanyDeviceRow) => ({
  id: d.id,
  serial_front: d.serialFront,
  serial_back: d.serialBack,
  serial_number: d.serialNumber,
  board_type: d.boardType,
  status: d.status,
  start_date: d.startDate,
  full_name: d.fullName,
});

export const companyEndpoints = [
  endpoint({
    method: "POST",
    path: "/company/addCompany",
    tag,
    summary:
      "Creates a company ('Created Company') with its settings and its point of contact as its super admin, who is mailed an invite with a set-password link (7 days) that signs in to the console. companyId is the generated 4-character code, parentCompanyId the parent's code (oem: a root company; var and ec: root or var). timeZone (IANA) is required unless country is sent (then the country's main zone); country defaults to the contact phone's, language to the country's. 400 field errors (no zone, unknown zone), 422 code or name+email taken.",
    auth: "token",
    permission: { modules: "company", action: "add", guard: (_, auth) => companies.assertPlatformCaller(auth, "company", "add") },
    body: addCompanySetupBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), company_id: z.string() }) }),
    async handler({ db, env, auth, body, now, request, waitUntil }) {
      const r = await deliveringMessages({ env, waitUntil }, companies.addCompany(db, auth, parseInput(companyCreateSchema, body), { origin: origin(request), now }));
      return { message: r.message, payload: { id: r.id, company_id: r.code } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/getCompanyDetails",
    tag,
    summary: "One company in the spec's shape (404 outside the caller's view: root sees all, a reseller its subtree).",
    auth: "token",
    permission: { modules: ["company", "var_panel"], guard: (_, auth) => companies.assertPlatformCaller(auth) },
    query: companyIdQuery,
    response: z.object({ payload: companyDetails }),
    async handler({ db, auth, query }) {
      return { payload: detailsPayload(await companies.getCompanyDetails(db, auth, query.id)) };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/company/updateCompany",
    tag,
    summary: "Saves a company ('Modified Company'); type, parent and code are locked. isDeactive '1' ends the company's sessions and reaches gateways at once.",
    auth: "token",
    permission: { modules: "company", action: "modify", guard: (_, auth) => companies.assertPlatformCaller(auth, "company", "modify") },
    body: updateCompanyBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await companies.updateCompany(db, auth, parseInput(companyUpdateSchema, body), now);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/deleteCompany",
    tag,
    summary: "Soft-deletes a company ('Removed Company'); 422 while it has child companies or configured devices.",
    auth: "token",
    permission: { modules: "company", action: "delete", guard: (_, auth) => companies.assertPlatformCaller(auth, "company", "delete") },
    query: companyIdQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await companies.deleteCompany(db, auth, query.id, now);
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/getAllCompany",
    tag,
    summary: "Every company in the caller's view, sorted by name, with device, user and invoice counts.",
    auth: "token",
    permission: { modules: ["company", "var_panel"], guard: (_, auth) => companies.assertPlatformCaller(auth) },
    response: z.object({ payload: z.array(companyRow) }),
    async handler({ db, auth }) {
      return { payload: (await companies.listCompanies(db, auth)).rows.map(listPayload) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/getCompanyListForDropdown",
    tag,
    summary: "Companies that may be a parent (root and var companies in the caller's view), for the company form.",
    auth: "token",
    permission: { modules: ["company", "var_panel"], guard: (_, auth) => companies.assertPlatformCaller(auth) },
    response: z.object({ payload: z.array(parentShape.extend({ id: z.number() })) }),
    async handler({ db, auth }) {
      return { payload: (await companies.listParentOptions(db, auth)).map((p) => ({ id: p.id, ...refPayload(p) })) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/getCompanyRelatedDevices",
    tag,
    summary:
      "The devices of company_id (its id or its code) in the caller's view (404 otherwise): {company, details: [serial_front, serial_back, board_type, status, start_date]}.",
    auth: "token",
    permission: { modules: ["company", "var_panel"], guard: (_, auth) => companies.assertPlatformCaller(auth) },
    query: companyRefQuery,
    response: z.object({ payload: z.object({ company: parentShape, details: z.array(companyDevice) }) }),
    async handler({ db, auth, query }) {
      const r = await companies.listCompanyDevices(db, auth, await companies.companyIdOf(db, query.company_id));
      return { payload: { company: refPayload(r.company), details: r.details.map(devicePayload) } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/generateCompanyId",
    tag,
    summary: "A free 4-character company code (upper-case letters except V, and digits) for the company form.",
    auth: "token",
    permission: { modules: "company", action: "add", guard: (_, auth) => companies.assertPlatformCaller(auth, "company", "add") },
    response: z.object({ payload: z.object({ company_id: z.string() }) }),
    async handler({ db, auth }) {
      return { payload: { company_id: await companies.freeCompanyCode(db, auth) } };
    },
  }),
];
