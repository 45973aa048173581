/**
 * Signed offline credentials (docs/decisions/0028-signed-offline-credentials.md; format, claims and
 * verification order in gateway/PROTOCOL.md, "Signed credentials"). One credential per user and key:
 * a compact JWS, EdDSA over Ed25519, that a board verifies with no network. The claims carry the
 * key's window in the core's JSON, so the board decides with the same engine as the console.
 */
import { CompactSign } from "jose";
import type { AccessWindow, Core } from "~core";
import type { SigningKey } from "./credential-keys.server";
import type { LockdownRecord } from "./lockdown.server";

export const CREDENTIAL_TYP = "kac+jws";
/** A signed lockdown state's `typ` (gateway/PROTOCOL.md, "Signed lockdown state"). */
export const LOCKDOWN_STATE_TYP = "kac-lockdown+jws";
const HOUR_MS = 3_600_000;

export type CredentialClaims = {
  v: 1;
  /** Credential id: random, unique; a board remembers the ids of spent one-time credentials. */
  jti: string;
  /** User id. */
  sub: string;
  /** Company code (what boards know their company by). */
  cid: string;
  /** `pass`: a guest's visitor pass (decision 0096), `sub` and `key.id` are then its `v<id>`. */
  key: { id: string; kind: "ekey" | "group" | "pass" };
  /** Device ids the key opens (for a group key, the group's doors when the credential was issued). */
  doors: string[];
  /** A group key's group id. */
  grp?: string;
  win: AccessWindow;
  /** The phone installation the credential is bound to, when the company binds users to one phone. */
  pid?: string;
  /**
   * When the console verified the phone's user through its registered platform authenticator (epoch
   * seconds); present when the call that issued it carried a verified WebAuthn assertion. Boards of a
   * company that requires biometrics refuse a credential without it (docs/decisions/0039-biometric-claim.md).
   */
  uv?: number;
  /** Issue time and expiry, epoch seconds. */
  iat: number;
  exp: number;
};

export type IssuedCredential = { token: string; id: string; issuedAt: number; expiresAt: number };

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return (
    "c_" +
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "")
  );
}

/**
 * When a credential for `window` issued at `now` expires: `lifeHours` after issue, or earlier when the key
 * itself ends before that (the end of its last opening). Null when the key never opens again, so there
 * is nothing to issue.
 */
export function credentialExpiry(core: Core, window: AccessWindow, now: number, lifeHours: number): number | null {
  const horizon = now + lifeHours * HOUR_MS;
  const next = core.nextChange(window, now);
  if (!next.open && next.nextOpen == null) return null;
  if (core.nextOpen(window, horizon) != null) return horizon;
  const openings = core.occurrences(window, now, horizon);
  const last = openings[openings.length - 1];
  return last ? Math.min(horizon, last[1]) : null;
}

/** Signs one credential with `signer` (the current signing key of the company's cell). */
export async function signCredential(signer: SigningKey, claims: Omit<CredentialClaims, "v" | "jti" | "iat" | "exp">, now: number, expiresAt: number): Promise<IssuedCredential> {
  const id = randomId();
  const iat = Math.floor(now / 1000);
  const exp = Math.floor(expiresAt / 1000);
  const body: CredentialClaims = { v: 1, jti: id, ...claims, iat, exp };
  const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(body))).setProtectedHeader({ alg: "EdDSA", kid: signer.kid, typ: CREDENTIAL_TYP }).sign(signer.key);
  return { token, id, issuedAt: iat * 1000, expiresAt: exp * 1000 };
}

/**
 * Signs the company's lockdown state for its phones to carry to boards cut off from their gateway (decision
 * 0083): the feed's record with `cid` for the company and the issue time. A board takes it only when it is
 * newer (a higher `epoch`) than the state it knows, so a start and an end both reach it this way.
 */
export async function signLockdownState(signer: SigningKey, record: LockdownRecord, now: number): Promise<string> {
  const { id: _id, companyId: cid, ...state } = record;
  const body = { v: 1, cid, ...state, iat: Math.floor(now / 1000) };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(body))).setProtectedHeader({ alg: "EdDSA", kid: signer.kid, typ: LOCKDOWN_STATE_TYP }).sign(signer.key);
}
