/**
 * Telling a board it belongs to another cell (PROTOCOL.md, "Cells and redirects"; decision 0053).
 *
 * MQTT 3.1.1 has no server reference, so the redirect is a message: `boards/{id}/redirect`,
 * `{"v":1,"cell":…,"mqttUrl":…}`, QoS 1, not retained, written straight onto the board's connection
 * (it need not subscribe), then the connection is ended. From the moment a board is leaving, nothing it sends is accepted: its publishes get no
 * PUBACK (they are refused when the connection closes, so the board sends them again to its new
 * cell), its subscriptions are refused, and nothing else is forwarded to it.
 */
import { topic } from '../protocol/topics.js'
import { identityOf, setIdentity } from '../broker/identity.js'

export const REDIRECT_CLOSE_WAIT_MS = 5_000

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
 * Sends the redirect to a connected board and ends its connection: a half-close once the redirect is
 * written, so that the board reads it before it sees the end, then a full close when the board has
 * closed its side or after `closeWaitMs`. (Waiting for the redirect's PUBACK is not possible: aedes
 * reads a client's packets one at a time, and the board's held publishes come first.)
 * @param {import('aedes').Client} client
 * @param {{boardId: string, cell: string, mqttUrl: string}} to
 * @param {{closeWaitMs?: number}} [opts]
 */
export async function redirectClient(client, { boardId, cell, mqttUrl }, { closeWaitMs = REDIRECT_CLOSE_WAIT_MS } = {}) {
  if (identityOf(client)?.role !== 'redirect') markLeaving(client, boardId)
  setIdentity(client, { role: 'redirect', boardId, cell, mqttUrl })
  /** @type {import('aedes').PublishPacket} */
  const packet = { cmd: 'publish', topic: topic(boardId, 'redirect'), payload: Buffer.from(JSON.stringify({ v: 1, cell, mqttUrl })), qos: 1, retain: false, dup: false }
  const conn = client.conn
  await new Promise((resolve) => client.publish(packet, resolve))
  if (conn.destroyed) return
  await new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      resolve(undefined)
    }
    const timer = setTimeout(done, closeWaitMs)
    timer.unref?.()
    conn.once('close', done)
    conn.end()
  })
  client.close()
}
