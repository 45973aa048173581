import { and, eq } from "drizzle-orm";
import { z } from "zod";
import {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  resetExpiredPasswordSchema,
  resendTwoFactorCodeSchema,
  twoFactorSchema,
  webResetPasswordSchema,
  TWO_FACTOR_CHANNELS,
  type TwoFactorChannel,
} from "~/schemas/auth";
import * as authService from "~/services/auth.server";
import * as passwordReset from "~/services/password-reset.server";
import { smsSender } from "~/services/sms/sender.server";
import { loadPermissions } from "~/utils/auth-guards.server";
import { schema } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { MODULES, type Permissions } from "~/utils/permissions";
import { publicOrigin } from "~/utils/origin.server";
import { clientIp } from "~/utils/session.server";
import { endpoint } from "../define.server";
import { deliveringMessages, sendingSignInCode } from "../message-delivery.server";

export const loginPayloadSchema = z.object({
  dispay_name: z.string(),
  id: z.number(),
  role_id: z.number().nullable(),
  comp_id: z.number(),
  company_type: z.string(),
  e_mail: z.string(),
  company: z.object({ company_name: z.string(), company_id: z.string() }),
});

/** Where a sign-in code went, in the 402 of a login and in the answers that send it again. */
const CODE_DELIVERY_DOC =
  "payload.channel is where the code went ('email' or 'text'), payload.preferredChannel the user's choice (Account Details; 'email' unless they chose 'text'), payload.sentTo the destination masked ('j•••@example.com', '•••• 4321'). A preferred text that cannot go out (no E.164 phone, 5 texts per user or 200 per company an hour, provider refusal) is mailed instead: channel 'email' with preferredChannel 'text'.";
const codeDelivery = z.object({ channel: z.enum(TWO_FACTOR_CHANNELS), preferredChannel: z.enum(TWO_FACTOR_CHANNELS), sentTo: z.string() });
/** A user with an authenticator app (decision 0120) is sent nothing: the 402 says the code is to come from the app. */
const AUTHENTICATOR_DOC =
  "A user who switched on an authenticator app (POST /user/authenticator/confirm) gets this 402 whatever the company requires, with payload.channel and payload.preferredChannel 'authenticator' and sentTo '': nothing is sent, /user/twoFactorAuthenticate takes a current code from the app or one of the recovery codes, and the resend calls answer 400";

/** "Send the code by text message / by e-mail instead": the same call for either channel. */
function resendEndpoint(channel: TwoFactorChannel, path: string, what: string) {
  return endpoint({
    method: "POST",
    path,
    tag: "Session",
    summary: `Sends the sign-in code again ${what}, after a login answered 402: a new code replaces the waiting one. Accepted only while a code is waiting (within 5 minutes of the sign-in with the password); otherwise, or for an unknown account, 400 '${authService.AUTH_MSG[channel === "text" ? "noCodeToText" : "noCodeToMail"]}'. ${CODE_DELIVERY_DOC}`,
    auth: "public",
    body: resendTwoFactorCodeSchema,
    response: z.object({ message: z.string(), payload: codeDelivery }),
    async handler({ db, body, env, now, waitUntil }) {
      const { message, ...payload } = await deliveringMessages({ env, waitUntil }, authService.resendTwoFactorCode(db, body, channel, { now, sms: smsSender(env) }));
      return { message, payload };
    },
  });
}

const message = z.object({ message: z.string() });
const rightsShape = z.object({
  permission_all: z.boolean(),
  permission_add: z.boolean(),
  permission_modifly: z.boolean().describe("sic: the spec's name for the modify right"),
  permission_delete: z.boolean(),
  permission_view: z.boolean(),
  ...Object.fromEntries(MODULES.map((m) => [m, z.boolean()])),
});

/** A role's rights in the spec's names (`permission_modifly` sic), module flags as they are. */
const permissionsPayload = ({ permissionAll, permissionAdd, permissionModify, permissionDelete, permissionView, ...modules }: Permissions) => ({
  permission_all: permissionAll,
  permission_add: permissionAdd,
  permission_modifly: permissionModify,
  permission_delete: permissionDelete,
  permission_view: permissionView,
  ...modules,
});

export const authEndpoints = [
  endpoint({
    method: "POST",
    path: "/user/login",
    tag: "Session",
    summary:
      "Sign in; returns a token for the Authorization header. 401 bad credentials or state, 402 second factor required (errorCode '2fa-required' and phoneNumber, the user's number masked, beside the message; " +
      CODE_DELIVERY_DOC +
      " " +
      AUTHENTICATOR_DOC +
      "), 429 throttled.",
    auth: "public",
    body: loginSchema,
    response: z.object({ token: z.string(), payload: loginPayloadSchema, message: z.string() }),
    async handler({ db, env, body, request, now, waitUntil }) {
      const r = await sendingSignInCode({ env, waitUntil }, authService.login(db, body, { request, kind: "api", now, sms: smsSender(env) }));
      return { message: r.message, payload: r.payload, extra: { token: r.token } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/twoFactorAuthenticate",
    tag: "Session",
    summary:
      "Completes a sign-in that required a second factor: code is the 6-digit code sent, or for a user with an authenticator app a current code from it (a code signs in once) or an unused recovery code ('abcde-fghij', each once). A wrong code is 401 'bad-code' and counts toward the sign-in throttle (429).",
    auth: "public",
    body: twoFactorSchema,
    response: z.object({ token: z.string(), payload: loginPayloadSchema, message: z.string(), msg: z.string().describe("The message again (the spec's older name)") }),
    async handler({ db, body, request, now, env }) {
      const r = await authService.twoFactorAuthenticate(db, body, { request, kind: "api", now, env });
      return { message: r.message, payload: r.payload, extra: { token: r.token, msg: r.message } };
    },
  }),
  resendEndpoint("text", "/user/sendTwoFactorCodeByText", "by text message to the user's phone (5 texts per user an hour)"),
  resendEndpoint("email", "/user/sendTwoFactorCodeByEmail", "by e-mail"),
  endpoint({
    method: "POST",
    path: "/user/resetExpiredPassword",
    tag: "Session",
    summary: "Replaces an expired password.",
    auth: "public",
    body: resetExpiredPasswordSchema,
    response: message,
    async handler({ db, body, request, now }) {
      return authService.resetExpiredPassword(db, body, { request, kind: "api", now });
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/webForgotPassword",
    tag: "Session",
    summary:
      "Starts a password reset in the company's password reset security mode: 'email' mails a link; 'text' mails a link that also needs a code texted to the user's phone; 'admin' records a request a super admin approves (POST /user/sendResetLink) and answers payload.contactPhone. An unknown company and an unknown e-mail both get 400 'Invalid Company ID or Email'; a known account always gets its mode's message (per-account limits and suspicious requests send nothing more). 429 after 10 requests from one client in 15 minutes.",
    auth: "public",
    body: forgotPasswordSchema,
    response: z.object({ message: z.string(), payload: z.object({ contactPhone: z.string() }).nullable().describe("In reset mode 'admin' only: the number to call") }),
    async handler({ db, env, body, request, now, waitUntil }) {
      const ctx = { origin: publicOrigin(env, request), ip: clientIp(request), now, sms: smsSender(env) };
      return deliveringMessages({ env, waitUntil }, passwordReset.webForgotPassword(db, body, ctx));
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/webReSetPassword",
    tag: "Session",
    summary:
      "Sets a new password from a reset link id (uid). A link sent in reset mode 'text' also needs `code`, the code texted to the user's phone: a wrong one is 400 'The code is invalid or has expired'; the fifth wrong code spends the link.",
    auth: "public",
    body: webResetPasswordSchema,
    response: z.object({ message: z.string(), hasWebAccess: z.boolean().describe("Whether the account may sign in to the console (otherwise the phone app only)") }),
    async handler({ db, env, body, now, waitUntil }) {
      const r = await deliveringMessages({ env, waitUntil }, passwordReset.webResetPassword(db, body, now));
      return { message: r.message, extra: { hasWebAccess: r.hasWebAccess } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/user/resetPassword",
    tag: "Session",
    summary: "Changes the caller's password.",
    auth: "token",
    permission: { modules: "change_password" },
    body: changePasswordSchema,
    response: message,
    async handler({ db, auth, body, now }) {
      return authService.changePassword(db, auth, body, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/logout",
    tag: "Session",
    summary: "Ends the caller's session (records 'User Logs Out' once).",
    auth: "token",
    permission: "own-account",
    response: message,
    async handler({ db, auth, now }) {
      await authService.logout(db, auth, now);
      return { message: "Logged out" };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getUserPermissions",
    tag: "Session",
    summary: "The permission details of a role of the caller's company.",
    auth: "token",
    permission: "signed-in",
    query: z.object({ roleId: z.coerce.number({ invalid_type_error: "roleId must be a number" }).int() }),
    response: z.object({ payload: rightsShape }),
    async handler({ db, auth, query }) {
      const role = await db.query.roles.findFirst({ where: and(eq(schema.roles.id, query.roleId), eq(schema.roles.companyId, auth.company.id)) });
      if (!role) throw new ServiceError(404, "Role not found");
      return { payload: permissionsPayload(await loadPermissions(db, role.id)) };
    },
  }),
];
