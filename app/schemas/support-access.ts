/**
 * Support access a customer grants its reseller or the platform (issue 33, decision 0093), in domain
 * names: the console's form posts them, the admin API's endpoint file reads its wire names into them.
 */
import { z } from "zod";

/** How long a grant may last, in hours: the form offers these; the API takes any whole number up to the last. */
export const SUPPORT_HOURS = [1, 4, 8, 24, 72] as const;
export const SUPPORT_MAX_HOURS = 72;
export const SUPPORT_REASON_MAX = 500;
/** Staff members a grant may name at most (none: any of the grantee's staff who hold the fleet view). */
export const SUPPORT_STAFF_MAX = 10;

export const SUPPORT_MSG = {
  grantee: "Choose who gets access: your reseller or the platform",
  hours: `Duration is a whole number of hours from 1 to ${SUPPORT_MAX_HOURS}`,
  reasonRequired: "Say why support needs access",
  reasonTooLong: `Reason is too long (at most ${SUPPORT_REASON_MAX} characters)`,
  granted: "Support access granted",
  revoked: "Support access revoked",
  notFound: "Support access grant not found",
  notLive: "This support access has ended or was revoked",
  opened: "Support session opened",
  left: "Support session ended",
  noParent: "Your company has no reseller or platform above it to grant access to",
  staffEmail: "Name staff members by their e-mail addresses, separated by commas",
  staffTooMany: `Name at most ${SUPPORT_STAFF_MAX} staff members`,
  staffUnknown: "Not a staff member of the company you chose",
} as const;

export const supportGrantSchema = z.object({
  granteeCompanyId: z.coerce
    .number({ invalid_type_error: SUPPORT_MSG.grantee, required_error: SUPPORT_MSG.grantee })
    .int(SUPPORT_MSG.grantee)
    .positive(SUPPORT_MSG.grantee)
    .max(Number.MAX_SAFE_INTEGER, SUPPORT_MSG.grantee),
  hours: z.coerce
    .number({ invalid_type_error: SUPPORT_MSG.hours, required_error: SUPPORT_MSG.hours })
    .int(SUPPORT_MSG.hours)
    .min(1, SUPPORT_MSG.hours)
    .max(SUPPORT_MAX_HOURS, SUPPORT_MSG.hours),
  reason: z.string({ required_error: SUPPORT_MSG.reasonRequired }).trim().min(1, SUPPORT_MSG.reasonRequired).max(SUPPORT_REASON_MAX, SUPPORT_MSG.reasonTooLong),
  /** E-mail addresses of the grantee's staff who may open the console: a list, or one text separated by commas, semicolons or lines. */
  staffEmails: z.preprocess(
    (v) => {
      const list: unknown[] = Array.isArray(v) ? v : v == null ? [] : [v];
      const emails = list.flatMap((e) => (typeof e === "string" ? e.toLowerCase().split(/[,;\s]+/) : [e])).filter((e) => e !== "");
      return [...new Set(emails)];
    },
    z
      .array(z.string({ invalid_type_error: SUPPORT_MSG.staffEmail }).max(254, SUPPORT_MSG.staffEmail).email(SUPPORT_MSG.staffEmail))
      .max(SUPPORT_STAFF_MAX, SUPPORT_MSG.staffTooMany),
  ),
});
export type SupportGrantInput = z.infer<typeof supportGrantSchema>;
