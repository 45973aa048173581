/**
 * aedes' `authorizePublish(client, packet, callback)`, for every PUBLISH a client sends (and for wills).
 *
 * Receives: the client (null for a will of a client already gone) and the packet, which it may change
 * before aedes stores and routes it (a command's deadline, a board's retain flag).
 * Must call back exactly once: `callback(null)` to let the packet through, `callback(error)` to refuse
 * it, which closes the connection without PUBACK (MQTT 3.1.1 has no other refusal), so a board resends.
 * aedes sends the PUBACK only after the callback: a board's message is handled, and a command stored,
 * before it (decision 0101).
 * Must never: call back before what the PUBACK promises is on disk, acknowledge anything of a board
 * leaving for another cell (src/cells/redirect.js), let a client publish outside the
 * `authorizePublish` policy hook (src/broker/hooks.js), or pass a payload over `maxPayload`.
 */
import { parseTopic } from '../protocol/topics.js'
import { withDeadline } from '../commands/deadline.js'
import { identityOf } from './identity.js'
import { isLeaving, refuseOnClose } from '../cells/redirect.js'

/**
 * @param {object} deps
 * @param {typeof import('./hooks.js').defaultAuthorizePublish} deps.policy
 * @param {number} deps.maxPayload bytes
 * @param {import('../commands/outbox.js').CommandOutbox|null} deps.commands null in cluster mode
 * @param {Pick<import('../inbound.js').Inbound, 'handle'>} deps.inbound handles what a board publishes
 * @param {import('../log.js').Logger} deps.log
 */
export function authorizePublishHandler({ policy, maxPayload, commands, inbound, log }) {
  return (client, packet, cb) => {
    if (!client) return cb(null) // the broker's own will handling of a client already gone
    // held, not acknowledged: refused when its connection closes, so the board sends it to its new cell
    if (isLeaving(client)) return refuseOnClose(client, cb)
    const identity = identityOf(client)
    if (!identity || !policy(identity, packet.topic)) {
      log.warn('publish refused', { clientId: client.id, topic: packet.topic })
      return cb(new Error('publish not authorized'))
    }
    if (packet.payload.length > maxPayload) {
      log.warn('payload too large', { clientId: client.id, topic: packet.topic, bytes: packet.payload.length })
      return cb(new Error('payload too large'))
    }
    const t = parseTopic(packet.topic)
    if (t?.name === 'cmd' && packet.qos > 0) {
      const refuse = (e) => {
        log.warn('command refused', { clientId: client.id, topic: packet.topic, error: e.message })
        cb(e)
      }
      // on disk before aedes sends the PUBACK, like board events (decision 0101)
      if (commands) return commands.add(t.boardId, packet.payload).then(() => cb(null), refuse)
      try {
        packet.payload = withDeadline(packet.payload)
      } catch (e) {
        return refuse(e)
      }
    }
    if (identity.role !== 'board') return cb(null)
    packet.retain = packet.retain && t.name === 'status'
    inbound.handle(client, identity.boardId, t.name, packet).then(
      () => cb(null),
      (e) => {
        log.error('could not handle board message', { clientId: client.id, topic: packet.topic, error: e.message })
        cb(e)
      }
    )
  }
}
