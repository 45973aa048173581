/**
 * Removing an offline board's persistent session from this cell's broker persistence (in memory or in
 * Redis): its subscriptions, its will, its QoS 2 dedup entries and the messages queued for it.
 */

/** a queue is read this many packets at a time (aedes-persistence-redis reads at most that many per stream) */
const MAX_ROUNDS = 1_000

/**
 * @param {any} persistence the broker's aedes persistence
 * @param {string} brokerId
 * @param {string} clientId
 */
export async function forgetSession(persistence, brokerId, clientId) {
  const client = { id: clientId }
  await persistence.cleanSubscriptions(client)
  await persistence.delWill({ id: clientId, brokerId })
  if (typeof persistence.cleanIncoming === 'function') await persistence.cleanIncoming(client)
  // Queued packets are cleared by message id, as aedes does for a clean session: an id is given to
  // each first (outgoingUpdate), then cleared.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let messageId = 0
    for await (const packet of persistence.outgoingStream(client)) {
      packet.messageId = ++messageId
      await persistence.outgoingUpdate(client, packet)
      await persistence.outgoingClearMessageId(client, packet)
    }
    if (messageId === 0) return
  }
}
