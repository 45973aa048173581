/**
 * aedes' connection events: `client` once a CONNECT is accepted, `clientDisconnect` when an accepted
 * client goes, `clientError` and `connectionError` when one breaks. Events, not hooks: nothing to
 * call back and nothing to refuse.
 *
 * Receives: the client (and the error).
 * Must never: throw (aedes emits them on its own path), or wait on anything before returning.
 * A board's presence follows its connection; a firmware transfer to it stops with it.
 */
import { boardOf } from './identity.js'

/**
 * @param {import('aedes').Aedes} aedes
 * @param {object} deps
 * @param {Pick<import('../events/presence.js').Presence, 'changed'>} deps.presence
 * @param {Pick<import('../firmware/delivery.js').FirmwareDelivery, 'forget'>} deps.firmware
 * @param {Pick<import('../events/board-clocks.js').BoardClocks, 'forget'>} deps.clocks
 * @param {import('../log.js').Logger} deps.log
 */
export function watchConnections(aedes, { presence, firmware, clocks, log }) {
  // by connection, not by identity: a board redirected to another cell on its way out goes offline too
  /** @type {WeakMap<object, string>} */
  const online = new WeakMap()
  aedes.on('client', (client) => {
    const boardId = boardOf(client)
    if (!boardId) return
    online.set(client, boardId)
    presence.changed(boardId, true)
  })
  aedes.on('clientDisconnect', (client) => {
    const boardId = online.get(client)
    if (!boardId) return
    firmware.forget(boardId, client)
    clocks.forget(boardId)
    presence.changed(boardId, false)
  })
  aedes.on('clientError', (client, err) => log.warn('client error', { clientId: client?.id, error: err.message }))
  aedes.on('connectionError', (client, err) => log.warn('connection error', { clientId: client?.id, error: err.message }))
}
