/**
 * Gateway hooks, aedes-style: each has a named default here and can be replaced through
 * `createGateway({hooks: {...}})`. They are the policy; the aedes handlers around them (throttling,
 * payload limits, storage before PUBACK) are src/broker/authenticate.js, authorize-publish.js and
 * authorize-subscribe.js. The contract every replacement must keep:
 *
 * - `authenticate({clientId, username, password}, {replica, gatewaySecret})` → Promise<Identity|null>
 *   Called once per CONNECT. Return null to refuse (CONNACK 4). An Identity is
 *   `{role: 'board', boardId}` or `{role: 'operator'}`; it is attached to the client for the
 *   authorize hooks. Must not throw for bad input.
 * - `authorizePublish(identity, topic)` → boolean, synchronous. False closes the connection
 *   (MQTT 3.1.1 cannot refuse a PUBLISH any other way).
 * - `authorizeSubscribe(identity, topicFilter)` → boolean, synchronous. False grants QoS 128.
 *
 * Failed CONNECTs are throttled around whichever hook runs (src/broker/connect-backoff.js): a
 * refusal counts against the client's address and the username it gave.
 *
 * Defaults: boards authenticate with username = client id = board id and the secret whose hash the
 * console issued; the operator (tools, the console's command path) with username `operator` and the
 * gateway secret. Boards touch only their own topics; nobody but the operator sees `$SYS`.
 */
import { timingSafeEqual, createHash } from 'node:crypto'
import { verifySecret, verifyFast, isFastHash, VerifiedCache } from '../password.js'
import { UP, DOWN, isBoardId, parseTopic } from '../protocol/topics.js'

/**
 * A board leaving for another cell (src/cells/redirect.js) is `leaving` while its cell is looked up,
 * then `redirect`; neither is ever returned by a policy, and neither may do anything.
 * @typedef {{role: 'board', boardId: string} | {role: 'operator'} | {role: 'leaving', boardId: string}
 *   | {role: 'redirect', boardId: string, cell: string, mqttUrl: string}} Identity
 */

const verified = new VerifiedCache()
const digest = (x) => createHash('sha256').update(x).digest()

/**
 * @param {{clientId: string, username?: string, password?: Buffer}} creds
 * @param {{replica: import('../store/replica.js').Replica, gatewaySecret: string}} gw
 * @returns {Promise<Identity|null>}
 */
export async function defaultAuthenticate({ clientId, username, password }, gw) {
  if (!username || !password) return null
  if (username === 'operator') {
    if (!gw.gatewaySecret) return null
    return timingSafeEqual(digest(password), digest(gw.gatewaySecret)) ? { role: 'operator' } : null
  }
  if (username !== clientId || !isBoardId(username)) return null
  const device = gw.replica.get('device', username)
  const cred = gw.replica.get('boardCredential', username)
  if (!device || device.active === false || !cred?.hash) return null
  if (isFastHash(cred.hash)) {
    // HMAC-SHA256 (decision 0110): cheaper to check than to look up in a cache
    if (!verifyFast(password, cred.hash)) return null
  } else {
    const key = verified.key(username, cred.hash, password)
    if (!verified.has(key)) {
      if (!(await verifySecret(password, cred.hash))) return null
      verified.add(key)
    }
  }
  return { role: 'board', boardId: username }
}

/** @param {Identity} identity @param {string} topic */
export function defaultAuthorizePublish(identity, topic) {
  const t = parseTopic(topic)
  if (!t) return false
  if (identity.role === 'operator') return t.name === 'cmd' && isBoardId(t.boardId)
  return t.boardId === identity.boardId && UP.has(t.name)
}

/** @param {Identity} identity @param {string} filter */
export function defaultAuthorizeSubscribe(identity, filter) {
  if (identity.role === 'operator') return true
  if (filter.startsWith('$')) return false
  const t = parseTopic(filter)
  if (!t || t.boardId !== identity.boardId) return false
  return t.name === '#' || t.name === '+' || DOWN.has(t.name) || t.name === 'fw/#' || t.name === 'fw/+' || t.name === 'access/+' || t.name === 'access/#'
}

export const defaultHooks = {
  authenticate: defaultAuthenticate,
  authorizePublish: defaultAuthorizePublish,
  authorizeSubscribe: defaultAuthorizeSubscribe
}
