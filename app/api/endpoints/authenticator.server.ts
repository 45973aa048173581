import { z } from "zod";
import { authenticatorCodeSchema } from "~/schemas/authenticator";
import * as authenticator from "~/services/authenticator.server";
import { endpoint } from "../define.server";

const tag = "Session";
const message = z.object({ message: z.string() });
const codeBody = authenticatorCodeSchema;

/** The caller's own authenticator app (decision 0120) and a super admin's reset of someone else's. */
export const authenticatorEndpoints = [
  endpoint({
    method: "POST",
    path: "/user/authenticator/start",
    tag,
    summary:
      "Starts enrolling an authenticator app (TOTP: SHA-1, 6 digits, 30 s) for the caller: payload.secret (base32) and payload.uri (otpauth://). Not used at sign-in until confirmed; starting again replaces a waiting secret. 409 while one is switched on.",
    auth: "token",
    permission: "own-account",
    response: z.object({ message: z.string(), payload: z.object({ secret: z.string(), uri: z.string() }) }),
    async handler({ db, env, auth, now }) {
      return { message: "Enter a code from the app to switch it on", payload: await authenticator.startEnrolment(db, env, auth, now) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/authenticator/confirm",
    tag,
    summary:
      "Switches the waiting authenticator app on with a current code from it (400 otherwise) and answers the ten recovery codes, shown this once. From then on a console or admin API sign-in answers 402 with payload.channel 'authenticator' and /user/twoFactorAuthenticate takes a code from the app or a recovery code.",
    auth: "token",
    permission: "own-account",
    body: codeBody,
    response: z.object({ message: z.string(), payload: z.object({ recoveryCodes: z.array(z.string()) }) }),
    async handler({ db, env, auth, body, now }) {
      const r = await authenticator.confirmEnrolment(db, env, auth, body.code, now);
      return { message: r.message, payload: { recoveryCodes: r.recoveryCodes } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/authenticator/remove",
    tag,
    summary: "Switches the caller's authenticator app off; a current code from it (or a recovery code) confirms (400 otherwise). Sign-in codes then go by e-mail or text again.",
    auth: "token",
    permission: "own-account",
    body: codeBody,
    response: message,
    async handler({ db, env, auth, body, now }) {
      return authenticator.removeOwnAuthenticator(db, env, auth, body.code, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/resetAuthenticator",
    tag,
    summary:
      "Removes another user's authenticator app (a lost phone): a super admin only (403 otherwise), a user of the caller's company only (404 otherwise); 409 when the user has none.",
    auth: "token",
    permission: { modules: "users", action: "modify", superAdmin: true },
    body: z.object({ userId: z.number({ required_error: "userId is required", invalid_type_error: "userId must be a number" }).int() }),
    response: message,
    async handler({ db, auth, body, now }) {
      return authenticator.resetAuthenticator(db, auth, body.userId, now);
    },
  }),
];
