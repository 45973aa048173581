/**
 * Support access a customer grants (decision 0093): the customer lists, grants and revokes; the grantee
 * lists the grants in force it received. Opening a support session is the console's (it is a browser
 * session with its own cookie), so no call here opens one.
 */
import { z } from "zod";
import { SUPPORT_MAX_HOURS, supportGrantSchema, SUPPORT_MSG } from "~/schemas/support-access";
import { FLEET_MODULES } from "~/services/fleet.server";
import * as support from "~/services/support-access.server";
import { endpoint } from "../define.server";
import { wireObject, withWireFields } from "../wire-fields.server";

const tag = "Support access";
const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

/** The grant form's fields in the admin API's names. */
const GRANT_WIRE = { granteeCompanyId: "grantee_company_id", hours: "hours", reason: "reason", staffEmails: "staff_emails" } as const;

const grantShape = z.object({
  id: z.number(),
  grantee: z.string().describe("the company granted access"),
  reason: z.string(),
  granted_by: z.string(),
  staff_emails: z.array(z.string()).describe("the grantee's staff members it names; empty: any of its staff who hold the fleet view"),
  starts_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  status: z.enum(["active", "expired", "revoked"]),
});

export const supportAccessEndpoints = [
  endpoint({
    method: "GET",
    path: "/support/getSupportGrants",
    tag,
    summary: "The caller's company's support access grants, newest first (the last 100), ended ones included.",
    auth: "token",
    permission: { modules: "company_settings" },
    response: z.object({ payload: z.array(grantShape) }),
    async handler({ db, auth, now }) {
      const rows = await support.listSupportGrants(db, auth, now);
      return {
        payload: rows.map((r) => ({
          id: r.id,
          grantee: r.grantee,
          reason: r.reason,
          granted_by: r.grantedBy,
          staff_emails: r.staff,
          starts_at: iso(r.startsAt)!,
          expires_at: iso(r.expiresAt)!,
          revoked_at: iso(r.revokedAt),
          status: r.status,
        })),
      };
    },
  }),
  endpoint({
    method: "POST",
    path: "/support/grantSupportAccess",
    tag,
    summary: `Grants support access ('Support Access Granted') from now for \`hours\` (1 to ${SUPPORT_MAX_HOURS}) to \`grantee_company_id\`, a company above the caller's: its reseller or the platform (others: 400). While it lasts, the grantee's staff who hold the fleet view — or, when \`staff_emails\` names some (at most 10, a list or one comma-separated text), only those — may open this company's console as support, with the granting person's permissions; the granting person is mailed each time one does. Everything they do is logged here and in the grantee's log. An address that is not an active user of the grantee: 400, listed in \`payload.unknown_staff_emails\`. 403 in a support session.`,
    auth: "token",
    permission: { modules: "company_settings", action: "add" },
    body: wireObject(supportGrantSchema, GRANT_WIRE),
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), expires_at: z.string() }) }),
    async handler({ db, auth, body, now }) {
      const r = await withWireFields(GRANT_WIRE, () => support.grantSupportAccess(db, auth, body, now));
      return { message: SUPPORT_MSG.granted, payload: { id: r.id, expires_at: iso(r.expiresAt)! } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/support/revokeSupportAccess",
    tag,
    summary: "Ends a grant of the caller's company now ('Support Access Revoked'); its support sessions end with it. 404 for an unknown grant, 409 for one already ended.",
    auth: "token",
    permission: { modules: "company_settings", action: "delete" },
    body: z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required") }),
    response: z.object({ message: z.string() }),
    async handler({ db, auth, body, now }) {
      return await support.revokeSupportAccess(db, auth, body.id, now);
    },
  }),
  endpoint({
    method: "GET",
    path: "/support/getReceivedSupportGrants",
    tag,
    summary:
      "For a reseller or the platform: the support access grants in force that customers gave the caller's company and that name no staff or name the caller, soonest to end first. Without one, a customer's people, keys and activity stay out of reach.",
    auth: "token",
    permission: { modules: FLEET_MODULES },
    response: z.object({
      payload: z.array(
        z.object({ id: z.number(), company_id: z.number(), company: z.string(), code: z.string(), reason: z.string(), granted_by: z.string(), expires_at: z.string() }),
      ),
    }),
    async handler({ db, auth, now }) {
      const rows = await support.receivedSupportGrants(db, auth, now);
      return {
        payload: rows.map((r) => ({
          id: r.id,
          company_id: r.companyId,
          company: r.company,
          code: r.code,
          reason: r.reason,
          granted_by: r.grantedBy,
          expires_at: iso(r.expiresAt)!,
        })),
      };
    },
  }),
];
