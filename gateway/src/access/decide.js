/**
 * Access decisions from the local replica: resolve the presented credential to a user, collect that
 * user's keys for this door (direct e-keys and keys of the door's groups) and let the core decide.
 * A deactivated company denies everything of it, whatever its user and device records still say.
 */
import { decide as coreDecide } from './core.js'

/**
 * @param {import('../store/replica.js').Replica} replica
 * @param {string} deviceId
 * @param {{type: 'user'|'fob'|'phone', id: string}} credential
 * @param {number} now
 */
export function decideAccess (replica, deviceId, credential, now) {
  const device = replica.get('device', deviceId)
  if (!device) return deny('This door is not enabled')
  if (!companyActive(replica, device.companyId)) return deny('Company is deactivated')
  if (device.active === false) return deny('This door is not enabled')
  const user = resolveUser(replica, credential)
  if (!user) return deny('Unknown credential')
  if (!companyActive(replica, user.companyId)) return { ...deny('Company is deactivated'), userId: user.id }
  if (user.active === false) return { ...deny('User is deactivated'), userId: user.id }
  if (user.companyId && device.companyId && user.companyId !== device.companyId) return { ...deny('No key for this door'), userId: user.id }
  const keys = [
    ...(replica.index.ekeysByDeviceUser.get(deviceId + '\0' + user.id) ?? []).map((k) => ({ id: k.id, kind: 'ekey', label: k.label, window: k.window })),
    ...(device.groupIds ?? []).flatMap((g) => (replica.index.groupKeysByGroupUser.get(g + '\0' + user.id) ?? [])
      .map((k) => ({ id: k.id, kind: 'group', label: k.label, window: groupKeyWindow(k) })))
  ]
  return { ...coreDecide(keys, now, { lang: user.lang }), userId: user.id }
}

/** The dated window of each group key with a start date, per replica record (the core caches by window object). */
const dated = new WeakMap()

/**
 * A group's window has no dates (docs/ARCHITECTURE.md §5.2), but its assignment starts on a date. Until then the key
 * is the same weekly window as a never-ending custom e-key from that date, which the core evaluates
 * with the usual reason ("not valid before …; next opens …").
 */
function groupKeyWindow (k) {
  if (!k.startDate) return k.window
  if (!dated.has(k)) dated.set(k, { ...k.window, kind: 'ekey', access: 'custom', startDate: k.startDate, endDate: null, used: false })
  return dated.get(k)
}

/** Only a company record saying so makes a company inactive: a copy synced before companies were in the feed has none. */
const companyActive = (replica, companyId) => replica.get('company', companyId)?.active !== false

function resolveUser (replica, { type, id }) {
  if (type === 'user') return replica.get('user', id)
  if (type === 'fob') return replica.index.userByFob.get(id)
  if (type === 'phone') return replica.index.userByPhoneKey.get(id)
  return undefined
}

const deny = (reason) => ({ allowed: false, key: null, reason, userId: null })
