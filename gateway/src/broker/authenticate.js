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
 *
 * A board id this cell's copy does not hold is looked up (src/cells/placement.js): a board of another
 * cell is accepted only to be told where to go (identity `redirect`, src/cells/redirect.js) with its
 * session and will dropped here; its secret cannot be checked here, and the answer names nothing but
 * the cell and its public endpoint. A redirect counts as a failure of the board id, so a board that
 * keeps coming back is slowed like one that guesses.
 */
import { setIdentity } from './identity.js'
import { isBoardId } from '../protocol/topics.js'

const CONNECT_PACKET = Symbol('connectPacket')

/** aedes' `preConnect`: keeps the CONNECT so that a redirected board's session can be made clean. */
export function preConnectHandler() {
  return (client, packet, cb) => {
    client[CONNECT_PACKET] = packet
    cb(null, true)
  }
}

/** The client's source address (TCP, TLS or the WebSocket's HTTP request). */
const remoteAddress = (client) => client.conn?.remoteAddress ?? client.req?.socket?.remoteAddress

const refusal = (message, returnCode) => Object.assign(new Error(message), { returnCode })

/**
 * @param {object} deps
 * @param {typeof import('./hooks.js').defaultAuthenticate} deps.policy
 * @param {Parameters<typeof import('./hooks.js').defaultAuthenticate>[1]} deps.context what the policy reads
 * @param {import('./connect-backoff.js').ConnectBackoff|null} deps.backoff
 * @param {(boardId: string) => string|undefined} deps.credentialHash the board's current credential hash
 * @param {{placement: import('../cells/placement.js').CellPlacement, holds: (boardId: string) => boolean,
 *   behind: () => void}} deps.cells where boards this copy lacks belong; whether it holds a board; `behind`
 *   asks the feed for news when the console places a board here that the copy does not have yet
 * @param {import('../log.js').Logger} deps.log
 */
export function authenticateHandler({ policy, context, backoff, credentialHash, cells, log }) {
  /** A refused CONNECT of a board id this copy lacks: perhaps a board of another cell. */
  const elsewhere = (client, name, address, cb) =>
    cells.placement.place(name).then((p) => {
      if (p.where === 'elsewhere') {
        backoff?.failed(undefined, name)
        log.info('board of another cell redirected', { boardId: name, cell: p.cell })
        setIdentity(client, { role: 'redirect', boardId: name, cell: p.cell, mqttUrl: p.mqttUrl })
        // nothing of it stays in this cell's persistence: no session, no will
        client[CONNECT_PACKET].clean = true
        client.clean = true
        client._will = null
        return cb(null, true)
      }
      if (p.where === 'unknown') {
        backoff?.failed(address, name)
        log.warn('connection refused', { clientId: client.id, username: name, address })
        return cb(refusal('bad user name or password', 4), false)
      }
      if (p.where === 'here') cells.behind()
      log.debug('connection refused: board not placed yet', { clientId: client.id, username: name, placement: p.where })
      cb(refusal('server unavailable', 3), false)
    })

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
        if (!identity && name && name !== 'operator' && name === client.id && isBoardId(name) && !cells.holds(name)) return elsewhere(client, name, address, cb)
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
