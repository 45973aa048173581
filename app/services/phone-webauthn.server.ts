/**
 * The phone's platform authenticator, seen by the console (docs/decisions/0039-biometric-claim.md).
 * A phone installation registers its WebAuthn public key once; when the company requires biometrics,
 * every call that signs credentials first verifies a fresh assertion against that key (challenge issued
 * here and used once, origin, RP id hash, user-verified flag, signature, sign count), and the credentials
 * then carry the instant of that verification (`uv`), which boards require.
 *
 * Registration uses attestation "none": nothing vouches for the authenticator's make, only that this
 * session, at this origin, with the user verified, created the key the phone sends.
 */
import { and, eq, lt } from "drizzle-orm";
import {
  assertionSchema,
  BIO_MSG,
  challengeSchema,
  COSE_ALGS,
  registrationSchema,
  type AssertionInput,
  type ChallengeInput,
  type RegistrationInput,
} from "~/schemas/phone-webauthn";
import { activityInsert } from "~/utils/activity-insert.server";
import type { Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { publicOrigin } from "~/utils/origin.server";
import { assertMobile } from "./mobile.server";

/** A challenge answers within this time (the phone's WebAuthn timeout is 60 s). */
export const CHALLENGE_TTL_MS = 120_000;
/** Authenticator data: RP id hash (32 bytes), flags (1), sign count (4, big-endian), then attested credential data. */
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
const AAGUID_END = 37 + 16;

type CallContext = { request: Request; env: Env; now: number };
/** Why an assertion or registration was refused; returned in the error's payload, for the phone's log and for tests. */
type Refusal = "challenge" | "type" | "origin" | "rp" | "flags" | "credential" | "key" | "signature" | "counter";

type Bytes = Uint8Array<ArrayBuffer>;
const toBytes = (s: string): Bytes => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const toB64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const sha256 = async (b: Bytes | string) => new Uint8Array(await crypto.subtle.digest("SHA-256", typeof b === "string" ? new TextEncoder().encode(b) : b));
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

function refuse(status: 400 | 403, message: string, errorCode: string, reason: Refusal): never {
  throw new ServiceError(status, message, { errorCode, payload: { reason } });
}
function refuseAssertion(reason: Refusal): never {
  refuse(403, BIO_MSG.failed, "biometric-failed", reason);
}
function refuseRegistration(reason: Refusal): never {
  refuse(400, BIO_MSG.registrationFailed, "biometric-registration-failed", reason);
}

/**
 * The origins a phone may be using: the configured public origin and the one this request came to (a
 * Worker receives only its own routes' hosts; local runs serve under several names). The RP id is the
 * host name of the origin in use: a browser only asserts for its page's own domain, so an assertion
 * made on another site never carries this RP id's hash.
 */
function relyingParty(ctx: CallContext) {
  const origins = new Set([publicOrigin(ctx.env, ctx.request), new URL(ctx.request.url).origin]);
  return { origins, rpId: new URL(ctx.request.url).hostname };
}

/** Issues a challenge to this mobile session; a new one replaces the session's earlier one of the same purpose. */
export async function issueChallenge(db: Db, auth: Auth, input: ChallengeInput, ctx: CallContext) {
  const installationId = assertMobile(auth);
  const { purpose } = parseInput(challengeSchema, input);
  const challenge = toB64url(crypto.getRandomValues(new Uint8Array(32)));
  const expiresAt = ctx.now + CHALLENGE_TTL_MS;
  const c = schema.webauthnChallenges;
  const a = schema.phoneAuthenticators;
  const [, , registered] = await db.batch([
    db.delete(c).where(and(eq(c.sessionId, auth.session.id), eq(c.purpose, purpose))),
    db.insert(c).values({ challenge, sessionId: auth.session.id, purpose, expiresAt }),
    db
      .select({ credentialId: a.credentialId })
      .from(a)
      .where(and(eq(a.userId, auth.user.id), eq(a.companyId, auth.company.id), eq(a.installationId, installationId))),
  ]);
  return { challenge, purpose, expiresAt, rpId: relyingParty(ctx).rpId, credentialId: registered[0]?.credentialId ?? null };
}

/** Deletes the challenge (whatever follows: a challenge is used once) and says whether it was this session's, live, for this purpose. */
async function consumeChallenge(db: Db, auth: Auth, challenge: unknown, purpose: "create" | "get", now: number): Promise<boolean> {
  if (typeof challenge !== "string" || challenge.length > 128) return false;
  const c = schema.webauthnChallenges;
  const used = await db
    .delete(c)
    .where(and(eq(c.challenge, challenge), eq(c.sessionId, auth.session.id), eq(c.purpose, purpose)))
    .returning({ expiresAt: c.expiresAt });
  // Expired ones of this session go too, so that a session never keeps more than a couple.
  await db.delete(c).where(and(eq(c.sessionId, auth.session.id), lt(c.expiresAt, now)));
  return used.length === 1 && used[0].expiresAt > now;
}

type ClientData = { type?: unknown; challenge?: unknown; origin?: unknown };
function readClientData(b64: string): ClientData | null {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(toBytes(b64)));
    return parsed && typeof parsed === "object" ? parsed : null;
  } catch {
    return null;
  }
}

/** Checks shared by registration and assertion: client data type, challenge, origin, RP id hash, user present and verified. */
async function checkCeremony(
  db: Db,
  auth: Auth,
  ctx: CallContext,
  input: { clientDataJSON: string; authenticatorData: string },
  kind: "create" | "get",
): Promise<{ refusal: Refusal } | { authData: Bytes }> {
  const client = readClientData(input.clientDataJSON);
  // The challenge is spent first, so a refused attempt cannot be tried again with it.
  const fresh = await consumeChallenge(db, auth, client?.challenge, kind, ctx.now);
  if (!client || !fresh) return { refusal: "challenge" };
  if (client.type !== `webauthn.${kind}`) return { refusal: "type" };
  if (typeof client.origin !== "string" || !relyingParty(ctx).origins.has(client.origin)) return { refusal: "origin" };
  const authData = toBytes(input.authenticatorData);
  if (authData.length < 37 || !sameBytes(authData.slice(0, 32), await sha256(new URL(client.origin).hostname))) return { refusal: "rp" };
  if ((authData[32] & (FLAG_UP | FLAG_UV)) !== (FLAG_UP | FLAG_UV)) return { refusal: "flags" };
  return { authData };
}

const signCountOf = (authData: Uint8Array) => new DataView(authData.buffer, authData.byteOffset + 33, 4).getUint32(0);

/** The WebCrypto import and verify parameters of a COSE algorithm. */
function algorithmOf(alg: number) {
  if (alg === -7) return { importAs: { name: "ECDSA", namedCurve: "P-256" }, verifyAs: { name: "ECDSA", hash: "SHA-256" } };
  if (alg === -8) return { importAs: { name: "Ed25519" }, verifyAs: { name: "Ed25519" } };
  return { importAs: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, verifyAs: { name: "RSASSA-PKCS1-v1_5" } };
}

async function importPublicKey(spki: Bytes, alg: number): Promise<CryptoKey | null> {
  try {
    return await crypto.subtle.importKey("spki", spki, algorithmOf(alg).importAs, false, ["verify"]);
  } catch {
    return null;
  }
}

/** WebAuthn's ECDSA signatures are DER (SEQUENCE of two INTEGERs); WebCrypto verifies raw r||s. */
function derToRaw(der: Bytes, size = 32): Bytes | null {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return null;
  const out = new Uint8Array(size * 2);
  let at = 2;
  for (let part = 0; part < 2; part++) {
    if (der[at] !== 0x02) return null;
    const len = der[at + 1];
    let int = der.slice(at + 2, at + 2 + len);
    if (int.length !== len) return null;
    while (int.length > size && int[0] === 0) int = int.slice(1);
    if (int.length > size) return null;
    out.set(int, part * size + size - int.length);
    at += 2 + len;
  }
  return at === der.length ? out : null;
}

/**
 * Registers this installation's platform credential for the caller (replacing an earlier one of the same
 * installation). The authenticator data must show the user verified and carry the credential id sent.
 */
export async function registerAuthenticator(db: Db, auth: Auth, input: RegistrationInput, ctx: CallContext): Promise<{ message: string; credentialId: string }> {
  const installationId = assertMobile(auth);
  const value = parseInput(registrationSchema, input);
  const checked = await checkCeremony(db, auth, ctx, value, "create");
  if ("refusal" in checked) refuseRegistration(checked.refusal);
  const { authData } = checked;
  const credentialId = toBytes(value.credentialId);
  if ((authData[32] & FLAG_AT) === 0 || authData.length < AAGUID_END + 2) refuseRegistration("credential");
  const idLength = new DataView(authData.buffer, authData.byteOffset + AAGUID_END, 2).getUint16(0);
  if (!sameBytes(authData.slice(AAGUID_END + 2, AAGUID_END + 2 + idLength), credentialId)) refuseRegistration("credential");
  if (!(await importPublicKey(toBytes(value.publicKey), value.publicKeyAlgorithm))) refuseRegistration("key");
  const a = schema.phoneAuthenticators;
  const row = {
    companyId: auth.company.id,
    userId: auth.user.id,
    installationId,
    credentialId: value.credentialId,
    publicKey: value.publicKey,
    algorithm: value.publicKeyAlgorithm,
    signCount: signCountOf(authData),
    createdAt: ctx.now,
    lastUsedAt: null,
  };
  await db.batch([
    db
      .insert(a)
      .values(row)
      .onConflictDoUpdate({ target: [a.userId, a.installationId], set: row }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Phone Biometric Registered",
      operationType: "App",
      createdByUserId: auth.user.id,
      targetUserId: auth.user.id,
      summary: `${auth.user.displayName} registered the phone's biometric`,
      details: { installationId, algorithm: value.publicKeyAlgorithm },
      at: ctx.now,
    }),
  ]);
  return { message: "Biometric registered", credentialId: value.credentialId };
}

/**
 * Verifies a fresh assertion of this installation's registered authenticator and returns the instant of
 * the verification (epoch ms). Any failure is a 403 'Biometric verification failed' (code biometric-failed).
 */
export async function verifyAssertion(db: Db, auth: Auth, input: AssertionInput, ctx: CallContext): Promise<number> {
  const installationId = assertMobile(auth);
  const value = parseInput(assertionSchema, input);
  const checked = await checkCeremony(db, auth, ctx, value, "get");
  if ("refusal" in checked) refuseAssertion(checked.refusal);
  const { authData } = checked;
  const a = schema.phoneAuthenticators;
  const registered = await db.query.phoneAuthenticators.findFirst({
    where: and(eq(a.userId, auth.user.id), eq(a.companyId, auth.company.id), eq(a.installationId, installationId), eq(a.credentialId, value.credentialId)),
  });
  if (!registered || !(COSE_ALGS as readonly number[]).includes(registered.algorithm)) refuseAssertion("credential");
  const key = await importPublicKey(toBytes(registered.publicKey), registered.algorithm);
  if (!key) refuseAssertion("key");
  const signed = new Uint8Array([...authData, ...(await sha256(toBytes(value.clientDataJSON)))]);
  const raw = toBytes(value.signature);
  const signature = registered.algorithm === -7 ? derToRaw(raw) : raw;
  if (!signature || !(await crypto.subtle.verify(algorithmOf(registered.algorithm).verifyAs, key, signature, signed))) refuseAssertion("signature");
  // A counter that does not move forward means a cloned authenticator (both zero: the authenticator keeps none).
  const count = signCountOf(authData);
  if ((count !== 0 || registered.signCount !== 0) && count <= registered.signCount) refuseAssertion("counter");
  const moved = await db
    .update(a)
    .set({ signCount: count, lastUsedAt: ctx.now })
    .where(and(eq(a.id, registered.id), count === 0 ? eq(a.signCount, 0) : lt(a.signCount, count)))
    .returning({ id: a.id });
  if (moved.length !== 1) refuseAssertion("counter");
  return ctx.now;
}
