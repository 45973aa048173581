/**
 * Visitor passes at a connected board (decision 0119): a guest, who has no account, presents the pass's
 * signed credential (`key.kind` `pass`, `sub` = `key.id` = the pass id). Once its claims pass the board's
 * checks (decide.js `decideSigned`), the gateway decides from the live `pass` record, as it does for a
 * user's key: a pass deleted from the feed (revoked) opens nothing, a door taken out of it or out of its
 * group stops opening, a narrowed window applies at once, and a one-entry pass used at any board of this
 * gateway answers `key_used`. Lockdown exemptions name users, so a guest is never exempt.
 */
import { decide as coreDecide } from './core.js'
import { exempt } from './credential.js'
import { lockdownAt } from './lockdown.js'

/**
 * @param {import('../store/replica.js').Replica} replica
 * @param {{id: string, companyId: string, active?: boolean, groupIds?: string[]}} device the door, whose claims checks passed
 * @param {import('./credential.js').CredentialClaims} claims a pass's credential
 * @param {number} now
 */
export function decidePass(replica, device, claims, now) {
  const passId = claims.key.id
  // Door-level refusals name nobody, as for every credential (decide.js). Past them the pass is who asked,
  // and the recorded decision names it as user and key (`pass`), a denial too: the console's log shows it.
  const named = { userId: passId, pass: { id: passId, kind: 'pass' } }
  const refuse = (code, reason) => ({ allowed: false, key: null, code, reason, nextOpen: null, userId: null })
  if (replica.get('company', device.companyId)?.active === false) return refuse('company_inactive', 'Company is deactivated')
  if (device.active === false) return refuse('door_disabled', 'This door is not enabled')
  const lockdown = lockdownAt(replica, device, now)
  // The evacuation opened the door, not the pass: it is not spent, and the record names no key.
  if (lockdown?.mode === 'evacuation') return { allowed: true, key: null, code: null, reason: 'Evacuation: door unlocked', nextOpen: null, userId: passId }
  const pass = replica.get('pass', passId)
  if (pass?.companyId !== device.companyId) return { ...refuse('no_key', 'No key for this door'), ...named }
  if (lockdown && !exempt(lockdown, claims)) return { ...refuse('lockdown', 'Lockdown in progress'), ...named }
  if (!opens(pass, device)) return { ...refuse('no_key', 'No key for this door'), ...named }
  return { ...coreDecide([{ id: pass.id, kind: 'pass', window: pass.window }], now), ...named }
}

/** The pass's doors, or every door of its group as the door's live record has them. */
const opens = (pass, device) => (pass.doors ?? []).includes(device.id) || (pass.groupId != null && (device.groupIds ?? []).includes(pass.groupId))
