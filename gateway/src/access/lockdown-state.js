/**
 * Signed lockdown states (PROTOCOL.md, "Signed lockdown state"; decision 0083): the console signs its
 * company's lockdown state, every phone of the company carries the newest one, and a board cut off from its
 * gateway takes a state a phone presents when it is its company's and newer (a higher `epoch`) than the one it
 * knows. A start and an end both raise the epoch, so an end travels the same way and an old state cannot
 * undo a newer one. The board then decides signed credentials by it (credential.js `verifyCredential`).
 *
 * Like credential.js, this is the reference a firmware author mirrors: it reads nothing but its arguments.
 */
import { verifySigned } from './credential.js'

export const LOCKDOWN_STATE_TYP = 'kac-lockdown+jws'

const isText = (s, max = 128) => typeof s === 'string' && s.length > 0 && s.length <= max
const isInt = (n) => Number.isSafeInteger(n) && n >= 0
const textList = (l) => Array.isArray(l) && l.length <= 10_000 && l.every((x) => isText(x))

/** The state as the feed's `lockdown` record (docs/gateway-api.md), when every field is there and well typed. */
function wellFormed(c) {
  if (!c || typeof c !== 'object' || c.v !== 1 || !isText(c.cid) || !isInt(c.epoch) || !isInt(c.iat) || typeof c.active !== 'boolean') return null
  if (!['lockdown', 'evacuation'].includes(c.mode) || !['company', 'groups', 'doors'].includes(c.scope)) return null
  if (!textList(c.scopeIds) || !textList(c.exemptUserIds)) return null
  if (c.endsAt !== null && !isInt(c.endsAt)) return null
  const { cid, epoch, active, mode, scope, scopeIds, exemptUserIds, endsAt } = c
  return { id: cid, companyId: cid, epoch, active, mode, scope, scopeIds, exemptUserIds, endsAt }
}

/**
 * A presented signed lockdown state, checked: the state to keep from now on, or why it is not taken
 * (`malformed`, `unknown_kid`, `bad_signature`, `other_company`, `not_newer`). A board keeps the state it
 * takes across restarts, and decides by it until a newer one reaches it (from a phone or its gateway).
 * @param {string} token @param {{keys: Map<string, import('./credential.js').VerifyKey>, companyId: string, known?: {epoch: number}|null}} ctx
 * @returns {Promise<{state: any, reason?: undefined} | {state?: undefined, reason: string}>}
 */
export async function acceptLockdownState(token, { keys, companyId, known }) {
  const { payload, reason } = await verifySigned(token, keys, LOCKDOWN_STATE_TYP)
  if (reason) return { reason }
  const state = wellFormed(payload)
  if (!state) return { reason: 'malformed' }
  if (state.companyId !== companyId) return { reason: 'other_company' }
  if (known && state.epoch <= known.epoch) return { reason: 'not_newer' }
  return { state }
}
