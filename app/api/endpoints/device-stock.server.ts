import { z } from "zod";
import { assertVarPanel, getCompanyStock, listChildCompanies, transferDevices } from "~/services/device-stock.server";
import { splitPhone } from "~/utils/phone";
import { bit, bitShape } from "../flags.server";
import { endpoint } from "../define.server";

const tag = "Reseller stock";

const childRow = z.object({
  id: z.number(),
  company_name: z.string(),
  company_id: z.string(),
  company_type: z.string(),
  full_name: z.string(),
  poc_phone_number: z.string(),
  poc_country_code: z.string(),
  poc_e_mail: z.string(),
  totalDevices: z.number(),
  totalUsers: z.number(),
  is_deactive: bitShape,
});

/** Loose on purpose: the service validates with the caller's date, so the spec's messages come from one schema. */
const transferBody = z.object({
  fromCompany: z.union([z.number(), z.string()]).optional(),
  toCompany: z.union([z.number(), z.string()]).optional(),
  transferDevices: z
    .array(z.union([z.number(), z.string()]))
    .max(500)
    .optional(),
  status: z.string().max(20).optional(),
  shippingDate: z.string().max(20).nullish(),
  subscriptionTerm: z.union([z.number(), z.string().max(4)]).nullish(),
});

export const deviceStockEndpoints = [
  endpoint({
    method: "GET",
    path: "/company/getChildCompanyList",
    tag,
    summary: "The caller's direct child companies (var_panel module, var or root company), by name, with device and user counts.",
    auth: "token",
    permission: { modules: "var_panel", guard: (_, auth) => assertVarPanel(auth) },
    response: z.object({ payload: z.array(childRow) }),
    async handler({ db, auth }) {
      const { rows } = await listChildCompanies(db, auth);
      return {
        payload: rows.map((r) => ({
          id: r.id,
          company_name: r.name,
          company_id: r.code,
          company_type: r.type,
          full_name: `${r.pocFirstName} ${r.pocLastName}`.trim(),
          // Stored as E.164 (decision 0037); the spec's pair is derived from it.
          poc_phone_number: splitPhone(r.pocPhoneNumber).phoneNumber,
          poc_country_code: splitPhone(r.pocPhoneNumber).countryCode,
          poc_e_mail: r.pocEmail,
          totalDevices: r.totalDevices,
          totalUsers: r.totalUsers,
          is_deactive: bit(r.isDeactive),
        })),
      };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/getCompanyStock",
    tag,
    summary: "The caller's stock boards: {company: {company_name, company_id}, companyStock: [{id, serial_number, serial_front, serial_back, board_type}]}.",
    auth: "token",
    permission: { modules: "var_panel", guard: (_, auth) => assertVarPanel(auth) },
    response: z.object({
      payload: z.object({
        company: z.object({ company_name: z.string(), company_id: z.string() }),
        companyStock: z.array(z.object({ id: z.number(), serial_number: z.string(), serial_front: z.string(), serial_back: z.string(), board_type: z.string() })),
      }),
    }),
    async handler({ db, auth }) {
      const r = await getCompanyStock(db, auth);
      return {
        payload: {
          company: { company_name: r.company.name, company_id: r.company.code },
          companyStock: r.rows.map((s) => ({ id: s.id, serial_number: s.serialNumber, serial_front: s.serialFront, serial_back: s.serialBack, board_type: s.boardType })),
        },
      };
    },
  }),
  endpoint({
    method: "POST",
    path: "/company/transferDevices",
    tag,
    summary:
      "Moves stock boards of the caller's company (fromCompany: its id or code, optional) to one of its direct children (toCompany: id or code). status 'stock' (not for an ec target) or 'unconfigured' with shippingDate (YYYY-MM-DD, not in the past) and subscriptionTerm (1, 2 or 3). 'Devices Transferred' is written for both companies.",
    auth: "token",
    permission: { modules: "var_panel", action: "modify", guard: (_, auth) => assertVarPanel(auth, "modify") },
    body: transferBody,
    response: z.object({ message: z.string() }),
    async handler({ db, auth, body, now }) {
      const r = await transferDevices(db, auth, body, now);
      return { message: r.message };
    },
  }),
];
