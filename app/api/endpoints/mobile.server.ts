/**
 * The phone app's calls, mounted at /api/mobile (docs/decisions/0028-signed-offline-credentials.md).
 * The spec names no fields for them, so they answer in the console's domain names (camelCase, JSON
 * booleans, epoch milliseconds). Tokens are mobile sessions: `Authorization: Bearer <token>`.
 */
import { z } from "zod";
import { appEventsSchema, mobileLoginSchema, mobileTwoFactorSchema, myActivitySchema } from "~/schemas/mobile";
import { resendTwoFactorCodeSchema } from "~/schemas/auth";
import { challengeSchema, keysWithAssertionSchema, registrationSchema } from "~/schemas/phone-webauthn";
import * as authService from "~/services/auth.server";
import { mobileLogin, mobileTwoFactor, myActivity, myKeys, reportAppEvents, assertMobile } from "~/services/mobile.server";
import { firmwareStartSchema } from "~/schemas/firmware-start";
import { startFirmwareUpdate } from "~/services/firmware-start.server";
import { myDoorsFirmware } from "~/services/mobile-firmware.server";
import { LOCKDOWN_MODES, LOCKDOWN_MSG, LOCKDOWN_SCOPES, lockdownPhoneStartSchema } from "~/schemas/lockdown";
import { endLockdownFromPhone, phoneLockdown, startLockdownFromPhone } from "~/services/mobile-lockdown.server";
import { smsSender } from "~/services/sms/sender.server";
import { issueChallenge, registerAuthenticator, verifyAssertion } from "~/services/phone-webauthn.server";
import { companyLogDb } from "~/utils/company-log.server";
import { endpoint } from "../define.server";
import { deliveringMessages, sendingSignInCode } from "../message-delivery.server";

const settings = z.object({
  multiPhoneLogin: z.boolean(),
  offlineReconnectHours: z.number(),
  temporaryEkeyHours: z.number(),
  biometricRequired: z.boolean(),
  twoFactorRequired: z.boolean(),
});
const signedIn = z.object({ message: z.string(), token: z.string(), payload: z.object({ id: z.number(), dispay_name: z.string(), settings }).passthrough() });
const credential = z.object({ token: z.string(), id: z.string(), issuedAt: z.number(), expiresAt: z.number() }).nullable();
const key = z.object({
  id: z.number(),
  kind: z.enum(["ekey", "group"]),
  name: z.string(),
  doors: z.array(z.object({ id: z.number(), name: z.string() })),
  groupId: z.number().nullable(),
  accessType: z.string(),
  window: z.record(z.unknown()),
  invalid: z.boolean(),
  openNow: z.boolean(),
  until: z.number().nullable(),
  nextOpen: z.number().nullable(),
  credential,
});
/** A key as the document describes it: the core's window is a plain JSON object on the wire. */
/** The company's lockdown state, signed (gateway/PROTOCOL.md, "Signed lockdown state"). */
const lockdownState = z
  .string()
  .nullable()
  .describe(
    "The company's lockdown state as a compact JWS (typ kac-lockdown+jws), null when the company never had one. The phone presents it to a board with its credential; a board cut off from its gateway takes it when it is newer than the state it knows, and then refuses credentials of people a lockdown does not exempt (an end travels the same way).",
  );

/** The phone's lockdown screen (decision 0083): the plans the caller may start, the lockdown in force. */
const phoneLockdownShape = z.object({
  plans: z
    .array(z.object({ id: z.number(), name: z.string(), mode: z.enum(LOCKDOWN_MODES), scope: z.enum(LOCKDOWN_SCOPES), durationMinutes: z.number().nullable() }))
    .describe("the plans whose phone triggers name the caller (by user or by role), by name"),
  inForce: z
    .object({
      planId: z.number().nullable(),
      planName: z.string(),
      mode: z.enum(LOCKDOWN_MODES),
      startedBy: z.string().describe("the person's name, or 'Panic button at <door>'"),
      startedAt: z.number(),
      endsAt: z.number().nullable().describe("when it ends by itself; null: until someone ends it"),
      mayEnd: z.boolean().describe("whether the caller may end it (POST /lockdown/end): the plan names them as a phone trigger, or they may end one in the console"),
    })
    .nullable()
    .describe("the company's lockdown or evacuation in force, or null"),
});

const keysPayload = (r: Awaited<ReturnType<typeof myKeys>>, now: number) => ({
  ...r,
  keys: r.keys.map((k) => ({ ...k, window: k.window as unknown as Record<string, unknown> })),
  now,
});

export const mobileEndpoints = [
  endpoint({
    method: "POST",
    path: "/login",
    tag: "Mobile",
    summary:
      "Phone sign-in bound to an installation id. 426 app update required, 401 bad credentials / de-activated / expired password, 402 second factor required (errorCode '2fa-required'; payload.channel, preferredChannel and sentTo say where the code went, by the user's choice of e-mail or text message, as for POST /api/admin/user/login; payload.e_mail is the account's address and payload.phoneNumber the masked number a text would go to, empty without one; then POST /twoFactorAuthenticate, or /sendTwoFactorCodeByText first), 403 root company, 409 another phone is bound, 429 throttled (errorCode 'throttled' with payload.minutes, or 'account-slowed' with payload.seconds).",
    auth: "public",
    body: mobileLoginSchema,
    response: signedIn,
    async handler({ db, env, body, request, now, waitUntil }) {
      const r = await sendingSignInCode({ env, waitUntil }, mobileLogin(db, body, { request, now, env }));
      return { message: r.message, payload: r.payload, extra: { token: r.token } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/twoFactorAuthenticate",
    tag: "Mobile",
    summary:
      "Completes a phone sign-in that required a second factor (the code sent by the login call, or the texted one). 401 'The code is invalid or has expired' (errorCode bad-code) for a wrong, used or expired code, or one past its five attempts; 429 throttled as the login.",
    auth: "public",
    body: mobileTwoFactorSchema,
    response: signedIn,
    async handler({ db, env, body, request, now }) {
      const r = await mobileTwoFactor(db, body, { request, now, env });
      return { message: r.message, payload: r.payload, extra: { token: r.token } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/sendTwoFactorCodeByText",
    tag: "Mobile",
    summary:
      "As POST /api/admin/user/sendTwoFactorCodeByText, for the phone: after a login answered 402, a new code replaces the mailed one and goes to the user's phone by text message. 400 'Sign in with your password first; then the code can be sent by text message' when no code is waiting; payload.channel 'email' when the text could not go out and the new code was mailed.",
    auth: "public",
    body: resendTwoFactorCodeSchema,
    response: z.object({ message: z.string(), payload: z.object({ channel: z.enum(["text", "email"]), preferredChannel: z.enum(["text", "email"]), sentTo: z.string() }) }),
    async handler({ db, body, env, now, waitUntil }) {
      const { message, ...payload } = await deliveringMessages({ env, waitUntil }, authService.resendTwoFactorCode(db, body, "text", { now, sms: smsSender(env) }));
      return { message, payload };
    },
  }),
  endpoint({
    method: "GET",
    path: "/keys",
    tag: "Mobile",
    summary:
      "The caller's e-keys and group keys: doors, window (the core's JSON), open now / until / next open, and a signed offline credential each (null when the key never opens again). Refresh before refreshBy.",
    auth: "token",
    permission: "signed-in",
    response: z.object({ message: z.string(), payload: z.object({ keys: z.array(key), settings, refreshBy: z.number(), now: z.number(), lockdownState }) }),
    async handler({ db, core, env, auth, now }) {
      return { payload: keysPayload(await myKeys(db, core, env, auth, now), now) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/keys",
    tag: "Mobile",
    summary:
      "As GET /keys, with a WebAuthn assertion of this installation's registered platform authenticator (challenge from POST /webauthn/challenge, purpose get). Required when the company requires biometrics: without it 403 'Biometric verification required' (errorCode biometric-required) and nothing is signed; a refused assertion is 403 'Biometric verification failed' (biometric-failed, payload.reason). Credentials then carry uv, the verification time in epoch seconds.",
    auth: "token",
    permission: "signed-in",
    body: keysWithAssertionSchema,
    response: z.object({ message: z.string(), payload: z.object({ keys: z.array(key), settings, refreshBy: z.number(), now: z.number(), lockdownState }) }),
    async handler({ db, core, env, auth, now, body, request }) {
      const verifiedAt = body.assertion ? await verifyAssertion(db, auth, body.assertion, { request, env, now }) : undefined;
      return { payload: keysPayload(await myKeys(db, core, env, auth, now, verifiedAt), now) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/webauthn/challenge",
    tag: "Mobile",
    summary:
      "A single-use challenge (two minutes) for registering this installation's platform authenticator (purpose create) or asserting with it (purpose get), with the RP id and the credential id already registered for this installation (or null).",
    auth: "token",
    permission: "signed-in",
    body: challengeSchema,
    response: z.object({
      message: z.string(),
      payload: z.object({ challenge: z.string(), purpose: z.enum(["create", "get"]), expiresAt: z.number(), rpId: z.string(), credentialId: z.string().nullable() }),
    }),
    async handler({ db, env, auth, now, body, request }) {
      return { payload: await issueChallenge(db, auth, body, { request, env, now }) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/webauthn/register",
    tag: "Mobile",
    summary:
      "Registers this installation's platform authenticator: the credential id, clientDataJSON and authenticatorData (base64url) of navigator.credentials.create with user verification, and its public key (getPublicKey(), SPKI) and COSE algorithm (-7, -8 or -257). 400 'Biometric registration failed' (errorCode biometric-registration-failed, payload.reason) when a check fails.",
    auth: "token",
    permission: "signed-in",
    body: registrationSchema,
    async handler({ db, env, auth, now, body, request }) {
      const r = await registerAuthenticator(db, auth, body, { request, env, now });
      return { message: r.message, payload: { credentialId: r.credentialId } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/activity",
    tag: "Mobile",
    summary: "The caller's own activity, newest first, paged.",
    auth: "token",
    permission: "signed-in",
    query: myActivitySchema,
    async handler({ env, auth, query }) {
      return { payload: await myActivity(companyLogDb(env, auth.company.id), auth, query.page, query.pageSize) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/activity",
    tag: "Mobile",
    summary: "Reports unlock attempts made with the phone (App activity); an eventId already reported is not stored again.",
    auth: "token",
    permission: "signed-in",
    body: appEventsSchema,
    async handler({ env, db, auth, body, now }) {
      return { payload: await reportAppEvents(env, db, auth, body, now) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/firmware",
    tag: "Mobile",
    summary:
      "The doors of the caller's keys that have a firmware release they do not run (their type's active release): installed version, the release, and whether its update was started; with the company's policy (allowed 'All Users' or 'Installer Only', forced) and mayStart, whether the caller may start an update (POST /firmware/start).",
    auth: "token",
    permission: "signed-in",
    response: z.object({
      message: z.string(),
      payload: z.object({
        allowed: z.string(),
        forced: z.boolean(),
        mayStart: z.boolean(),
        doors: z.array(
          z.object({ id: z.number(), name: z.string(), installed: z.string().nullable(), release: z.object({ id: z.number(), version: z.string() }), started: z.boolean() }),
        ),
      }),
    }),
    async handler({ db, auth }) {
      return { payload: await myDoorsFirmware(db, auth) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/firmware/start",
    tag: "Mobile",
    summary:
      "Starts the firmware update of one of the company's doors: its gateway then offers the door its type's active release (decision 0116). 403 'Only installers may update firmware in this company' (errorCode firmware-installer-only) when the company allows installers only and the caller is not one; 409 when the company forces updates (firmware-forced), there is no active release for the door (firmware-none) or the door runs it (firmware-up-to-date); 404 for a door outside the company.",
    auth: "token",
    permission: "signed-in",
    body: firmwareStartSchema,
    response: z.object({ message: z.string(), payload: z.object({ releaseId: z.number(), version: z.string() }) }),
    async handler({ db, auth, body, now }) {
      assertMobile(auth);
      const r = await startFirmwareUpdate(db, auth, body, now);
      return { message: r.message, payload: { releaseId: r.releaseId, version: r.version } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/lockdown",
    tag: "Mobile",
    summary:
      "The lockdown and evacuation plans the caller may start from the phone (a plan's phone_trigger_user_ids and phone_trigger_role_ids name them), and the company's lockdown in force with who started it, when, and whether the caller may end it.",
    auth: "token",
    permission: "signed-in",
    response: z.object({ message: z.string(), payload: phoneLockdownShape }),
    async handler({ db, auth, now }) {
      return { payload: await phoneLockdown(db, auth, now) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/lockdown/start",
    tag: "Mobile",
    summary:
      "Starts a plan from the phone ('Lockdown Started', an App entry 'started by <name> from the phone'); the phone asks twice and sends confirm true. 400 without confirm true; 403 'This plan does not allow you to start it from the phone' (errorCode lockdown-not-allowed) when the plan's phone triggers do not name the caller; 404 for a plan not of the company; 409 'A lockdown is already in force; end it first' (lockdown-in-force). Afterwards GET /keys carries the newer signed lockdown state.",
    auth: "token",
    permission: "signed-in",
    body: lockdownPhoneStartSchema,
    response: z.object({
      message: z.string(),
      payload: z.object({ epoch: z.number().describe("the company's lockdown epoch after the start"), endsAt: z.number().nullable() }),
    }),
    async handler({ db, auth, body, now }) {
      const r = await startLockdownFromPhone(db, auth, body, now);
      return { message: LOCKDOWN_MSG.started, payload: { epoch: r.epoch, endsAt: r.endsAt } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/lockdown/end",
    tag: "Mobile",
    summary:
      "Ends the lockdown in force from the phone ('Lockdown Ended', an App entry 'ended by <name> from the phone'): allowed to a user the plan in force names as a phone trigger and to those who may end one in the console. 403 'The lockdown in force does not allow you to end it from the phone' (errorCode lockdown-end-not-allowed); 409 'No lockdown is in force' (lockdown-none).",
    auth: "token",
    permission: "signed-in",
    response: z.object({ message: z.string() }),
    async handler({ db, auth, now }) {
      await endLockdownFromPhone(db, auth, now);
      return { message: LOCKDOWN_MSG.ended };
    },
  }),
  endpoint({
    method: "POST",
    path: "/logout",
    tag: "Mobile",
    summary: "Ends the phone's session. Its credentials stay valid until they expire (gateway/PROTOCOL.md).",
    auth: "token",
    permission: "signed-in",
    async handler({ db, auth, now }) {
      assertMobile(auth);
      await authService.logout(db, auth, now);
      return { message: "Logged out" };
    },
  }),
];
