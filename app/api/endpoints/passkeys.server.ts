import { z } from "zod";
import { loginPayloadSchema } from "./auth.server";
import * as authService from "~/services/auth.server";
import { mfaPolicySchema, MFA_POLICIES } from "~/schemas/mfa-policy";
import * as mfaPolicy from "~/services/mfa-policy.server";
import * as passkeys from "~/services/passkeys.server";
import { endpoint } from "../define.server";

const tag = "Session";
const message = z.object({ message: z.string() });
const passkeyView = z.object({
  id: z.number(),
  name: z.string(),
  createdAt: z.number().describe("epoch ms"),
  lastUsedAt: z.number().nullable().describe("epoch ms; null until first used"),
});
const userIdBody = z.object({ userId: z.number({ required_error: "userId is required", invalid_type_error: "userId must be a number" }).int() });
const idBody = z.object({ id: z.number({ required_error: "id is required", invalid_type_error: "id must be a number" }).int() });
/** A WebAuthn response as navigator.credentials returns it, JSON-encoded (@simplewebauthn/browser's output). */
const credentialJson = z
  .object({ id: z.string(), rawId: z.string(), type: z.literal("public-key"), response: z.object({ clientDataJSON: z.string() }).passthrough() })
  .passthrough();
const policyView = z.object({ policy: z.enum(MFA_POLICIES), roleIds: z.array(z.number()) });

/** Console passkeys (decision 0123): the caller's own, a super admin's look and reset, the company's MFA policy. */
export const passkeyEndpoints = [
  endpoint({
    method: "GET",
    path: "/user/passkeys",
    tag,
    summary: "Lists the caller's console passkeys: id, name, when added and last used (no key material).",
    auth: "token",
    permission: "own-account",
    response: z.object({ message: z.string(), payload: z.array(passkeyView) }),
    async handler({ db, auth }) {
      return { message: "Success", payload: await passkeys.listPasskeys(db, auth.user.id) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/passkeys/registrationOptions",
    tag,
    summary:
      "Starts adding a passkey for the caller: payload is the PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create (a single-use challenge valid 5 minutes, user verification required, the caller's passkeys excluded). 409 at 10 passkeys.",
    auth: "token",
    permission: "own-account",
    response: z.object({ message: z.string(), payload: z.record(z.unknown()) }),
    async handler({ db, env, request, auth, now }) {
      return { message: "Success", payload: (await passkeys.registrationOptions(db, env, request, auth, now)) as unknown as Record<string, unknown> };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/passkeys/register",
    tag,
    summary:
      "Adds the passkey: name (1 to 60 characters) and response, the RegistrationResponseJSON of navigator.credentials.create. Verified against the challenge (once), the console's origin and RP id, with user verification; 400 'passkey-challenge' or 'passkey-failed' (payload.reason) otherwise.",
    auth: "token",
    permission: "own-account",
    body: z.object({ name: z.string({ required_error: "name is required" }), response: credentialJson }),
    response: z.object({ message: z.string(), payload: passkeyView }),
    async handler({ db, env, request, auth, body, now }) {
      const r = await passkeys.registerPasskey(db, env, request, auth, body as never, now);
      return { message: r.message, payload: r.passkey };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/passkeys/rename",
    tag,
    summary: "Renames one of the caller's passkeys (404 for anyone else's).",
    auth: "token",
    permission: "own-account",
    body: idBody.extend({ name: z.string({ required_error: "name is required" }) }),
    response: message,
    async handler({ db, auth, body }) {
      return passkeys.renamePasskey(db, auth, body.id, body.name);
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/passkeys/remove",
    tag,
    summary: "Removes one of the caller's passkeys (404 for anyone else's); written to the activity log as 'Passkey Removed'.",
    auth: "token",
    permission: "own-account",
    body: idBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return passkeys.removeOwnPasskey(db, auth, body.id, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/passkeysOfUser",
    tag,
    summary: "Lists another user's console passkeys: a super admin with the users modify right only (403 otherwise), a user of the caller's company only (404 otherwise).",
    auth: "token",
    permission: { modules: "users", action: "modify", superAdmin: true },
    body: userIdBody,
    response: z.object({ message: z.string(), payload: z.array(passkeyView) }),
    async handler({ db, auth, body }) {
      return { message: "Success", payload: await passkeys.passkeysOfUser(db, auth, body.userId) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/resetPasskeys",
    tag,
    summary:
      "Removes every console passkey of another user (a lost device): a super admin with the users modify right only (403 otherwise), a user of the caller's company only (404 otherwise); 409 when the user has none. Audited as 'Passkeys Reset'.",
    auth: "token",
    permission: { modules: "users", action: "modify", superAdmin: true },
    body: userIdBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return passkeys.resetPasskeys(db, auth, body.userId, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/passkeyAuthenticate",
    tag,
    summary:
      "Completes a sign-in that answered 402 with payload.passkey (the PublicKeyCredentialRequestOptionsJSON of a single-use challenge issued after the right password): companyId, userName and response, the AuthenticationResponseJSON of navigator.credentials.get. The signature, origin, RP id, user verification and a forward-moving counter are checked; 401 'passkey-failed' (payload.reason) otherwise, counted toward the sign-in throttle. 403 'mfa-enrolment-required' never applies here (the user has a passkey).",
    auth: "public",
    body: z.object({ companyId: z.string(), userName: z.string(), response: credentialJson }),
    response: z.object({ token: z.string(), payload: loginPayloadSchema, message: z.string() }),
    async handler({ db, body, request, now, env }) {
      const r = await authService.passkeyAuthenticate(db, body as never, { request, kind: "api", now, env });
      return { message: r.message, payload: r.payload, extra: { token: r.token } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/company/mfaPolicy",
    tag: "Company",
    summary:
      "The company's MFA policy: policy 'none', 'all' (every console user) or 'roles' (users of roleIds) must have an authenticator app or a passkey (e-mailed or texted codes do not count). A covered user without one gets a console session for enrolment only, and POST /user/login answers them 403 'mfa-enrolment-required'.",
    auth: "token",
    permission: { modules: "company_settings", action: "view" },
    response: z.object({ message: z.string(), payload: policyView }),
    async handler({ db, auth }) {
      return { message: "Success", payload: await mfaPolicy.getMfaPolicy(db, auth) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/company/mfaPolicy",
    tag: "Company",
    summary:
      "Sets the company's MFA policy (see GET): a super admin with the company settings modify right only (403 otherwise). roleIds (the company's roles) is required for 'roles' and ignored otherwise. Audited as 'MFA Policy Changed' with the policy before and after.",
    auth: "token",
    permission: { modules: "company_settings", action: "modify", superAdmin: true },
    body: mfaPolicySchema,
    response: z.object({ message: z.string(), payload: policyView }),
    async handler({ db, auth, body, now }) {
      return mfaPolicy.setMfaPolicy(db, auth, body, now);
    },
  }),
];
