/**
 * aedes' `authenticate(client, username, password, callback)`, once per CONNECT.
 *
 * Receives: the client (its id and source address), the CONNECT's username (string) and password (Buffer).
 * Must call back exactly once: `callback(null, true)` to accept, after the client's identity is set
 * (src/broker/identity.js); `callback(error, false)` with `error.returnCode` 4 for a wrong name or
 * secret, 3 while the caller is backed off or the check itself failed.
 * Must never: accept without an identity, throw, or tell a caller which part of its credentials was wrong.
 *
 * The decision is the replaceable `authenticate` policy hook (src/broker/hooks.js); around it, failed
 * CONNECTs are throttled per address and username (src/broker/connect-backoff.js).
 */
import { setIdentity } from './identity.js'

/** The client's source address (TCP, TLS or the WebSocket's HTTP request). */
const remoteAddress = (client) => client.conn?.remoteAddress ?? client.req?.socket?.remoteAddress

const refusal = (message, returnCode) => Object.assign(new Error(message), { returnCode })

/**
 * @param {object} deps
 * @param {typeof import('./hooks.js').defaultAuthenticate} deps.policy
 * @param {Parameters<typeof import('./hooks.js').defaultAuthenticate>[1]} deps.context what the policy reads
 * @param {import('./connect-backoff.js').ConnectBackoff|null} deps.backoff
 * @param {(boardId: string) => string|undefined} deps.credentialHash the board's current credential hash
 * @param {import('../log.js').Logger} deps.log
 */
export function authenticateHandler({ policy, context, backoff, credentialHash, log }) {
  return (client, username, password, cb) => {
    const address = remoteAddress(client)
    const name = typeof username === 'string' && username.length <= 64 ? username : undefined
    const wait = backoff?.check(address, name)
    if (wait) {
      log.debug('connection refused: back-off after failed attempts', { clientId: client.id, username: name, address, waitMs: wait })
      return cb(refusal('server unavailable', 3), false)
    }
    policy({ clientId: client.id, username, password }, context).then(
      (identity) => {
        if (!identity) {
          backoff?.failed(address, name)
          log.warn('connection refused', { clientId: client.id, username: name, address })
          return cb(refusal('bad user name or password', 4), false)
        }
        backoff?.succeeded(name)
        setIdentity(client, identity, identity.role === 'board' ? credentialHash(identity.boardId) : undefined)
        cb(null, true)
      },
      (e) => {
        log.error('authenticate hook failed', { clientId: client.id, error: e.message })
        cb(refusal('server unavailable', 3), false)
      }
    )
  }
}
