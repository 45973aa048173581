import { z } from "zod";
import { mailerBody, mailerQuery, testMailBody } from "~/schemas/mailer";
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
      "The mailer of company_id (the caller's own company; for root: empty or its own id is the platform default, another id a company in its view). user_password is always empty; has_password says whether one is saved.",
    auth: "token",
    query: mailerQuery,
    async handler({ db, auth, query }) {
      return { payload: await mailer.getMailerConfig(db, auth, query.company_id === "" ? null : query.company_id) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/company/modifyCompanyMailerConfig",
    tag,
    summary: "Saves host_name, port_name, user_name and user_password (all required; the password is encrypted at rest) ('Mailer Config Updated').",
    auth: "token",
    body: mailerBody,
    response: message,
    async handler({ db, env, auth, body, now }) {
      return await mailer.modifyMailerConfig(db, env, auth, body, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/company/sendTestMail",
    tag,
    summary: "Sends a test mail with the saved mailer to `to` (default: the caller). 422 'Test mail failed: <the SMTP stage and reply>'.",
    auth: "token",
    body: testMailBody,
    response: message,
    async handler({ db, env, auth, body, now }) {
      return await mailer.sendTestMail(db, env, auth, { company_id: body.company_id ? Number(body.company_id) : null, to: body.to }, now);
    },
  }),
];
