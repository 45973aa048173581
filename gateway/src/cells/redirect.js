/**
 * Telling a board it belongs to another cell (PROTOCOL.md, "Cells and redirects"; decision 0053).
 *
 * MQTT 3.1.1 has no server reference, so the redirect is a message: `boards/{id}/redirect`,
 * `{"v":1,"cell":…,"mqttUrl":…}`, QoS 1, not retained, written straight onto the board's connection
 * (it need not subscribe). Once the board has acknowledged it, or after `ackWaitMs`, the connection is
 * closed. From the moment a board is leaving, nothing it sends is accepted: its publishes get no
 * PUBACK (they are refused when the connection closes, so the board sends them again to its new
 * cell), its subscriptions are refused, and nothing else is forwarded to it.
 */
import { topic } from '../protocol/topics.js'
import { identityOf, setIdentity } from '../broker/identity.js'

export const REDIRECT_ACK_WAIT_MS = 5_000

/** Whether this client may no longer publish, subscribe or receive anything but its redirect. */
export const isLeaving = (client) => {
  const role = identityOf(client)?.role
  return role === 'leaving' || role === 'redirect'
}

/**
 * Marks a connected board as leaving: synchronous, so that no publish that arrives after its device
 * left this cell's copy is acknowledged here. A board that leaves nothing behind: no will, no session.
 * @param {import('aedes').Client} client @param {string} boardId
 */
export function markLeaving(client, boardId) {
  setIdentity(client, { role: 'leaving', boardId })
  client.clean = true
  client.will = null
  client._will = null
}

/** Calls `cb` with an error once the client's connection has closed (a held publish of a leaving board). */
export function refuseOnClose(client, cb) {
  const err = new Error('board redirected to another cell')
  if (client.closed || client.conn.destroyed) return cb(err)
  client.conn.once('close', () => cb(err))
}

/**
 * Sends the redirect to a connected board and closes its connection.
 * @param {import('aedes').Client} client
 * @param {{boardId: string, cell: string, mqttUrl: string}} to
 * @param {{ackWaitMs?: number}} [opts]
 */
export async function redirectClient(client, { boardId, cell, mqttUrl }, { ackWaitMs = REDIRECT_ACK_WAIT_MS } = {}) {
  if (identityOf(client)?.role !== 'redirect') markLeaving(client, boardId)
  setIdentity(client, { role: 'redirect', boardId, cell, mqttUrl })
  const packet = { cmd: 'publish', topic: topic(boardId, 'redirect'), payload: Buffer.from(JSON.stringify({ v: 1, cell, mqttUrl })), qos: 1, retain: false }
  const broker = client.broker
  await new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      broker.off('ack', onAck)
      client.conn.off('close', done)
      resolve(undefined)
    }
    // A clean client's acknowledged packets are not stored, so the ack names only the client.
    const onAck = (_packet, from) => from === client && done()
    const timer = setTimeout(done, ackWaitMs)
    timer.unref?.()
    client.conn.once('close', done)
    broker.on('ack', onAck)
    client.publish(packet, (err) => err && done())
  })
  client.close()
}
