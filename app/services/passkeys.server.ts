/**
 * Console passkeys (WebAuthn) as a user's second factor (decision 0123). Every signature, the origin, the
 * RP id, the user-verification flag and the counter are checked by `@simplewebauthn/server` (WebCrypto in the
 * Worker); this file keeps the credentials and the single-use challenges. The phone's WebAuthn check is
 * separate (phone-webauthn.server.ts, decision 0039).
 */
import {
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { publicOrigin } from "~/utils/origin.server";
import { liveInCompany } from "~/utils/tenant.server";

export const PASSKEY_MSG = {
  added: "Passkey added",
  removed: "Passkey removed",
  renamed: "Passkey renamed",
  reset: "Passkeys removed: the user signs in without them",
  notFound: "Passkey not found",
  none: "The user has no passkeys",
  failed: "The passkey could not be verified",
  noChallenge: "Start again: this passkey request has expired or was already used",
  badName: "Name the passkey (1 to 60 characters)",
  tooMany: "A user can have at most 10 passkeys",
} as const;

const RP_NAME = "Keyless Access";
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const MAX_PASSKEYS = 10;

const p = schema.consolePasskeys;
const ch = schema.passkeyChallenges;

/**
 * The origin and RP id a console passkey is bound to: the console's public origin (PUBLIC_ORIGIN). An IP
 * address cannot be an RP id, so a local runner served at 127.0.0.1 (never production) is addressed as
 * localhost on the same port for passkeys.
 */
export function relyingParty(env: Env, request: Request): { origin: string; rpID: string } {
  const url = new URL(publicOrigin(env, request));
  if (url.hostname === "127.0.0.1" && (env.ENVIRONMENT as string) !== "production") url.hostname = "localhost";
  return { origin: url.origin, rpID: url.hostname };
}

export type PasskeyView = { id: number; name: string; createdAt: number; lastUsedAt: number | null };

/** A user's passkeys, newest first (no key material). */
export async function listPasskeys(db: Db, userId: number): Promise<PasskeyView[]> {
  return db.select({ id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt }).from(p).where(eq(p.userId, userId)).orderBy(desc(p.createdAt), desc(p.id));
}

export async function hasPasskey(db: Db, userId: number): Promise<boolean> {
  return Boolean(await db.query.consolePasskeys.findFirst({ where: eq(p.userId, userId), columns: { id: true } }));
}

const transportsOf = (json: string) => JSON.parse(json) as AuthenticatorTransportFuture[];

function newChallenge(db: Db, userId: number, purpose: "register" | "sign-in", now: number) {
  const challenge = isoBase64URL.fromBuffer(crypto.getRandomValues(new Uint8Array(32)));
  return { challenge, statement: db.insert(ch).values({ userId, purpose, challenge, expiresAt: now + CHALLENGE_TTL_MS, createdAt: now }) };
}

/** Spends the challenge the client signed, if it is this user's, of this purpose, unused and unexpired; else null. */
async function spendChallenge(db: Db, userId: number, purpose: "register" | "sign-in", clientDataJSON: string, now: number): Promise<string | null> {
  let challenge: string;
  try {
    challenge = (JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown }).challenge as string;
  } catch {
    return null;
  }
  if (typeof challenge !== "string" || !challenge) return null;
  const spent = await db
    .update(ch)
    .set({ usedAt: now })
    .where(and(eq(ch.challenge, challenge), eq(ch.userId, userId), eq(ch.purpose, purpose), isNull(ch.usedAt), gt(ch.expiresAt, now)))
    .returning({ id: ch.id });
  return spent.length > 0 ? challenge : null;
}

/** Options for navigator.credentials.create: a resident key, user verification required, the user's passkeys excluded. */
export async function registrationOptions(db: Db, env: Env, request: Request, auth: Auth, now: number): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await db.query.consolePasskeys.findMany({ where: eq(p.userId, auth.user.id) });
  if (existing.length >= MAX_PASSKEYS) throw new ServiceError(409, PASSKEY_MSG.tooMany);
  const { rpID } = relyingParty(env, request);
  const { challenge, statement } = newChallenge(db, auth.user.id, "register", now);
  await statement;
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userID: new TextEncoder().encode(`kac-user-${auth.user.id}`),
    userName: `${auth.company.code}:${auth.user.email}`,
    userDisplayName: auth.user.displayName,
    challenge: isoBase64URL.toBuffer(challenge),
    attestationType: "none",
    excludeCredentials: existing.map((k) => ({ id: k.credentialId, transports: transportsOf(k.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
    timeout: CHALLENGE_TTL_MS,
  });
}

/** Verifies a registration (challenge spent once, origin, RP id, user verified) and stores the passkey. */
export async function registerPasskey(
  db: Db,
  env: Env,
  request: Request,
  auth: Auth,
  input: { name: string; response: RegistrationResponseJSON },
  now: number,
): Promise<{ message: string; passkey: PasskeyView }> {
  const name = input.name.trim();
  if (!name || name.length > 60) throw new ServiceError(400, PASSKEY_MSG.badName, { fieldErrors: { name: [PASSKEY_MSG.badName] } });
  const challenge = await spendChallenge(db, auth.user.id, "register", input.response?.response?.clientDataJSON ?? "", now);
  if (!challenge) throw new ServiceError(400, PASSKEY_MSG.noChallenge, { errorCode: "passkey-challenge" });
  const { origin, rpID } = relyingParty(env, request);
  const verified = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  }).catch((e: Error) => failed(e.message));
  if (!verified.verified || !verified.registrationInfo) failed("not verified");
  const { credential } = verified.registrationInfo!;
  if (await db.query.consolePasskeys.findFirst({ where: eq(p.credentialId, credential.id), columns: { id: true } })) failed("credential already registered");
  const [row] = await db.batch([
    db
      .insert(p)
      .values({
        userId: auth.user.id,
        companyId: auth.company.id,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? input.response.response.transports ?? []),
        name,
        createdAt: now,
      })
      .returning({ id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt }),
    // A session limited to enrolment by the company's MFA policy becomes a full one (decision 0123).
    db.update(schema.sessions).set({ mfaEnrolmentOnly: false }).where(eq(schema.sessions.userId, auth.user.id)),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Passkey Added",
      createdByUserId: auth.user.id,
      targetUserId: auth.user.id,
      summary: `${auth.user.displayName} added the passkey ${name}`,
      at: now,
    }),
  ]);
  return { message: PASSKEY_MSG.added, passkey: row[0] };
}

function failed(reason: string): never {
  throw new ServiceError(400, PASSKEY_MSG.failed, { errorCode: "passkey-failed", payload: { reason } });
}

/**
 * A sign-in challenge for a user with passkeys, issued only after the right password (auth.server.ts):
 * the options for navigator.credentials.get, without rpId (the browser uses the page's own domain, which the
 * verification checks). Null when the user has no passkey.
 */
export async function issueSignInChallenge(db: Db, userId: number, now: number): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const keys = await db.query.consolePasskeys.findMany({ where: eq(p.userId, userId) });
  if (keys.length === 0) return null;
  const { challenge, statement } = newChallenge(db, userId, "sign-in", now);
  await statement;
  return requestOptions(challenge, keys);
}

function requestOptions(challenge: string, keys: (typeof p.$inferSelect)[]): PublicKeyCredentialRequestOptionsJSON {
  return {
    challenge,
    allowCredentials: keys.map((k) => ({ id: k.credentialId, type: "public-key", transports: transportsOf(k.transports) })),
    userVerification: "required",
    timeout: CHALLENGE_TTL_MS,
  };
}

/** The sign-in challenge waiting for this user (issued by a sign-in with the right password), as options; null when none. */
export async function waitingSignInOptions(db: Db, userId: number, now: number): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const waiting = await db.query.passkeyChallenges.findFirst({
    where: and(eq(ch.userId, userId), eq(ch.purpose, "sign-in"), isNull(ch.usedAt), gt(ch.expiresAt, now)),
    orderBy: desc(ch.createdAt),
  });
  if (!waiting) return null;
  const keys = await db.query.consolePasskeys.findMany({ where: eq(p.userId, userId) });
  return keys.length ? requestOptions(waiting.challenge, keys) : null;
}

/**
 * Verifies a sign-in assertion of `userId`: the challenge (issued after the password) is spent once, the
 * credential must be one of the user's, and the library checks signature, origin, RP id, user verification and
 * that the counter moved forward. Returns the passkey used; throws 401 'passkey-failed' otherwise.
 */
export async function verifySignInAssertion(
  db: Db,
  env: Env,
  request: Request,
  user: { id: number; companyId: number; displayName: string },
  response: AuthenticationResponseJSON,
  now: number,
): Promise<PasskeyView> {
  const refuse = (reason: string): never => {
    throw new ServiceError(401, PASSKEY_MSG.failed, { errorCode: "passkey-failed", payload: { reason } });
  };
  const challenge = await spendChallenge(db, user.id, "sign-in", response?.response?.clientDataJSON ?? "", now);
  if (!challenge) refuse("challenge unknown, used or expired");
  const key = await db.query.consolePasskeys.findFirst({ where: and(eq(p.userId, user.id), eq(p.credentialId, String(response?.id ?? ""))) });
  if (!key) return refuse("not a passkey of this user");
  const { origin, rpID } = relyingParty(env, request);
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge!,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: key.credentialId, publicKey: isoBase64URL.toBuffer(key.publicKey), counter: key.counter, transports: transportsOf(key.transports) },
    requireUserVerification: true,
  }).catch((e: Error) => refuse(e.message));
  if (!verified.verified) refuse("not verified");
  const newCounter = verified.authenticationInfo.newCounter;
  // Conditional on the counter read: two assertions verified at once move it once.
  const moved = await db
    .update(p)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(and(eq(p.id, key.id), eq(p.counter, key.counter)))
    .returning({ id: p.id });
  if (moved.length === 0) refuse("counter changed meanwhile");
  await activityInsert(db, {
    companyId: user.companyId,
    name: "Passkey Used",
    createdByUserId: user.id,
    targetUserId: user.id,
    summary: `${user.displayName} signed in with the passkey ${key.name}`,
    at: now,
  });
  return { id: key.id, name: key.name, createdAt: key.createdAt, lastUsedAt: now };
}

/** Renames one of the caller's passkeys. */
export async function renamePasskey(db: Db, auth: Auth, id: number, name: string): Promise<{ message: string }> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 60) throw new ServiceError(400, PASSKEY_MSG.badName, { fieldErrors: { name: [PASSKEY_MSG.badName] } });
  const done = await db
    .update(p)
    .set({ name: trimmed })
    .where(and(eq(p.id, id), eq(p.userId, auth.user.id)))
    .returning({ id: p.id });
  if (done.length === 0) notFound(PASSKEY_MSG.notFound);
  return { message: PASSKEY_MSG.renamed };
}

/** Removes one of the caller's own passkeys (the session proves the caller; the page confirms first). */
export async function removeOwnPasskey(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  const key = Number.isInteger(id) ? await db.query.consolePasskeys.findFirst({ where: and(eq(p.id, id), eq(p.userId, auth.user.id)) }) : undefined;
  if (!key) notFound(PASSKEY_MSG.notFound);
  await db.batch([
    db.delete(p).where(eq(p.id, key!.id)),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Passkey Removed",
      createdByUserId: auth.user.id,
      targetUserId: auth.user.id,
      summary: `${auth.user.displayName} removed the passkey ${key!.name}`,
      at: now,
    }),
  ]);
  return { message: PASSKEY_MSG.removed };
}

/** A live user of the caller's company, for a super admin's look or reset; anyone else is not found. */
async function companyUser(db: Db, auth: Auth, userId: number) {
  assertCan(auth, "users", "modify");
  if (!auth.user.isSuperAdmin) forbidden();
  const u = schema.users;
  const found = Number.isInteger(userId) && userId > 0 ? await db.query.users.findFirst({ where: liveInCompany(u, auth, eq(u.id, userId)) }) : undefined;
  return found ?? notFound("User not found");
}

/** Another user's passkeys, for a super admin with the users modify right (their own company only). */
export async function passkeysOfUser(db: Db, auth: Auth, userId: number): Promise<PasskeyView[]> {
  const user = await companyUser(db, auth, userId);
  return listPasskeys(db, user.id);
}

/**
 * A super admin with the users modify right removes every passkey of another user of their company (a lost
 * device); the removal and its audit entry are one batch.
 */
export async function resetPasskeys(db: Db, auth: Auth, userId: number, now: number): Promise<{ message: string }> {
  const user = await companyUser(db, auth, userId);
  const keys = await listPasskeys(db, user.id);
  if (keys.length === 0) throw new ServiceError(409, PASSKEY_MSG.none);
  await db.batch([
    db.delete(p).where(eq(p.userId, user.id)),
    db.delete(ch).where(eq(ch.userId, user.id)),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Passkeys Reset",
      createdByUserId: auth.user.id,
      targetUserId: user.id,
      summary: `${user.displayName}: ${keys.length} passkey(s) removed by ${auth.user.displayName}`,
      at: now,
    }),
  ]);
  return { message: PASSKEY_MSG.reset };
}
