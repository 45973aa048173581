/**
 * aedes' `authorizeSubscribe(client, subscription, callback)`, for each topic of a SUBSCRIBE (and of a
 * restored session).
 *
 * Receives: the client and `{topic, qos}`.
 * Must call back exactly once, without an error: `callback(null, subscription)` grants it,
 * `callback(null, null)` refuses that one topic (SUBACK 128) and keeps the connection.
 * Must never: grant what the `authorizeSubscribe` policy hook (src/broker/hooks.js) refuses, or grant
 * anything to a client without an identity or to a board leaving for another cell.
 */
import { identityOf } from './identity.js'
import { isLeaving } from '../cells/redirect.js'

/**
 * @param {object} deps
 * @param {typeof import('./hooks.js').defaultAuthorizeSubscribe} deps.policy
 * @param {import('../log.js').Logger} deps.log
 */
export function authorizeSubscribeHandler({ policy, log }) {
  return (client, sub, cb) => {
    const identity = identityOf(client)
    const ok = identity && !isLeaving(client) && policy(identity, sub.topic)
    if (!ok) log.warn('subscription refused', { clientId: client.id, topic: sub.topic })
    cb(null, ok ? sub : null)
  }
}
