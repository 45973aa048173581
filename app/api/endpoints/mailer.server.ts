import { z } from "zod";
import { optionalCompanyRefQuery } from "~/schemas/companies";
import { mailerBody, testMailBody } from "~/schemas/mailer";
import { companyIdOf } from "~/services/companies.server";
import * as mailer from "~/services/mailer.server";
import { endpoint } from "../define.server";

const message = z.object({ message: z.string() });
const tag = "Mailer";

export const mailerEndpoints = [
  endpoint({
    method: "GET",
    path: "/company/getCompanyMailerConfig",
    tag,
    summary:
      "The mailer of company_id, its id or its code (the caller's own company; for root: empty or its own is the platform default, another a company in its view; 404 otherwise). user_password is always empty; has_password says whether one is saved.",
    auth: "token",
    permission: { modules: ["company", "users"] },
    query: optionalCompanyRefQuery,
    response: z.object({
      payload: z.object({
        id: z.number().nullable(),
        company_id: z.number().nullable().describe("null: the platform default"),
        host_name: z.string(),
        port_name: z.number().nullable(),
        user_name: z.string(),
        user_password: z.literal("").describe("Always empty: a saved password is never sent back"),
        has_password: z.boolean(),
        target: z.string(),
      }),
    }),
    async handler({ db, auth, query }) {
      return { payload: await mailer.getMailerConfig(db, auth, query.company_id === undefined ? null : await companyIdOf(db, query.company_id)) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/company/modifyCompanyMailerConfig",
    tag,
    summary:
      "Saves, for company_id (id or code, as getCompanyMailerConfig), host_name, port_name, user_name and user_password (all required; the password is encrypted at rest) ('Mailer Config Updated').",
    auth: "token",
    permission: { modules: ["company", "users"], action: "modify" },
    body: mailerBody,
    response: message,
    async handler({ db, env, auth, body, now }) {
      return await mailer.modifyMailerConfig(db, env, auth, { ...body, company_id: body.company_id ? await companyIdOf(db, body.company_id) : null }, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/company/sendTestMail",
    tag,
    summary: "Sends a test mail with the saved mailer to `to` (default: the caller). 422 'Test mail failed: <the SMTP stage and reply>'.",
    auth: "token",
    permission: { modules: ["company", "users"], action: "modify" },
    body: testMailBody,
    response: message,
    async handler({ db, env, auth, body, now }) {
      return await mailer.sendTestMail(db, env, auth, { company_id: body.company_id ? await companyIdOf(db, body.company_id) : null, to: body.to }, now);
    },
  }),
];
