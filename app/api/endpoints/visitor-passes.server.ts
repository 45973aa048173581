import { z } from "zod";
import { openPassSchema, PASS_STATES, passRulesSchema, passSchema } from "~/schemas/visitor-passes";
import * as passes from "~/services/visitor-passes.server";
import type { Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";
import { publicOrigin } from "~/utils/origin.server";
import { endpoint } from "../define.server";
import { deliveringMessages } from "../message-delivery.server";

const tag = "Visitor passes";
const message = z.object({ message: z.string() });
const id = z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required");
const PAGE_MAX = 100;
const viewer = {
  rule: "a host (who may add users, or of a role the visitor rules name), or a holder of the users module",
  guard: (db: Db, auth: Auth) => passes.assertPassUser(db, auth, { hosting: false }),
};
const host = { rule: "a host: who may add users, or a user of a role the visitor rules name", guard: (db: Db, auth: Auth) => passes.assertPassUser(db, auth, { hosting: true }) };

const passShape = z.object({
  id: z.number(),
  state: z.enum(PASS_STATES).describe("upcoming, active (inside its dates), used (a one-entry pass spent), expired or revoked"),
  guestName: z.string(),
  guestEmail: z.string().nullable(),
  guestPhone: z.string().nullable(),
  hostUserId: z.number(),
  hostName: z.string(),
  deviceIds: z.array(z.number()).describe("The doors it opens; empty when it names a device group"),
  deviceGroupId: z.number().nullable(),
  groupName: z.string().nullable(),
  oneEntry: z.boolean(),
  hostText: z.boolean().describe("The host is texted, as well as mailed, at the guest's first entry"),
  startDate: z.string(),
  endDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  phoneBound: z.boolean().describe("The guest opened the link: the pass is bound to that phone"),
  firstEntryAt: z.number().nullable(),
  usedAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
  createdAt: z.number(),
});
const rulesShape = z.object({
  maxDays: z.number().describe("The longest visit, in days (1 to 90; 7 by default)"),
  hostRoleIds: z.array(z.number()).describe("Roles whose users may host guests, besides whoever may add users"),
  deviceGroupId: z.number().nullable().describe("The device group holding every door a guest may ever open; null: any door"),
});

/** Issue 32, decision 0096: hosts invite guests; the guest's phone opens its link with `POST /api/mobile/visitorPass/open`. */
export const visitorPassEndpoints = [
  endpoint({
    method: "GET",
    path: "/visitorPasses/getPasses",
    tag,
    summary: "Visitor passes, newest first, optionally of one state. Every pass for holders of the users module, a host's own otherwise.",
    auth: "token",
    permission: viewer,
    query: z.object({
      state: z.enum(PASS_STATES).optional(),
      page: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(PAGE_MAX).default(20),
    }),
    response: z.object({ payload: z.object({ rows: z.array(passShape), total: z.number(), page: z.number(), pageSize: z.number() }) }),
    async handler({ db, core, auth, query, now }) {
      const { rows, total } = await passes.listPasses(db, core, auth, query, now);
      return { payload: { rows: rows.map(({ companyId: _c, createdByUserId: _b, boundAt: _t, updatedAt: _u, ...r }) => r), total, page: query.page, pageSize: query.pageSize } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/visitorPasses/addPass",
    tag,
    summary:
      "Invites a guest ('Visitor Pass Created'): guestName, guestEmail and/or guestPhone (E.164), deviceIds or deviceGroupId, startDate and endDate (YYYY-MM-DD) with daily startTime and endTime (HH:mm) in the company's zone, oneEntry, hostText (the host is also texted at the first entry, at the number in their profile), language of the guest's mail and text (en | es), hostUserId (someone else hosts: only for whoever may add users). The guest is mailed and/or texted (guestPhone) a link to the phone app, bound to the first phone that opens it. 403 for a caller who may not host; 400 field errors; 422 doors guests may not open, a visit longer than the rules allow or already over.",
    auth: "token",
    permission: host,
    body: passSchema,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), link: z.string().describe("The guest's link; shown once, stored only as a keyed hash") }) }),
    async handler({ db, core, env, auth, body, request, now, waitUntil }) {
      const r = await deliveringMessages({ env, waitUntil }, passes.createPass(db, auth, body, { now, origin: publicOrigin(env, request), core }));
      return { message: r.message, payload: { id: r.id, link: r.link } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/visitorPasses/revokePass",
    tag,
    summary:
      "Withdraws a pass ('Visitor Pass Revoked'): its link stops working and boards refuse its credential (their revocation list). A host revokes their own guests; others need the users module's delete right. 409 when already revoked.",
    auth: "token",
    permission: viewer,
    body: z.object({ id }),
    response: message,
    async handler({ db, auth, body, now }) {
      return await passes.revokePass(db, auth, body.id, now);
    },
  }),
  endpoint({
    method: "GET",
    path: "/visitorPasses/getRules",
    tag,
    summary: "The company's visitor rules: the longest visit, the hosting roles, the doors guests may ever open.",
    auth: "token",
    permission: { modules: ["users", "company_settings"] },
    response: z.object({ payload: rulesShape }),
    async handler({ db, auth }) {
      return { payload: await passes.getPassRules(db, auth) };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/visitorPasses/modifyRules",
    tag,
    summary: "Saves the visitor rules ('Visitor Pass Rules Modified'): maxDays (1 to 90), hostRoleIds, deviceGroupId (null: any door).",
    auth: "token",
    permission: { modules: "company_settings", action: "modify" },
    body: passRulesSchema,
    response: message,
    async handler({ db, auth, body, now }) {
      return await passes.savePassRules(db, auth, body, now);
    },
  }),
];

/** The guest's phone (no account): opening the link binds the pass to the phone and answers it with its signed credential. */
export const guestPassEndpoints = [
  endpoint({
    method: "POST",
    path: "/visitorPass/open",
    tag: "Mobile",
    summary:
      "The guest's phone opens its link: token (what follows #pass= in the link) and installationId. The first phone is bound; another gets 409 pass-other-phone. Answers the pass (doors, dates and hours in its zone) and a signed credential of kind pass (gateway/PROTOCOL.md) for boards online or alone; call again while online to refresh it. 404 pass-invalid for an unknown or revoked link, 410 pass-expired after the visit.",
    auth: "public",
    body: openPassSchema,
    response: z.object({
      payload: z.object({
        id: z.string(),
        guestName: z.string(),
        language: z.enum(["en", "es"]).describe("The invite's language, which the phone app shows the pass in"),
        company: z.string(),
        hostName: z.string(),
        doors: z.array(z.object({ id: z.number(), name: z.string() })),
        startDate: z.string(),
        endDate: z.string(),
        startTime: z.string(),
        endTime: z.string(),
        tz: z.string(),
        window: z.record(z.unknown()).describe("The pass's access window in the core's JSON (the credential's win claim)"),
        oneEntry: z.boolean(),
        used: z.boolean(),
        credential: z.object({ token: z.string(), id: z.string(), issuedAt: z.number(), expiresAt: z.number() }).nullable(),
        refreshBy: z.number(),
      }),
    }),
    async handler({ db, core, env, body, now }) {
      const pass = await passes.openPass(db, core, env, body, now);
      // The core's window is a plain JSON object on the wire.
      return { payload: { ...pass, window: pass.window as unknown as Record<string, unknown> } };
    },
  }),
];
