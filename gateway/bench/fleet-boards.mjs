/**
 * A share of bench/fleet.mjs' boards in their own process (forked): a process may hold at most 20,000
 * open files on the development machine, and one event loop connecting them all would time itself.
 * Each board is a raw connection doing what sim/sim-board.js does on connect (bench/auth.mjs).
 * IPC: sends 'ready'; then, per message, answers with `{connected, seconds}` or `{dropped}`:
 *   {cmd: 'connect', boards, password, inFlight}     connects these boards, `[port, id]` pairs (at most inFlight under way)
 *   {cmd: 'drop', count}                              closes that many of the open connections
 * A connection the gateway closes (a restart) is forgotten; connect them again with 'connect'. Open
 * connections ping every 20 s, as mqtt.js does for the sim.
 */
import { reconnectBoard } from './auth.mjs'

/** @type {Map<string, import('node:net').Socket>} */
const open = new Map()

// A board pings within its keep-alive (30 s, bench/auth.mjs): without it the gateway drops it after 45 s.
const PINGREQ = Buffer.from([0xc0, 0x00])
setInterval(() => {
  for (const socket of open.values()) socket.write(PINGREQ)
}, 20_000).unref()

async function connect({ boards, password, inFlight }) {
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: Math.min(inFlight, boards.length) }, async () => {
      while (next < boards.length) {
        const [port, id] = boards[next++]
        const socket = await reconnectBoard(port, id, password, { asSim: true })
        open.set(id, socket)
        socket.once('close', () => open.get(id) === socket && open.delete(id))
      }
    })
  )
  return { connected: open.size, seconds: (performance.now() - t0) / 1000 }
}

async function drop({ count }) {
  const gone = [...open.entries()].slice(0, count)
  await Promise.all(
    gone.map(([id, socket]) => {
      open.delete(id)
      return new Promise((resolve) => socket.once('close', resolve).destroy())
    })
  )
  return { dropped: gone.length }
}

process.on('message', async (/** @type {any} */ m) => {
  process.send(m.cmd === 'connect' ? await connect(m) : await drop(m))
})
process.on('disconnect', () => process.exit(0))
process.send('ready')
