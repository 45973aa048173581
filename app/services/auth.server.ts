/**
 * Sign-in, second factor, password changes and sign-out: the one implementation behind the
 * console pages and the admin API (`/user/login`, `/user/twoFactorAuthenticate`, ...).
 */
import { and, desc, eq, gt, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { NO_CONSOLE_MSG, type changePasswordSchema, type LoginInput, type resetExpiredPasswordSchema, type TwoFactorChannel, type twoFactorSchema } from "~/schemas/auth";
import { activityInsert } from "~/utils/activity-insert.server";
import type { Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { hashPassword, needsRehash, verifyPassword } from "~/utils/password.server";
import { passwordMeetsRules } from "~/utils/password-rules";
import { createSession, deleteSession, type SessionKind } from "~/utils/session.server";
import { randomToken, sha256Hex } from "~/utils/tokens.server";
import { maskedEmail, maskedPhone } from "~/utils/masked";
import { toE164 } from "~/utils/phone";
import { assertNotThrottled, recordFailure, recordSuccess, THROTTLE, throttleKeys, type ThrottleKeys } from "./throttle.server";
import { clientIp } from "~/utils/session.server";
import type { AtRestEnv } from "~/utils/at-rest.server";
import { hasAuthenticator, spendAuthenticatorCode } from "./authenticator.server";
import { issueSignInChallenge, verifySignInAssertion, waitingSignInOptions } from "./passkeys.server";
import { MFA_MSG, mustEnrolFirst } from "./mfa-policy.server";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { SmsSender } from "./sms/sender.server";
import { sendText } from "./sms/texts.server";
import { assertPasswordAllowed, recordBreakGlassSignIn } from "./sso/policy.server";

export const AUTH_MSG = {
  badCredentials: "Incorrect Company ID, Username, or Password",
  deactivated: "Your account has been de-activated",
  flagged: "account has been locked due to suspicious activity",
  noConsole: NO_CONSOLE_MSG,
  expired: "Your password has expired, please reset it",
  twoFactor: "Two Factor Authentication is required to login",
  badCurrent: "Incorrect Current Password",
  mismatch: "The password confirmation does not match",
  weak: "The password does not meet the password rules",
  badCompanyOrEmail: "Invalid Company ID or Email",
  badCode: "The code is invalid or has expired",
  badLink: "This reset link is invalid or has expired",
  rootFromPhone: "You cannot log into the root company from the mobile app",
  codeTexted: "A new code has been sent to your phone by text message",
  codeNotTexted: "The text message could not be sent; a new code has been sent to your email",
  codeMailed: "A new code has been sent to your email",
  noCodeToText: "Sign in with your password first; then the code can be sent by text message",
  noCodeToMail: "Sign in with your password first; then the code can be sent by email",
} as const;

const TWO_FACTOR_TTL_MS = 5 * 60 * 1000;
const TWO_FACTOR_MAX_ATTEMPTS = 5;
const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

export type LoginPayload = {
  dispay_name: string;
  id: number;
  role_id: number | null;
  comp_id: number;
  company_type: string;
  e_mail: string;
  company: { company_name: string; company_id: string };
};
export type LoginResult = { token: string; sessionId: string; payload: LoginPayload; message: string };
type BatchItem = Parameters<Db["batch"]>[0][number];
type CallContext = { request: Request; kind: SessionKind; now: number };
/** A sign-in with the password: a second factor's code may go out by text message. */
type SignInContext = { request: Request; now: number; sms: SmsSender };

export type Account = { user: typeof schema.users.$inferSelect; company: typeof schema.companies.$inferSelect };

/**
 * A valid hash of a random password, verified when no account matched (or it has no password yet),
 * so an unknown account costs the same time as a wrong password and timing reveals nothing.
 */
const DUMMY_HASH = "pbkdf2-sha256$100000$6h6E1550B8YQ0bhCNP2eJg$5SRHXihtsNMCHGBRTIeL5QAS8r0eHhgEmL/muLaCH8o";

/** Verifies the password of `account`, or a dummy one when there is no account, in the same time. */
async function passwordMatches(account: Account | null, password: string): Promise<boolean> {
  const stored = account?.user.passwordHash;
  const ok = await verifyPassword(password, stored || DUMMY_HASH);
  return Boolean(account && stored && ok);
}

/** The throttle keys of a sign-in: on the resolved account, or on the normalised identifier when none matched. */
function keysFor(account: Account | null, input: { companyId: string; userName: string }, request: Request): ThrottleKeys {
  const ip = clientIp(request);
  return throttleKeys(account ? { userId: account.user.id } : { companyCode: input.companyId, userName: input.userName }, ip);
}

/** Counts a failed attempt; when the account starts being slowed down, its owner is told by e-mail once. */
async function failedAttempt(db: Db, account: Account | null, keys: ThrottleKeys, now: number): Promise<void> {
  const failures = await recordFailure(db, keys, now);
  if (account && failures === THROTTLE.accountSlowAfter) {
    await db.insert(schema.mailOutbox).values({
      companyId: account.company.id,
      toAddress: account.user.email,
      subject: "Failed sign-in attempts on your account",
      body:
        `There were ${failures} failed sign-in attempts on your ${account.company.code} account in the last ${THROTTLE.windowMs / 60_000} minutes. ` +
        "Devices you have signed in from before are not affected; other devices must now wait between tries. " +
        "If these attempts were not yours, reset your password.",
      createdAt: now,
    });
  }
}

/**
 * Finds a live user by company code and email or phone (both case- and format-insensitive). Phones are
 * stored as E.164 (decision 0037): a national number is read in the company's default country.
 */
export async function findAccount(db: Db, companyCode: string, userName: string): Promise<Account | null> {
  const name = userName.trim().toLowerCase();
  const digits = name.replace(/\D/g, "");
  const byPhone = digits.length >= 7 && !name.includes("@");
  // Only digits and a leading '+' matter ("555-100-0003#", "(555) 100 0003" name the same phone).
  const phone = byPhone ? toE164(await defaultCountryOf(db, companyCode), name.replace(/[^\d+]/g, "")) : null;
  const rows = await db
    .select({ user: schema.users, company: schema.companies })
    .from(schema.users)
    .innerJoin(schema.companies, eq(schema.companies.id, schema.users.companyId))
    .where(
      and(
        eq(schema.companies.code, companyCode.toUpperCase()),
        isNull(schema.companies.deletedAt),
        isNull(schema.users.deletedAt),
        phone ? or(eq(schema.users.phoneNumber, phone), eq(schema.users.email, name)) : eq(schema.users.email, name),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** The calling code national numbers are read in at sign-in ('001' when the company has no settings yet). */
async function defaultCountryOf(db: Db, companyCode: string): Promise<string> {
  const [row] = await db
    .select({ code: schema.companySettings.defaultCountryCode })
    .from(schema.companySettings)
    .innerJoin(schema.companies, eq(schema.companies.id, schema.companySettings.companyId))
    .where(eq(schema.companies.code, companyCode.toUpperCase()))
    .limit(1);
  return row?.code ?? "001";
}

export function loginPayload({ user, company }: Account): LoginPayload {
  return {
    dispay_name: user.displayName,
    id: user.id,
    role_id: user.roleId,
    comp_id: company.id,
    company_type: company.type,
    e_mail: user.email,
    company: { company_name: company.name, company_id: company.code },
  };
}

export async function settingsOf(db: Db, companyId: number) {
  return db.query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, companyId) });
}

/**
 * The checks that apply after the password is known to be right, in the spec's order. The phone app
 * is open to every user of a customer company, never to the root company.
 */
async function assertMaySignIn(db: Db, account: Account, now: number, surface: SignInSurface): Promise<void> {
  const { user, company } = account;
  if (surface === "mobile" && company.type === "root") throw new ServiceError(403, AUTH_MSG.rootFromPhone, { errorCode: "root-company" });
  if (user.isInactive || company.isDeactive) throw new ServiceError(401, AUTH_MSG.deactivated, { errorCode: "deactivated" });
  if (user.isFlagged) throw new ServiceError(401, AUTH_MSG.flagged, { errorCode: "flagged" });
  if (surface === "console" && !user.isSentinel && !user.isSuperAdmin) throw new ServiceError(401, AUTH_MSG.noConsole, { errorCode: "no-console" });
  // A company that requires single sign-on takes no password but its break-glass admin's (decision 0121).
  if (surface === "console") await assertPasswordAllowed(db, account);
  const settings = await settingsOf(db, company.id);
  const months = settings?.passwordExpiryMonths ?? 0;
  const changed = user.passwordChangedAt ?? user.createdAt;
  if (months > 0 && changed + months * MONTH_MS < now) {
    throw new ServiceError(401, AUTH_MSG.expired, { errorCode: "password-expired" });
  }
}

async function startSession(db: Db, account: Account, ctx: CallContext, message: string): Promise<LoginResult> {
  const { user, company } = account;
  // The company's MFA policy (decision 0123): a covered user without an authenticator app or a passkey gets a
  // console session for enrolment only; the admin API refuses them.
  const enrolFirst = ctx.kind !== "mobile" && (await mustEnrolFirst(db, user));
  if (enrolFirst && ctx.kind === "api") throw new ServiceError(403, MFA_MSG.apiRefused, { errorCode: "mfa-enrolment-required" });
  const session = await createSession(db, { userId: user.id, companyId: company.id, kind: ctx.kind, request: ctx.request, now: ctx.now });
  if (enrolFirst) await db.update(schema.sessions).set({ mfaEnrolmentOnly: true }).where(eq(schema.sessions.id, session.id));
  await db.batch([
    db.update(schema.users).set({ lastActivityAt: ctx.now }).where(eq(schema.users.id, user.id)),
    activityInsert(db, {
      companyId: company.id,
      name: "User Logs In",
      createdByUserId: user.id,
      targetUserId: user.id,
      summary: `${user.displayName} signed in to the ${ctx.kind === "web" ? "console" : "admin API"}`,
      at: ctx.now,
    }),
  ]);
  // Every console and admin API session a password opened passes here: a break-glass one is logged and mailed.
  if (await assertPasswordAllowed(db, account)) await recordBreakGlassSignIn(db, account, ctx.now);
  return { token: session.token, sessionId: session.id, payload: loginPayload(account), message };
}

export type Settings = Awaited<ReturnType<typeof settingsOf>>;
export type SignInSurface = "console" | "mobile";
/** A surface's own check, after the account checks and before anything is written (the phone's binding). */
type SurfaceCheck = (account: Account, settings: Settings) => void;

/**
 * The sign-in sequence of every surface (console, admin API, phone app), in one place so that a change
 * reaches them all: throttle, password (in the same time whether or not the account exists), account
 * checks, the surface's check, rehash, then the second factor: a company that requires it sends a code
 * by the user's chosen channel and answers 402, saying where the code went. Returns the account and its
 * settings for the caller to open its session.
 */
export async function signIn(
  db: Db,
  input: { companyId: string; userName: string; password: string },
  ctx: SignInContext,
  surface: SignInSurface = "console",
  check?: SurfaceCheck,
): Promise<{ account: Account; settings: Settings }> {
  const account = await findAccount(db, input.companyId, input.userName);
  const keys = keysFor(account, input, ctx.request);
  await assertNotThrottled(db, keys, ctx.now);
  if (!(await passwordMatches(account, input.password)) || !account) {
    await failedAttempt(db, account, keys, ctx.now);
    throw new ServiceError(401, AUTH_MSG.badCredentials, { errorCode: "bad-credentials" });
  }
  await recordSuccess(db, keys, ctx.now);
  await assertMaySignIn(db, account, ctx.now, surface);
  const settings = await settingsOf(db, account.company.id);
  check?.(account, settings);
  if (needsRehash(account.user.passwordHash!)) {
    await db
      .update(schema.users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(schema.users.id, account.user.id));
  }
  // An authenticator app the user switched on is asked for at every console sign-in (whatever the
  // company requires), instead of a mailed or texted code (decision 0120). The phone app keeps its own.
  const byApp = surface === "console" && (await hasAuthenticator(db, account.user.id));
  // A passkey is offered likewise (decision 0123): a single-use challenge issued now, after the right password.
  const passkey = surface === "console" ? await issueSignInChallenge(db, account.user.id, ctx.now) : null;
  if (byApp || passkey || settings?.require2fa) {
    const sent: CodeDelivery = byApp ? BY_AUTHENTICATOR : passkey ? BY_PASSKEY : await sendTwoFactorCode(db, account, account.user.twoFactorChannel, ctx);
    const phone = account.user.phoneNumber;
    const phoneNumber = phone ? `***-***-${phone.slice(-4)}` : "";
    // The spec's 402 carries phoneNumber beside message and errorCode; the payload keeps it, and says where the code went.
    throw new ServiceError(402, AUTH_MSG.twoFactor, {
      errorCode: "2fa-required",
      payload: { phoneNumber, e_mail: account.user.email, ...sent, ...(passkey && { passkey }) },
      extra: { phoneNumber },
    });
  }
  return { account, settings };
}

/** The second half of a sign-in with a code: spends the code, then the same checks as `signIn`. */
export async function signInWithCode(
  db: Db,
  input: z.infer<typeof twoFactorSchema>,
  ctx: { request: Request; now: number; env: AtRestEnv },
  surface: SignInSurface = "console",
  check?: SurfaceCheck,
): Promise<{ account: Account; settings: Settings }> {
  const account = await checkTwoFactorCode(db, input, ctx, surface);
  await assertMaySignIn(db, account, ctx.now, surface);
  const settings = await settingsOf(db, account.company.id);
  check?.(account, settings);
  return { account, settings };
}

export async function login(db: Db, input: LoginInput, ctx: CallContext & SignInContext): Promise<LoginResult> {
  const { account } = await signIn(db, input, ctx);
  return startSession(db, account, ctx, "Login successful");
}

async function newTwoFactorCode(db: Db, { user, company }: Account, now: number) {
  const code = String(crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000).padStart(6, "0");
  const statement = db.insert(schema.twoFactorCodes).values({
    userId: user.id,
    companyId: company.id,
    codeHash: await sha256Hex(`${user.id}:${code}`),
    expiresAt: now + TWO_FACTOR_TTL_MS,
    createdAt: now,
  });
  return { code, statement };
}

/**
 * Where a sign-in code went: `channel` is where it was sent, `preferredChannel` the user's choice (text falls
 * back to e-mail); both 'authenticator' when the code is to come from the user's authenticator app (nothing sent).
 */
export type CodeDelivery = SentCode | typeof BY_AUTHENTICATOR | typeof BY_PASSKEY;
/** A code that went out by e-mail or text. */
export type SentCode = { channel: TwoFactorChannel; preferredChannel: TwoFactorChannel; sentTo: string };
const BY_AUTHENTICATOR = { channel: "authenticator", preferredChannel: "authenticator", sentTo: "" } as const;
/** A user with passkeys and no authenticator app: nothing sent; a code by e-mail or text may be asked for instead. */
const BY_PASSKEY = { channel: "passkey", preferredChannel: "passkey", sentTo: "" } as const;

/**
 * A new sign-in code, replacing any waiting one, sent by `channel`. A text goes through the text
 * channel's sender and limits; when it cannot go out (no E.164 phone, a limit reached, the provider
 * refused or is unreachable) the code is mailed instead, and the answer says so.
 */
async function sendTwoFactorCode(db: Db, account: Account, channel: TwoFactorChannel, ctx: { now: number; sms: SmsSender }): Promise<SentCode> {
  const { user, company } = account;
  const { code, statement } = await newTwoFactorCode(db, account, ctx.now);
  const t = schema.twoFactorCodes;
  const retire = db
    .update(t)
    .set({ usedAt: ctx.now })
    .where(and(eq(t.userId, user.id), isNull(t.usedAt)));
  const mail = db.insert(schema.mailOutbox).values({ companyId: company.id, toAddress: user.email, ...signInMail(code), createdAt: ctx.now });
  const byEmail = { channel: "email", preferredChannel: channel, sentTo: maskedEmail(user.email) } as const;
  if (channel === "email") {
    await db.batch([retire, statement, mail]);
    return byEmail;
  }
  await db.batch([retire, statement]);
  const language = (await settingsOf(db, company.id))?.language ?? "en";
  const text = { companyId: company.id, userId: user.id, to: user.phoneNumber, body: SIGN_IN_TEXT[language](code), purpose: "sign-in code" };
  if (await sendText(db, ctx.sms, text, ctx.now)) return { channel: "text", preferredChannel: channel, sentTo: maskedPhone(user.phoneNumber) };
  await mail;
  return byEmail;
}

const RESEND = {
  text: { refused: AUTH_MSG.noCodeToText, sent: AUTH_MSG.codeTexted, fellBack: AUTH_MSG.codeNotTexted },
  email: { refused: AUTH_MSG.noCodeToMail, sent: AUTH_MSG.codeMailed, fellBack: AUTH_MSG.codeMailed },
} as const;

/**
 * Sends the sign-in code again by `channel` ("by text message instead", "by e-mail instead"): a new code
 * replaces the one waiting. Only while a code is waiting, that is within five minutes of a sign-in with
 * the right password, so nobody else can make texts go out; an unknown account is answered like one with
 * no code waiting. A text that cannot go out is mailed instead.
 */
export async function resendTwoFactorCode(
  db: Db,
  input: { companyId: string; userName: string },
  channel: TwoFactorChannel,
  ctx: { now: number; sms: SmsSender },
): Promise<SentCode & { message: string }> {
  const account = await findAccount(db, input.companyId, input.userName);
  const t = schema.twoFactorCodes;
  const waiting = account
    ? await db.query.twoFactorCodes.findFirst({
        where: and(eq(t.userId, account.user.id), isNull(t.usedAt), gt(t.expiresAt, ctx.now), lt(t.attempts, TWO_FACTOR_MAX_ATTEMPTS)),
        orderBy: desc(t.createdAt),
      })
    : undefined;
  // A user with an authenticator app is never sent a code: answered like an account with no code waiting. A
  // passkey's waiting sign-in challenge (the password was right) lets a code be asked for instead.
  const passkeyWaiting = account && !waiting ? await waitingSignInOptions(db, account.user.id, ctx.now) : null;
  if (!account || !(waiting || passkeyWaiting) || (await hasAuthenticator(db, account.user.id)))
    throw new ServiceError(400, RESEND[channel].refused, { errorCode: "no-code-waiting" });
  const sent = await sendTwoFactorCode(db, account, channel, ctx);
  return { ...sent, message: sent.channel === channel ? RESEND[channel].sent : RESEND[channel].fellBack };
}

const SIGN_IN_TEXT = {
  en: (code: string) => `Keyless Access: your sign-in code is ${code}. It is valid for 5 minutes.`,
  es: (code: string) => `Keyless Access: su código de acceso es ${code}. Vale durante 5 minutos.`,
} as const;

const signInMail = (code: string) => ({ subject: "Your sign-in code", body: `Your sign-in code is ${code}. It is valid for 5 minutes.` });

export async function twoFactorAuthenticate(db: Db, input: z.infer<typeof twoFactorSchema>, ctx: CallContext & { env: AtRestEnv }): Promise<LoginResult> {
  const { account } = await signInWithCode(db, input, ctx);
  return startSession(db, account, ctx, "Login successful");
}

/**
 * Completes a console or admin API sign-in with a passkey (decision 0123): the assertion answers the challenge
 * issued after the right password; a refused one counts as a failed sign-in, like a wrong code.
 */
export async function passkeyAuthenticate(
  db: Db,
  input: { companyId: string; userName: string; response: AuthenticationResponseJSON },
  ctx: CallContext & { env: Env },
): Promise<LoginResult> {
  const account = await findAccount(db, input.companyId, input.userName);
  const keys = keysFor(account, input, ctx.request);
  await assertNotThrottled(db, keys, ctx.now);
  if (!account) {
    await failedAttempt(db, null, keys, ctx.now);
    throw new ServiceError(401, AUTH_MSG.badCode, { errorCode: "passkey-failed" });
  }
  try {
    await verifySignInAssertion(db, ctx.env, ctx.request, account.user, input.response, ctx.now);
  } catch (e) {
    if (e instanceof ServiceError) await failedAttempt(db, account, keys, ctx.now);
    throw e;
  }
  await assertMaySignIn(db, account, ctx.now, "console");
  return startSession(db, account, ctx, "Login successful");
}

/**
 * Spends a valid sign-in code and returns its account; a wrong, used or expired code is a 401 and counts as a failure.
 * Each code tried takes one of the code's attempts before it is compared, and the code is spent by one
 * conditional update, so guesses sent at once count one by one and a code signs in once.
 */
async function checkTwoFactorCode(
  db: Db,
  input: z.infer<typeof twoFactorSchema>,
  ctx: { request: Request; now: number; env: AtRestEnv },
  surface: SignInSurface,
): Promise<Account> {
  const account = await findAccount(db, input.companyId, input.userName);
  const keys = keysFor(account, input, ctx.request);
  await assertNotThrottled(db, keys, ctx.now);
  if (account && surface === "console" && (await hasAuthenticator(db, account.user.id))) return checkAuthenticatorCode(db, account, input.code, keys, ctx);
  const t = schema.twoFactorCodes;
  const latest = account ? await db.query.twoFactorCodes.findFirst({ where: and(eq(t.userId, account.user.id), isNull(t.usedAt)), orderBy: desc(t.createdAt) }) : undefined;
  const open = latest ? and(eq(t.id, latest.id), isNull(t.usedAt), gt(t.expiresAt, ctx.now)) : undefined;
  const taken = open
    ? await db
        .update(t)
        .set({ attempts: sql`${t.attempts} + 1` })
        .where(and(open, lt(t.attempts, TWO_FACTOR_MAX_ATTEMPTS)))
        .returning({ id: t.id })
    : [];
  const right = account && latest && taken.length > 0 && latest.codeHash === (await sha256Hex(`${account.user.id}:${input.code}`));
  const spent = right ? await db.update(t).set({ usedAt: ctx.now }).where(open).returning({ id: t.id }) : [];
  if (!account || spent.length === 0) {
    await failedAttempt(db, account ?? null, keys, ctx.now);
    throw new ServiceError(401, AUTH_MSG.badCode, { errorCode: "bad-code" });
  }
  return account;
}

/** The authenticator's half of `checkTwoFactorCode`: a wrong, replayed or spent code counts as a failed sign-in. */
async function checkAuthenticatorCode(db: Db, account: Account, code: string, keys: ThrottleKeys, ctx: { now: number; env: AtRestEnv }): Promise<Account> {
  const matched = await spendAuthenticatorCode(db, ctx.env, account.user.id, code, ctx.now);
  if (!matched) {
    await failedAttempt(db, account, keys, ctx.now);
    throw new ServiceError(401, AUTH_MSG.badCode, { errorCode: "bad-code" });
  }
  if (matched === "recovery") {
    const { user, company } = account;
    await activityInsert(db, {
      companyId: company.id,
      name: "Recovery Code Used",
      createdByUserId: user.id,
      targetUserId: user.id,
      summary: `${user.displayName} signed in with a recovery code`,
      at: ctx.now,
    });
  }
  return account;
}

export function assertNewPassword(newPassword: string, confirm: string | undefined) {
  if (confirm !== undefined && newPassword !== confirm) {
    throw new ServiceError(400, AUTH_MSG.mismatch, { fieldErrors: { confirmPassword: [AUTH_MSG.mismatch] } });
  }
  if (!passwordMeetsRules(newPassword)) throw new ServiceError(400, AUTH_MSG.weak, { fieldErrors: { newPassword: [AUTH_MSG.weak] } });
}

/**
 * Sets a new password and ends everything the old one opened: every other session and API token of
 * the account, its unused reset links and sign-in codes. `keepSessionId` is the caller's own session
 * (a change from the console or the API keeps the one that made it).
 */
export async function setPassword(db: Db, account: { id: number; companyId: number }, password: string, now: number, by: number, keepSessionId?: string) {
  const s = schema.sessions;
  await db.batch([
    db
      .update(schema.users)
      .set({ passwordHash: await hashPassword(password), passwordChangedAt: now, accountSetupPending: false, updatedAt: now })
      .where(eq(schema.users.id, account.id)),
    db.delete(s).where(and(eq(s.userId, account.id), keepSessionId ? ne(s.id, keepSessionId) : undefined)),
    db.delete(schema.passwordResetTokens).where(eq(schema.passwordResetTokens.userId, account.id)),
    db.delete(schema.twoFactorCodes).where(eq(schema.twoFactorCodes.userId, account.id)),
    activityInsert(db, { companyId: account.companyId, name: "Password Changed", createdByUserId: by, targetUserId: account.id, at: now }),
  ]);
}

export async function resetExpiredPassword(db: Db, input: z.infer<typeof resetExpiredPasswordSchema>, ctx: CallContext) {
  const account = await findAccount(db, input.companyId, input.userName);
  const keys = keysFor(account, input, ctx.request);
  await assertNotThrottled(db, keys, ctx.now);
  if (!(await passwordMatches(account, input.currentPassword)) || !account) {
    await failedAttempt(db, account, keys, ctx.now);
    throw new ServiceError(401, AUTH_MSG.badCurrent, { errorCode: "bad-current", fieldErrors: { currentPassword: [AUTH_MSG.badCurrent] } });
  }
  assertNewPassword(input.newPassword, input.confirmPassword);
  await recordSuccess(db, keys, ctx.now);
  await setPassword(db, account.user, input.newPassword, ctx.now, account.user.id);
  return { message: "Password reset successfully" };
}

export async function changePassword(db: Db, auth: Auth, input: z.infer<typeof changePasswordSchema>, now: number) {
  const user = await db.query.users.findFirst({ where: eq(schema.users.id, auth.user.id) });
  if (!user || !(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new ServiceError(400, AUTH_MSG.badCurrent, { fieldErrors: { currentPassword: [AUTH_MSG.badCurrent] } });
  }
  assertNewPassword(input.newPassword, input.confirmPassword);
  await setPassword(db, user, input.newPassword, now, auth.user.id, auth.session.id);
  return { message: "Password changed successfully" };
}

/** How long a set-password link lives: an hour for a reset, a week for an invite (decision 0055). */
export const PASSWORD_LINK_TTL_MS = { reset: 60 * 60 * 1000, invite: 7 * 24 * 60 * 60 * 1000 } as const;
export type PasswordLinkPurpose = keyof typeof PASSWORD_LINK_TTL_MS;
export type LandsOn = "console" | "phone";

/** The stored form of a reset link's texted code (mode 'text', decision 0062): salted by the link. */
export const resetCodeHash = (linkId: string, code: string) => sha256Hex(`${linkId}:${code}`);

/**
 * A one-time set-password link and the statement that stores its hash: the one machinery behind reset
 * links and invites. `user.id` may be a subquery when the user is created in the same batch. With a
 * `language` (an invite's, the company's), the page opens in it: the person has never chosen one.
 */
export async function passwordLink(
  db: Db,
  user: { id: number | SQL; companyId: number | SQL },
  link: { purpose: PasswordLinkPurpose; landsOn: LandsOn; language?: "en" | "es"; code?: string },
  ctx: { origin: string; now: number },
): Promise<{ url: string; statement: BatchItem }> {
  const token = randomToken();
  const id = await sha256Hex(token);
  const statement = db.insert(schema.passwordResetTokens).values({
    id,
    userId: user.id,
    companyId: user.companyId,
    purpose: link.purpose,
    landsOn: link.landsOn,
    codeHash: link.code ? await resetCodeHash(id, link.code) : null,
    expiresAt: ctx.now + PASSWORD_LINK_TTL_MS[link.purpose],
    createdAt: ctx.now,
  });
  return { url: `${ctx.origin}/resetPassword/${token}${link.language ? `?lng=${link.language}` : ""}`, statement };
}

/** What a set-password page shows about its link: whose account it opens, and where it lands. */
export type PasswordLinkInfo = {
  purpose: PasswordLinkPurpose;
  landsOn: LandsOn;
  companyName: string;
  companyCode: string;
  email: string;
  language: "en" | "es";
  /** Reset mode 'text': the page also asks for the code texted to the phone. */
  needsCode: boolean;
};

/** A usable link's account (the user may sign in to the console or only to the phone); null when used, expired or unknown. */
export async function usableLink(db: Db, token: string, now: number) {
  const t = schema.passwordResetTokens;
  const [row] = await db
    .select({ link: t, user: schema.users, company: schema.companies, language: schema.companySettings.language })
    .from(t)
    .innerJoin(schema.users, and(eq(schema.users.id, t.userId), isNull(schema.users.deletedAt)))
    .innerJoin(schema.companies, and(eq(schema.companies.id, schema.users.companyId), isNull(schema.companies.deletedAt)))
    .leftJoin(schema.companySettings, eq(schema.companySettings.companyId, schema.companies.id))
    .where(eq(t.id, await sha256Hex(token)))
    .limit(1);
  if (!row || row.link.usedAt != null || row.link.expiresAt <= now) return null;
  // A user without console rights is always sent to the phone app.
  const landsOn: LandsOn = row.user.isSentinel || row.user.isSuperAdmin ? row.link.landsOn : "phone";
  return { ...row, landsOn };
}

export async function describePasswordLink(db: Db, token: string, now: number): Promise<PasswordLinkInfo | null> {
  const row = await usableLink(db, token, now);
  if (!row) return null;
  return {
    purpose: row.link.purpose,
    landsOn: row.landsOn,
    companyName: row.company.name,
    companyCode: row.company.code,
    email: row.user.email,
    language: row.language ?? "en",
    needsCode: row.link.codeHash != null,
  };
}

/** Ends the session; the 'User Logs Out' entry is written only by the call that actually ended it. */
export async function logout(db: Db, auth: Auth, now: number, reason: "user" | "idle" = "user"): Promise<boolean> {
  const ended = await deleteSession(db, auth.session.id);
  if (ended) await recordSignOut(db, { sessionId: auth.session.id, companyId: auth.company.id, userId: auth.user.id, displayName: auth.user.displayName }, reason, now);
  return ended;
}

const SIGN_OUT_SUMMARY = {
  user: (name: string) => `${name} signed out`,
  idle: (name: string) => `${name} was signed out after inactivity`,
  ended: (name: string) => `${name}'s session ended`,
} as const;

/**
 * The 'User Logs Out' entry of an ended session, its text the server's own, in one batch with the
 * removal of the session's ended_sessions row (the trigger of migration 0032), so it is recorded once.
 */
export async function recordSignOut(
  db: Db,
  who: { sessionId: string; companyId: number; userId: number; displayName: string },
  reason: keyof typeof SIGN_OUT_SUMMARY,
  now: number,
): Promise<void> {
  await db.batch([
    db.delete(schema.endedSessions).where(eq(schema.endedSessions.id, who.sessionId)),
    activityInsert(db, {
      companyId: who.companyId,
      name: "User Logs Out",
      createdByUserId: who.userId,
      targetUserId: who.userId,
      summary: SIGN_OUT_SUMMARY[reason](who.displayName),
      details: { reason },
      at: now,
    }),
  ]);
}
