/**
 * Signed offline credentials (PROTOCOL.md, "Signed credentials"): a compact JWS (EdDSA / Ed25519) the
 * console issues per user and key, or per visitor pass (`key.kind` `pass`, `sub` the pass id: a guest is
 * not a user), which a phone presents and a board verifies with no network. The checks run in a fixed
 * order and the first failure names the stable code; the window itself is decided by the same core as
 * every other key (./core.js).
 *
 * This file is the reference a firmware author mirrors: it reads nothing but its arguments.
 */
import { compactVerify, decodeProtectedHeader, importJWK } from 'jose'
import { decide } from './core.js'
import { covering, isExempt } from './lockdown.js'

/** How far a board's clock may be from the console's before `exp` / `iat` count against a credential. */
export const CLOCK_SKEW_MS = 120_000
/** A credential longer than this is not read at all (the MQTT payload limit leaves room for it). */
export const MAX_CREDENTIAL_LENGTH = 8192
export const CREDENTIAL_TYP = 'kac+jws'

/**
 * @typedef {{v: 1, jti: string, sub: string, cid: string, key: {id: string, kind: KeyKind}, doors?: string[], grp?: string,
 *   win: any, pid?: string, uv?: number, iat: number, exp: number}} CredentialClaims
 * @typedef {import('../protocol/wire.js').KeyKind} KeyKind
 * @typedef {{allowed: boolean, reason: string, claims?: CredentialClaims, nextOpen?: number|null}} CredentialDecision
 * @typedef {Awaited<ReturnType<typeof importJWK>>} VerifyKey
 * @typedef {{id: string, companyId?: string, groupIds?: string[], biometricRequired?: boolean}} Door a board always knows
 *   its company and groups from its configuration; a tool without them checks the door list alone (door ids are unique
 *   across companies). `biometricRequired`: the company requires the console-verified biometric claim (`uv`).
 */

/**
 * The verification keys of a JWKS (`{keys: [...]}`, public Ed25519 JWKs with `kid`), imported once.
 * @param {{keys?: any[]}} jwks
 * @returns {Promise<Map<string, VerifyKey>>}
 */
export async function importKeySet(jwks) {
  const out = new Map()
  for (const jwk of Array.isArray(jwks?.keys) ? jwks.keys : []) {
    if (typeof jwk?.kid !== 'string' || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || 'd' in jwk) continue
    out.set(jwk.kid, await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, 'EdDSA'))
  }
  return out
}

/** What a credential may stand for: an e-key, a group key, a visitor pass. */
const KEY_KINDS = ['ekey', 'group', 'pass']
const isText = (s, max = 128) => typeof s === 'string' && s.length > 0 && s.length <= max
const isInt = (n) => Number.isSafeInteger(n) && n >= 0

/** The claims when every field a decision reads is there and well typed; otherwise null. */
function wellFormed(c) {
  if (!c || typeof c !== 'object' || c.v !== 1) return null
  if (!isText(c.jti) || !isText(c.sub) || !isText(c.cid) || !isInt(c.iat) || !isInt(c.exp)) return null
  if (!c.key || !isText(c.key.id) || !KEY_KINDS.includes(c.key.kind)) return null
  if (c.doors !== undefined && !(Array.isArray(c.doors) && c.doors.length <= 256 && c.doors.every((d) => isText(d)))) return null
  if (c.grp !== undefined && !isText(c.grp)) return null
  if (c.pid !== undefined && !isText(c.pid)) return null
  if (c.uv !== undefined && !isInt(c.uv)) return null
  if (!c.win || typeof c.win !== 'object') return null
  return c
}

const no = (reason, claims, extra = {}) => ({ allowed: false, reason, ...(claims ? { claims } : {}), ...extra })

/**
 * A compact JWS of `typ` checked as a board checks one: length and shape, header (EdDSA, `typ`, `kid`), a
 * known key, the signature (by jose, never by hand). Shared by credentials and signed lockdown states.
 * @param {unknown} token @param {Map<string, VerifyKey>} keys @param {string} typ
 * @returns {Promise<{payload: unknown, reason?: undefined} | {payload?: undefined, reason: 'malformed'|'unknown_kid'|'bad_signature'}>}
 */
export async function verifySigned(token, keys, typ) {
  if (typeof token !== 'string' || token.length > MAX_CREDENTIAL_LENGTH || token.split('.').length !== 3) return { reason: 'malformed' }
  let header
  try {
    header = decodeProtectedHeader(token)
  } catch {
    return { reason: 'malformed' }
  }
  if (header.alg !== 'EdDSA' || header.typ !== typ || typeof header.kid !== 'string') return { reason: 'malformed' }
  const key = keys.get(header.kid)
  if (!key) return { reason: 'unknown_kid' }
  let payload
  try {
    payload = JSON.parse(new TextDecoder().decode((await compactVerify(token, key, { algorithms: ['EdDSA'] })).payload))
  } catch {
    return { reason: 'bad_signature' }
  }
  return { payload }
}

/**
 * Steps 1-3 of the order (format, key id, signature): the only asynchronous part, so that a caller can
 * run the rest and act on the outcome (spend a one-time key) with nothing in between.
 * @param {string} token the compact JWS
 * @param {Map<string, VerifyKey>} keys
 * @returns {Promise<{claims: CredentialClaims, reason?: undefined} | {claims?: undefined, reason: string}>}
 */
export async function checkSignature(token, keys) {
  const { payload, reason } = await verifySigned(token, keys, CREDENTIAL_TYP)
  if (reason) return { reason }
  const claims = wellFormed(payload)
  return claims ? { claims } : { reason: 'malformed' }
}

/**
 * Steps 4-7 (expiry and issue time with the clock-skew allowance, company, door, the biometric claim
 * when the door's company requires it): null when they pass.
 * @param {CredentialClaims} claims @param {Door} door @param {number} at
 */
export function checkClaims(claims, door, at) {
  if (at > claims.exp * 1000 + CLOCK_SKEW_MS) return 'credential_expired'
  if (at < claims.iat * 1000 - CLOCK_SKEW_MS) return 'credential_not_yet_valid'
  if (door.companyId !== undefined && claims.cid !== door.companyId) return 'other_company'
  if (!opensDoor(claims, door)) return 'other_door'
  // `uv`: the console verified the phone's user (WebAuthn, user verification) before it signed.
  if (door.biometricRequired === true && claims.uv === undefined) return 'biometric_required'
  return null
}

/**
 * Verifies a presented credential at a door, in PROTOCOL.md's order, as a board with no network does.
 * @param {string} token the compact JWS
 * @param {{keys: Map<string, VerifyKey>, door: Door, at: number,
 *   revoked?: (claims: CredentialClaims) => boolean, spent?: (claims: CredentialClaims) => boolean,
 *   lockdown?: any}} ctx
 *   `revoked`: what the board knows was withdrawn since issue; `spent`: a one-time credential or key already used here;
 *   `lockdown`: the newest lockdown state of the door's company the board knows (a lockdown record), if any
 * @returns {Promise<CredentialDecision>}
 */
export async function verifyCredential(token, { keys, door, at, revoked, spent, lockdown }) {
  const { claims, reason } = await checkSignature(token, keys)
  if (!claims) return no(reason)
  const refused = checkClaims(claims, door, at)
  if (refused) return no(refused, claims)
  if (revoked?.(claims)) return no('revoked', claims)
  // The newest lockdown state the board knows (decision 0083): an evacuation opens, a lockdown refuses all but the exempt.
  const locked = covering(lockdown, door, at)
  if (locked?.mode === 'evacuation') return { allowed: true, reason: 'ok', claims }
  if (locked && !exempt(locked, claims)) return no('lockdown', claims)
  if (isOneTime(claims) && spent?.(claims)) return no('key_used', claims)
  const d = decide([{ id: claims.key.id, kind: claims.key.kind, window: claims.win }], at)
  return d.allowed ? { allowed: true, reason: 'ok', claims } : no(d.code ?? 'outside_schedule', claims, { nextOpen: d.nextOpen })
}

/**
 * A group key's credential lists the group's doors when it was issued (`doors`) and the group (`grp`): a door
 * that knows its current groups follows them (a door taken out of the group stops opening at once), one that
 * does not follows the list.
 */
function opensDoor(claims, door) {
  if (claims.grp !== undefined && door.groupIds !== undefined) return door.groupIds.includes(claims.grp)
  return Boolean(claims.doors?.includes(door.id))
}

/**
 * Step 7 from a board's revocation list (`revoked` of its configuration, PROTOCOL.md "Revocation list"):
 * each entry names a user (`sub`), a key (`key`), a phone installation (`pid`) or the company (`cid`),
 * and `before`, epoch seconds; a credential naming it and issued before then is withdrawn.
 * @param {unknown} list the entries; anything that is not one is skipped
 * @returns {(claims: CredentialClaims) => boolean}
 */
export function revokedBy(list) {
  /** @type {Record<string, Map<string, number>>} field → id → before */
  const by = { sub: new Map(), key: new Map(), pid: new Map(), cid: new Map() }
  for (const e of Array.isArray(list) ? list : []) {
    const fields = Object.keys(by).filter((f) => typeof e?.[f] === 'string')
    if (fields.length !== 1 || !Number.isSafeInteger(e.before)) continue
    const ids = by[fields[0]]
    ids.set(e[fields[0]], Math.max(ids.get(e[fields[0]]) ?? 0, e.before))
  }
  const hit = (field, id) => by[field].get(id) ?? 0
  return (c) => c.iat < Math.max(hit('sub', c.sub), hit('key', c.key.id), hit('pid', c.pid), hit('cid', c.cid))
}

/**
 * A one-time key's or one-entry visitor pass's credential opens once; the board remembers its `jti` (and
 * key id) once it has. A pass's window is an e-key window, `access` `oneTime` for one entry.
 * @param {CredentialClaims} claims
 */
export const isOneTime = (claims) => (claims.key.kind === 'ekey' || claims.key.kind === 'pass') && claims.win?.access === 'oneTime'

/**
 * Whether the credential's holder keeps access under a lockdown: exemptions name users, and a guest's
 * `sub` is a pass id, never a user's, even if the two ever looked alike.
 * @param {{exemptUserIds: string[]}} lockdown @param {CredentialClaims} claims
 */
export const exempt = (lockdown, claims) => claims.key.kind !== 'pass' && isExempt(lockdown, claims.sub)
