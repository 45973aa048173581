/**
 * aedes' `authorizeForward(client, packet)`, synchronous, before each message goes to a subscriber
 * (retained ones included).
 *
 * Receives: the receiving client and the packet about to go to it.
 * Must return: the packet to deliver it, null to drop it for this client.
 * Must never: change the packet (it is shared with the other subscribers and aedes' own bookkeeping),
 * or let a board receive another board's messages, or a leaving board anything but its redirect, whatever it subscribed to (defence in depth
 * behind authorizeSubscribe), or a command past its deadline.
 */
import { parseTopic } from '../protocol/topics.js'
import { pastDeadline } from '../commands/deadline.js'
import { identityOf } from './identity.js'
import { isLeaving } from '../cells/redirect.js'

/**
 * @param {object} deps
 * @param {import('../commands/outbox.js').CommandOutbox|null} deps.commands null in cluster mode
 * @param {import('../log.js').Logger} deps.log
 */
export function authorizeForwardHandler({ commands, log }) {
  return (client, packet) => {
    const identity = identityOf(client)
    if (isLeaving(client)) return identity.role === 'redirect' && packet.topic === `boards/${identity.boardId}/redirect` ? packet : null
    if (identity?.role !== 'board') return packet
    if (parseTopic(packet.topic)?.boardId !== identity.boardId) return null
    if (commands ? commands.withheld(identity.boardId, packet) : pastDeadline(packet)) {
      if (!commands) log.warn('command expired', { boardId: identity.boardId, topic: packet.topic })
      return null
    }
    return packet
  }
}
