/**
 * aedes' `authorizeForward(client, packet)`, synchronous, before each message goes to a subscriber
 * (retained ones included).
 *
 * Receives: the receiving client and the packet about to go to it.
 * Must return: the packet to deliver it, null to drop it for this client.
 * Must never: change the packet (it is shared with the other subscribers and aedes' own bookkeeping),
 * or let a board receive another board's messages, or a leaving board anything but its redirect, whatever it subscribed to (defence in depth
 * behind authorizeSubscribe), or a command past its deadline, or an unlock while a lockdown covers the board's door (one queued before
 * the lockdown started, in aedes' session or the outbox, is dropped: the console has failed it, decision 0083).
 */
import { parseTopic } from '../protocol/topics.js'
import { pastDeadline } from '../commands/deadline.js'
import { parseCommand } from '../commands/outbox.js'
import { identityOf } from './identity.js'
import { isLeaving } from '../cells/redirect.js'

/**
 * @param {object} deps
 * @param {import('../commands/outbox.js').CommandOutbox|null} deps.commands null in cluster mode
 * @param {import('../log.js').Logger} deps.log
 * @param {(boardId: string) => boolean} [deps.lockedDown] true while a lockdown (not an evacuation) covers the board's door
 */
export function authorizeForwardHandler({ commands, log, lockedDown = () => false }) {
  return (client, packet) => {
    const identity = identityOf(client)
    if (isLeaving(client)) return identity.role === 'redirect' && packet.topic === `boards/${identity.boardId}/redirect` ? packet : null
    if (identity?.role !== 'board') return packet
    if (parseTopic(packet.topic)?.boardId !== identity.boardId) return null
    if (commands ? commands.withheld(identity.boardId, packet) : pastDeadline(packet)) {
      if (!commands) log.warn('command expired', { boardId: identity.boardId, topic: packet.topic })
      return null
    }
    const unlock = unlockId(packet)
    if (unlock !== null && lockedDown(identity.boardId)) {
      log.warn('unlock withheld: the door is in lockdown', { boardId: identity.boardId, id: unlock })
      commands?.drop(identity.boardId, unlock)
      return null
    }
    return packet
  }
}

/** The id of a queued `unlock` command, else null. @param {{topic: string, qos: number, payload: Buffer}} packet */
function unlockId(packet) {
  if (packet.qos === 0 || parseTopic(packet.topic)?.name !== 'cmd') return null
  try {
    const c = parseCommand(packet.payload)
    return c.cmd === 'unlock' ? c.id : null
  } catch {
    return null
  }
}
