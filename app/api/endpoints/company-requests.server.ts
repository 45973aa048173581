import { z } from "zod";
import { createCompanyRequestBody, rejectIdQuery, requestIdQuery } from "~/schemas/company-requests";
import * as requests from "~/services/company-requests.server";
import type { CompanyRequestRow } from "~/services/company-requests.server";
import { assertPlatformCaller } from "~/services/companies.server";
import { splitPhone } from "~/utils/phone";
import { endpoint } from "../define.server";
import { deliveringMessages } from "../message-delivery.server";

const message = z.object({ message: z.string() });
const tag = "Company requests";

/** A request in the product's names (decision 0017). */
const requestShape = z.object({
  id: z.number(),
  company_name: z.string(),
  company_type: z.string(),
  billing_term: z.number().describe("Years: 1 or 3"),
  status: z.enum(["pending", "accepted", "rejected"]),
  createdAt: z.number(),
  poc: z.object({ first_name: z.string(), last_name: z.string(), e_mail: z.string(), country_code: z.string(), phone_number: z.string() }),
  parent_company_detail: z.object({ company_name: z.string(), company_id: z.string(), poc_e_mail: z.string(), poc_phone_number: z.string(), poc_country_code: z.string() }),
  created_company_id: z.string().nullable().describe("The code of the company an accepted request created"),
});
const requestPayload = (r: CompanyRequestRow) => ({
  id: r.id,
  company_name: r.companyName,
  company_type: r.companyType,
  billing_term: r.billingTermYears,
  status: r.status,
  createdAt: r.createdAt,
  poc: {
    first_name: r.poc.firstName,
    last_name: r.poc.lastName,
    e_mail: r.poc.email,
    country_code: splitPhone(r.poc.phoneNumber).countryCode,
    phone_number: splitPhone(r.poc.phoneNumber).phoneNumber,
  },
  parent_company_detail: {
    company_name: r.reseller.name,
    company_id: r.reseller.code,
    poc_e_mail: r.reseller.email,
    poc_phone_number: splitPhone(r.reseller.phoneNumber).phoneNumber,
    poc_country_code: splitPhone(r.reseller.phoneNumber).countryCode,
  },
  created_company_id: r.createdCompanyCode,
});

export const companyRequestEndpoints = [
  endpoint({
    method: "POST",
    path: "/company/createCompanyRequest",
    tag,
    summary:
      "A reseller asks for a customer company ('Company Request Created'): companyName, companyType 'ec', renewalTerm 1 or 3, and pocID, the point of contact: a user of the caller's company (the caller when absent; another is 400 'The provided user is invalid'), whose name, e-mail and phone the request takes. POCFirstName, POCLastName, POCEmail, POCCountryCode and POCPhoneNumber, when given, override them. Root is refused with 403 (it adds companies itself).",
    auth: "token",
    permission: { modules: "var_panel", action: "add", guard: (_, auth) => requests.assertMayRequestCompany(auth) },
    body: createCompanyRequestBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now }) {
      const r = await requests.createCompanyRequest(db, auth, body, now);
      return { message: r.message, payload: { id: r.id } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/getCompanyRequest",
    tag,
    summary: "Company requests: every one for root, a reseller's own otherwise; pending first.",
    auth: "token",
    permission: { modules: ["company", "users", "var_panel"], guard: (_, auth) => assertPlatformCaller(auth, ["company", "users", "var_panel"]) },
    response: z.object({ payload: z.array(requestShape) }),
    async handler({ db, auth }) {
      return { payload: (await requests.listCompanyRequests(db, auth)).rows.map(requestPayload) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/acceptCompanyRequest",
    tag,
    summary: "Root accepts a request: the company is created under the requesting reseller, its point of contact becomes its super admin and is invited; the requester is told.",
    auth: "token",
    permission: { modules: "company", action: "add", guard: (_, auth) => requests.assertDecider(auth, "add") },
    query: requestIdQuery,
    response: z.object({ message: z.string(), payload: z.object({ company_id: z.string() }) }),
    async handler({ db, env, auth, query, now, request, waitUntil }) {
      const r = await deliveringMessages({ env, waitUntil }, requests.acceptCompanyRequest(db, auth, query.requestId, { origin: new URL(request.url).origin, now }));
      return { message: r.message, payload: { company_id: r.companyId } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/rejectCompanyRequest",
    tag,
    summary: "Root rejects a request; the requester is told by mail.",
    auth: "token",
    permission: { modules: "company", action: "modify", guard: (_, auth) => requests.assertDecider(auth, "modify") },
    query: rejectIdQuery,
    response: message,
    async handler({ db, env, auth, query, now, waitUntil }) {
      return deliveringMessages({ env, waitUntil }, requests.rejectCompanyRequest(db, auth, query.id, now));
    },
  }),
];
