/**
 * Command deadlines in cluster mode, where aedes-persistence-redis queues commands for offline boards
 * and any instance may deliver them: the accepting instance writes the deadline into the command, and
 * every instance's forward hook withholds a command past it. (Without Redis the outbox keeps the
 * deadlines, decision 0108; the limits are the same.)
 */
import { COMMAND_MAX_AGE_MS, COMMAND_TTL_MS, parseCommand } from './outbox.js'
import { parseTopic } from '../protocol/topics.js'

/**
 * The command with its `expiresAt` set: as given but at most COMMAND_MAX_AGE_MS away, else
 * COMMAND_TTL_MS from now. Throws for a payload that is not a command (no usable id).
 * @param {Buffer|string} payload @param {number} [now] @returns {Buffer}
 */
export function withDeadline(payload, now = Date.now()) {
  const { expiresAt } = parseCommand(payload)
  const msg = JSON.parse(Buffer.from(payload).toString('utf8'))
  msg.expiresAt = Math.min(expiresAt ?? now + COMMAND_TTL_MS, now + COMMAND_MAX_AGE_MS)
  return Buffer.from(JSON.stringify(msg))
}

/**
 * True for a queued (QoS 1) command whose deadline has passed.
 * @param {{topic: string, qos: number, payload: Buffer}} packet @param {number} [now]
 */
export function pastDeadline(packet, now = Date.now()) {
  if (packet.qos === 0 || parseTopic(packet.topic)?.name !== 'cmd') return false
  try {
    const { expiresAt } = parseCommand(packet.payload)
    return expiresAt !== undefined && expiresAt <= now
  } catch {
    return false
  }
}
