/**
 * Access decisions from the local replica: resolve the presented credential to a user within the
 * door's company, collect that user's keys for this door (direct e-keys and keys of the door's groups)
 * and let the core decide. A deactivated company denies everything of it, whatever its user and device
 * records still say. A lockdown in force at the door refuses users who are not exempt, an evacuation
 * opens for anyone (lockdown.js). A fob opens only with the keys it was given on (docs/decisions/0031-fobs-bound-to-keys.md).
 * Every denial carries a stable `code` (PROTOCOL.md, "Denial codes") beside its human `reason`, and
 * `nextOpen` (epoch ms or null) when one of the user's keys opens later.
 *
 * The console evaluates the same rules from its own tables (app/services/door-decision.server.ts);
 * tests/door-path/differential.test.mjs checks that the two never disagree.
 */
import { decide as coreDecide } from './core.js'
import { checkClaims } from './credential.js'
import { isExempt, lockdownAt } from './lockdown.js'
import { decidePass } from './visitor-pass.js'

/**
 * @param {import('../store/replica.js').Replica} replica
 * @param {string} deviceId
 * @param {{type: 'user'|'fob'|'phone', id: string}} credential
 * @param {number} now
 * @param {{id: string, kind: string}} [onlyKey] count this key alone (a signed credential is for one key)
 */
export function decideAccess(replica, deviceId, credential, now, onlyKey) {
  const device = replica.get('device', deviceId)
  if (!device) return deny('door_disabled', 'This door is not enabled')
  if (!companyActive(replica, device.companyId)) return deny('company_inactive', 'Company is deactivated')
  if (device.active === false) return deny('door_disabled', 'This door is not enabled')
  const { user, fobKeys } = resolve(replica, device.companyId, credential)
  // Lockdown and evacuation (decision 0083): an evacuation opens for anyone, a lockdown refuses all but the exempt.
  const lockdown = lockdownAt(replica, device, now)
  if (lockdown?.mode === 'evacuation') return { allowed: true, key: null, code: null, reason: 'Evacuation: door unlocked', nextOpen: null, userId: user?.id ?? null }
  if (!user) return deny('unknown_credential', 'Unknown credential')
  if (user.active === false) return { ...deny('user_inactive', 'User is deactivated'), userId: user.id }
  if (lockdown && !isExempt(lockdown, user.id)) return { ...deny('lockdown', 'Lockdown in progress'), userId: user.id }
  const keys = [
    ...(replica.index.ekeysByDeviceUser.get(deviceId + '\0' + user.id) ?? []).map((k) => ({ id: k.id, kind: 'ekey', label: k.label, window: k.window, fob: k.fob })),
    ...(device.groupIds ?? []).flatMap((g) =>
      (replica.index.groupKeysByGroupUser.get(g + '\0' + user.id) ?? []).map((k) => ({ id: k.id, kind: 'group', label: k.label, window: groupKeyWindow(k), fob: k.fob }))
    )
  ]
    .filter((k) => (!fobKeys || k.fob === credential.id) && (!onlyKey || (k.id === onlyKey.id && k.kind === onlyKey.kind)))
    // E-keys, then group keys, each by id, as the console orders them: of keys that open again at the same
    // instant the core names the first, and the denial's code is that key's.
    .sort(byKindAndId)
  return { ...coreDecide(keys, now, { lang: user.lang }), userId: user.id }
}

/** @param {{kind: string, id: string}} a @param {{kind: string, id: string}} b */
const byKindAndId = (a, b) => a.kind.localeCompare(b.kind) || Number(a.id) - Number(b.id)

/** The dated window of each group key with a start date, per replica record (the core caches by window object). */
const dated = new WeakMap()

/**
 * A group's window has no dates (docs/ARCHITECTURE.md §5.2), but its assignment starts on a date. Until then the key
 * is the same weekly window as a never-ending custom e-key from that date, which the core evaluates
 * with the usual reason ("not valid before …; next opens …").
 */
function groupKeyWindow(k) {
  if (!k.startDate) return k.window
  if (!dated.has(k)) dated.set(k, { ...k.window, kind: 'ekey', access: 'custom', startDate: k.startDate, endDate: null, used: false })
  return dated.get(k)
}

/** Only a company record saying so makes a company inactive: a copy synced before companies were in the feed has none. */
const companyActive = (replica, companyId) => replica.get('company', companyId)?.active !== false

/**
 * The user a credential names at a door of `companyId`, or none. A fob names the user of the keys it
 * rides on (one user per fob number within a company), and only those keys count.
 */
function resolve(replica, companyId, { type, id }) {
  if (type === 'fob') {
    const found = replica.index.keysByFob.get(companyId + '\0' + id)
    const user = found && replica.get('user', found[0].key.userId)
    return { user: user?.companyId === companyId ? user : undefined, fobKeys: true }
  }
  const user = type === 'user' ? replica.get('user', id) : type === 'phone' ? replica.index.userByPhoneKey.get(companyId + '\0' + id) : undefined
  return { user: user?.companyId === companyId ? user : undefined, fobKeys: false }
}

/** A denial before any key is looked at; `code` is one of PROTOCOL.md's denial codes. */
const deny = (code, reason) => ({ allowed: false, key: null, code, reason, nextOpen: null, userId: null })

/**
 * A signed credential presented at a connected board, whose signature has been checked
 * (credential.js `checkSignature`). The claims are checked against the door as a board does (expiry,
 * company, door, the biometric claim when the company's record requires it); then the gateway decides from its live copy, for the credential's key alone, like any
 * other request of that user: what the console withdrew since the credential was issued (the key, the
 * user, the company) is refused within one sync interval, and a phone that was forgotten no longer
 * opens (`revoked`). A visitor pass is decided from its own record (visitor-pass.js). An offline board
 * decides from the claims alone (PROTOCOL.md, "Signed credentials").
 * @param {import('../store/replica.js').Replica} replica
 * @param {string} deviceId
 * @param {import('./credential.js').CredentialClaims} claims
 * @param {number} now
 */
export function decideSigned(replica, deviceId, claims, now) {
  const device = replica.get('device', deviceId)
  if (!device) return deny('door_disabled', 'This door is not enabled')
  const biometricRequired = replica.get('company', device.companyId)?.biometricRequired === true
  const refused = checkClaims(claims, { id: device.id, companyId: device.companyId, groupIds: device.groupIds ?? [], biometricRequired }, now)
  if (refused) return deny(refused, 'Credential refused')
  if (claims.key.kind === 'pass') return decidePass(replica, device, claims, now)
  const user = replica.get('user', claims.sub)
  if (claims.pid !== undefined && user && !(user.phoneKeys ?? []).includes(claims.pid)) return { ...deny('revoked', 'Credential revoked'), userId: user.id }
  return decideAccess(replica, deviceId, { type: 'user', id: claims.sub }, now, claims.key)
}
