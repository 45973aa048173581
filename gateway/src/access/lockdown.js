/**
 * Lockdown and evacuation at the door (docs/decisions/0083-lockdown.md, 0117). The gateway mirrors each
 * company's lockdown state (feed record `lockdown`, id = the company's code) and decides by it even while
 * the console is unreachable; an automatic end (`endsAt`) takes effect on the gateway's clock without
 * waiting for the console's sweep. The console applies the same rule to its own tables
 * (app/services/door-decision.server.ts `lockdownAt`); tests/door-path/differential.test.mjs compares them.
 */

/**
 * The company's lockdown when it is in force at `now` and covers the door, else null. In force: active
 * (started, not ended) and `now` before `endsAt` when it has one. Scope: the company, the door itself,
 * or one of the door's live groups.
 * @param {import('../store/replica.js').Replica} replica
 * @param {{id: string, companyId: string, groupIds?: string[]}} device
 * @param {number} now
 * @returns {null | {mode: 'lockdown'|'evacuation', exemptUserIds: string[], epoch: number, endsAt?: number|null}}
 */
export function lockdownAt(replica, device, now) {
  return covering(replica.get('lockdown', device.companyId), device, now)
}

/**
 * The same rule for a lockdown state held apart from the copy: an offline board's newest known state
 * (credential.js `verifyCredential`), learnt from its gateway or from a staff phone.
 * @param {any} l a lockdown record (docs/gateway-api.md) or undefined
 * @param {{id: string, groupIds?: string[]}} door
 * @param {number} now
 */
export function covering(l, door, now) {
  if (!l || !l.active || (l.endsAt != null && now >= l.endsAt)) return null
  if (l.scope === 'company') return l
  if (l.scope === 'doors') return l.scopeIds.includes(door.id) ? l : null
  return (door.groupIds ?? []).some((g) => l.scopeIds.includes(g)) ? l : null
}

/** Whether a user keeps their access under this lockdown: named, or holding an exempt role (the console expands roles to users). */
export const isExempt = (lockdown, userId) => lockdown.exemptUserIds.includes(userId)
