/** A company's single sign-on settings, one schema for the page and the admin API (decision 0121). */
import { z } from "zod";
import { checkbox } from "./flag";

export const SSO_FORM_MSG = {
  issuer: "Enter the provider's issuer address (https://…)",
  clientId: "Enter the client ID the provider gave the console",
  url: "Enter an https:// address",
  tooLong: "Too long (at most 500 characters)",
  groupName: "Enter the provider's group name",
  role: "Choose a role",
  duplicateGroup: "Each group is mapped once",
  confirmRequired: "Confirm that passwords stop working for everyone but the break-glass admin",
} as const;

const optionalId = z.preprocess((v) => (v === "" || v === null || v === undefined ? null : Number(v)), z.number().int().positive().nullable());
const httpUrl = (message: string) =>
  z
    .string()
    .trim()
    .max(500, SSO_FORM_MSG.tooLong)
    .refine((s) => s === "" || /^https?:\/\/[^\s/]+/i.test(s), message)
    .default("");

export const ssoGroupRoleSchema = z.object({
  groupName: z.string({ required_error: SSO_FORM_MSG.groupName }).trim().min(1, SSO_FORM_MSG.groupName).max(200, SSO_FORM_MSG.tooLong),
  roleId: z.coerce.number({ invalid_type_error: SSO_FORM_MSG.role }).int().positive(SSO_FORM_MSG.role),
});

export const ssoSettingsSchema = z
  .object({
    enabled: checkbox(),
    protocol: z.enum(["oidc", "saml"]).default("oidc"),
    oidcIssuer: httpUrl(SSO_FORM_MSG.issuer),
    oidcClientId: z.string().trim().max(200, SSO_FORM_MSG.tooLong).default(""),
    /** Write-only: empty keeps the stored one; `clearClientSecret` removes it. */
    oidcClientSecret: z.string().max(500, SSO_FORM_MSG.tooLong).optional(),
    clearClientSecret: checkbox(),
    oidcScopes: z.string().trim().max(200, SSO_FORM_MSG.tooLong).default("openid email profile"),
    oidcGroupsClaim: z.string().trim().max(100, SSO_FORM_MSG.tooLong).default("groups"),
    idpEntityId: z.string().trim().max(500, SSO_FORM_MSG.tooLong).default(""),
    idpSsoUrl: httpUrl(SSO_FORM_MSG.url),
    idpSloUrl: httpUrl(SSO_FORM_MSG.url),
    idpCertificate: z.string().trim().max(20_000, SSO_FORM_MSG.tooLong).default(""),
    wantEncrypted: checkbox(),
    ssoRequired: checkbox(),
    /** The page asks for this before requiring single sign-on; the API takes it as read. */
    confirmRequired: checkbox(true),
    breakGlassUserId: optionalId,
    jitEnabled: checkbox(),
    jitDefaultRoleId: optionalId,
    // The page posts a few blank rows to fill in: a row with neither a group nor a role is not a mapping.
    groupRoles: z.preprocess(
      (v) => (Array.isArray(v) ? v.filter((r) => r && typeof r === "object" && ((r as Record<string, unknown>).groupName || (r as Record<string, unknown>).roleId)) : v),
      z.array(ssoGroupRoleSchema).max(100).default([]),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.enabled && v.protocol === "oidc") {
      if (!v.oidcIssuer) ctx.addIssue({ code: "custom", path: ["oidcIssuer"], message: SSO_FORM_MSG.issuer });
      if (!v.oidcClientId) ctx.addIssue({ code: "custom", path: ["oidcClientId"], message: SSO_FORM_MSG.clientId });
    }
    const seen = new Set<string>();
    v.groupRoles.forEach((g, i) => {
      if (seen.has(g.groupName)) ctx.addIssue({ code: "custom", path: ["groupRoles", i, "groupName"], message: SSO_FORM_MSG.duplicateGroup });
      seen.add(g.groupName);
    });
    if (v.ssoRequired && !v.confirmRequired) ctx.addIssue({ code: "custom", path: ["confirmRequired"], message: SSO_FORM_MSG.confirmRequired });
  });
export type SsoSettingsInput = z.output<typeof ssoSettingsSchema>;
