import { z } from "zod";
import { ssoSettingsSchema } from "~/schemas/sso";
import * as sso from "~/services/sso/settings.server";
import { endpoint } from "../define.server";

const tag = "Single sign-on";
const permission = { modules: "users", action: "modify", superAdmin: true } as const;
const settingsResponse = z.object({
  enabled: z.boolean(),
  protocol: z.enum(["oidc", "saml"]),
  oidcIssuer: z.string(),
  oidcClientId: z.string(),
  clientSecretSet: z.boolean().describe("Whether a client secret is stored; the secret itself is never returned"),
  oidcScopes: z.string(),
  oidcGroupsClaim: z.string(),
  idpEntityId: z.string(),
  idpSsoUrl: z.string(),
  idpSloUrl: z.string(),
  idpCertificate: z.string(),
  wantEncrypted: z.boolean(),
  ssoRequired: z.boolean(),
  breakGlassUserId: z.number().nullable(),
  jitEnabled: z.boolean(),
  jitDefaultRoleId: z.number().nullable(),
  groupRoles: z.array(z.object({ groupName: z.string(), roleId: z.number() })),
});

/** The caller's company's single sign-on (decision 0121): its super admins only. */
export const ssoEndpoints = [
  endpoint({
    method: "GET",
    path: "/company/sso",
    tag,
    summary:
      "The caller's company's single sign-on settings: the protocol (OpenID Connect or SAML 2.0) and its provider, whether single sign-on is required (passwords then work only for the break-glass super admin), just-in-time creation with its default role, and the provider's group names mapped to roles. The OIDC client secret is write-only (clientSecretSet). A super admin only (403 otherwise).",
    auth: "token",
    permission,
    response: z.object({ payload: settingsResponse }),
    async handler({ db, auth }) {
      return { payload: await sso.getSsoSettings(db, auth) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/company/sso",
    tag,
    summary:
      "Replaces the caller's company's single sign-on settings and group-to-role mapping. oidcClientSecret is kept when absent or empty (clearClientSecret removes it) and stored sealed. ssoRequired needs breakGlassUserId, a live super admin of the company (422 otherwise). The default role and each mapped role must be the company's own (422) and hold nothing the caller does not (403). A super admin only; the right is checked before the body.",
    auth: "token",
    permission,
    body: ssoSettingsSchema,
    response: z.object({ message: z.string() }),
    async handler({ db, env, auth, body, now }) {
      return sso.saveSsoSettings(db, env, auth, body, now);
    },
  }),
];
