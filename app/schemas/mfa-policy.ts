import { z } from "zod";

/** Who must have an authenticator app or a passkey (decision 0123): nobody, every console user, or chosen roles. */
export const MFA_POLICIES = ["none", "all", "roles"] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];

/** The admin API's body; the page's form posts the same fields. */
export const mfaPolicySchema = z.object({
  policy: z.enum(MFA_POLICIES, { errorMap: () => ({ message: "Choose a policy" }) }),
  roleIds: z.array(z.coerce.number().int().positive()).max(200).default([]),
});
export type MfaPolicyInput = z.infer<typeof mfaPolicySchema>;
