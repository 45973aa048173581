/**
 * An authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s) as a console user's second factor, with
 * ten one-time recovery codes (decision 0120). The secret is sealed at rest (`sealSecret`); recovery codes
 * are stored as keyed hashes (`hashSecret`) and shown once. Sign-in asks for a code from the app instead of
 * mailing one (auth.server.ts); the code check here accepts the current step ±1 and never a step already used.
 */
import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { RECOVERY_CODE } from "~/schemas/auth";
import { activityInsert } from "~/utils/activity-insert.server";
import { openSecret, sealSecret, type AtRestEnv } from "~/utils/at-rest.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { hashSecret, verifySecret } from "~/utils/secret-hash.server";
import { liveInCompany } from "~/utils/tenant.server";

export const AUTHENTICATOR_MSG = {
  alreadyOn: "An authenticator app is already switched on",
  notStarted: "Start the set-up again: no authenticator app is waiting for a code",
  notOn: "No authenticator app is switched on",
  badCode: "The code is invalid or has expired",
  enrolled: "Authenticator app switched on",
  removed: "Authenticator app switched off",
  reset: "Authenticator app removed: sign-in codes go by e-mail again",
} as const;

const ISSUER = "Keyless Access";
const PERIOD_S = 30;
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

const a = schema.authenticatorApps;
const r = schema.authenticatorRecoveryCodes;

const totpOf = (secret: string, label = "") => new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secret) });
const stepAt = (now: number) => Math.floor(now / 1000 / PERIOD_S);

function newRecoveryCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b & 31]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
const normalRecoveryCode = (code: string) => code.trim().toLowerCase().replace("-", "");

/** The caller's authenticator: on (confirmed), waiting for its first code, or none. */
export async function authenticatorState(db: Db, userId: number): Promise<"on" | "pending" | "off"> {
  const row = await db.query.authenticatorApps.findFirst({ where: eq(a.userId, userId) });
  return !row ? "off" : row.confirmedAt == null ? "pending" : "on";
}

/** Whether `userId` signs in with an authenticator app (a confirmed one). */
export async function hasAuthenticator(db: Db, userId: number): Promise<boolean> {
  return (await authenticatorState(db, userId)) === "on";
}

export type Enrolment = { secret: string; uri: string };

/**
 * Starts (or restarts) enrolment: a new secret, not used at sign-in until confirmed with a code. Refused
 * while one is switched on (switch it off first, with a code).
 */
export async function startEnrolment(db: Db, env: AtRestEnv, auth: Auth, now: number): Promise<Enrolment> {
  if ((await authenticatorState(db, auth.user.id)) === "on") throw new ServiceError(409, AUTHENTICATOR_MSG.alreadyOn);
  const secret = new Secret({ size: 20 }).base32;
  const sealed = await sealSecret(env, secret);
  await db
    .insert(a)
    .values({ userId: auth.user.id, companyId: auth.company.id, secret: sealed, confirmedAt: null, lastStep: 0, createdAt: now })
    .onConflictDoUpdate({ target: a.userId, set: { secret: sealed, confirmedAt: null, lastStep: 0, createdAt: now } });
  return enrolmentOf(secret, auth);
}

/** The waiting enrolment's secret and otpauth:// URI (for the QR code), or null when none waits. */
export async function pendingEnrolment(db: Db, env: AtRestEnv, auth: Auth): Promise<Enrolment | null> {
  const row = await db.query.authenticatorApps.findFirst({ where: and(eq(a.userId, auth.user.id), isNull(a.confirmedAt)) });
  return row ? enrolmentOf(await openSecret(env, row.secret), auth) : null;
}

const enrolmentOf = (secret: string, auth: Auth): Enrolment => ({ secret, uri: totpOf(secret, `${auth.company.code}:${auth.user.email}`).toString() });

/** The step a right code was made at (now ±1 step), or null. */
function matchingStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code.trim())) return null;
  const delta = totpOf(secret).validate({ token: code.trim(), timestamp: now, window: 1 });
  return delta == null ? null : stepAt(now) + delta;
}

/**
 * Switches the waiting authenticator on with a current code, and returns the ten recovery codes (shown
 * once; only their keyed hashes are kept). Sign-in codes waiting by e-mail or text are retired.
 */
export async function confirmEnrolment(db: Db, env: AtRestEnv, auth: Auth, code: string, now: number): Promise<{ recoveryCodes: string[]; message: string }> {
  const row = await db.query.authenticatorApps.findFirst({ where: and(eq(a.userId, auth.user.id), isNull(a.confirmedAt)) });
  if (!row) throw new ServiceError(409, AUTHENTICATOR_MSG.notStarted);
  const step = matchingStep(await openSecret(env, row.secret), code, now);
  if (step == null) throw new ServiceError(400, AUTHENTICATOR_MSG.badCode, { fieldErrors: { code: [AUTHENTICATOR_MSG.badCode] } });
  const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const hashes = await Promise.all(recoveryCodes.map((c) => hashSecret(normalRecoveryCode(c))));
  await db.batch([
    db.update(a).set({ confirmedAt: now, lastStep: step }).where(eq(a.userId, auth.user.id)),
    db.delete(r).where(eq(r.userId, auth.user.id)),
    db.insert(r).values(hashes.map((codeHash) => ({ userId: auth.user.id, codeHash }))),
    db.delete(schema.twoFactorCodes).where(eq(schema.twoFactorCodes.userId, auth.user.id)),
    // A session limited to enrolment by the company's MFA policy becomes a full one (decision 0123).
    db.update(schema.sessions).set({ mfaEnrolmentOnly: false }).where(eq(schema.sessions.userId, auth.user.id)),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Authenticator App Enrolled",
      createdByUserId: auth.user.id,
      targetUserId: auth.user.id,
      summary: `${auth.user.displayName} switched on an authenticator app`,
      at: now,
    }),
  ]);
  return { recoveryCodes, message: AUTHENTICATOR_MSG.enrolled };
}

/**
 * Checks a sign-in code of a user whose authenticator is on: a code from the app (spent by moving
 * `last_step` forward in one conditional update, so a code, or an older one, signs in once) or an unused
 * recovery code (spent likewise). Returns how it matched, or null for a wrong, replayed or spent code.
 */
export async function spendAuthenticatorCode(db: Db, env: AtRestEnv, userId: number, code: string, now: number): Promise<"app" | "recovery" | null> {
  const row = await db.query.authenticatorApps.findFirst({ where: and(eq(a.userId, userId), isNotNull(a.confirmedAt)) });
  if (!row) return null;
  const step = matchingStep(await openSecret(env, row.secret), code, now);
  if (step != null) {
    const moved = await db
      .update(a)
      .set({ lastStep: step })
      .where(and(eq(a.userId, userId), lt(a.lastStep, step)))
      .returning({ userId: a.userId });
    return moved.length > 0 ? "app" : null;
  }
  if (!RECOVERY_CODE.test(code.trim())) return null;
  const unused = await db.query.authenticatorRecoveryCodes.findMany({ where: and(eq(r.userId, userId), isNull(r.usedAt)) });
  for (const candidate of unused) {
    if (!(await verifySecret(normalRecoveryCode(code), candidate.codeHash))) continue;
    const spent = await db
      .update(r)
      .set({ usedAt: now })
      .where(and(eq(r.id, candidate.id), isNull(r.usedAt)))
      .returning({ id: r.id });
    return spent.length > 0 ? "recovery" : null;
  }
  return null;
}

/** How many recovery codes the user has left. */
export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  return (await db.query.authenticatorRecoveryCodes.findMany({ where: and(eq(r.userId, userId), isNull(r.usedAt)), columns: { id: true } })).length;
}

const removal = (db: Db, userId: number) => [db.delete(a).where(eq(a.userId, userId)), db.delete(r).where(eq(r.userId, userId))] as const;

/** Switches the caller's own authenticator off; a current code (or a recovery code) confirms it. */
export async function removeOwnAuthenticator(db: Db, env: AtRestEnv, auth: Auth, code: string, now: number): Promise<{ message: string }> {
  if (!(await hasAuthenticator(db, auth.user.id))) throw new ServiceError(409, AUTHENTICATOR_MSG.notOn);
  if (!(await spendAuthenticatorCode(db, env, auth.user.id, code, now))) {
    throw new ServiceError(400, AUTHENTICATOR_MSG.badCode, { fieldErrors: { code: [AUTHENTICATOR_MSG.badCode] } });
  }
  await db.batch([
    ...removal(db, auth.user.id),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Authenticator App Removed",
      createdByUserId: auth.user.id,
      targetUserId: auth.user.id,
      summary: `${auth.user.displayName} switched off their authenticator app`,
      at: now,
    }),
  ]);
  return { message: AUTHENTICATOR_MSG.removed };
}

/**
 * A super admin with the users modify right removes another user's authenticator (a lost phone): the user
 * signs in with e-mailed codes again. Only a live user of the caller's own company; anyone else is not found.
 */
export async function resetAuthenticator(db: Db, auth: Auth, userId: number, now: number): Promise<{ message: string }> {
  assertCan(auth, "users", "modify");
  if (!auth.user.isSuperAdmin) forbidden();
  const u = schema.users;
  const found = Number.isInteger(userId) && userId > 0 ? await db.query.users.findFirst({ where: liveInCompany(u, auth, eq(u.id, userId)) }) : undefined;
  const user = found ?? notFound("User not found");
  if (!(await db.query.authenticatorApps.findFirst({ where: eq(a.userId, user.id), columns: { userId: true } }))) throw new ServiceError(409, AUTHENTICATOR_MSG.notOn);
  // The removal and its audit entry are one batch: never a removed app without its entry.
  await db.batch([
    ...removal(db, user.id),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Authenticator App Reset",
      createdByUserId: auth.user.id,
      targetUserId: user.id,
      summary: `${user.displayName}: authenticator app removed by ${auth.user.displayName}`,
      at: now,
    }),
  ]);
  return { message: AUTHENTICATOR_MSG.reset };
}
