/**
 * Board authentication at scale, for bench.mjs: a reconnect storm after a gateway restart, and a
 * storm of bad CONNECTs against a good board's connect latency. Raw MQTT over TCP (no client library)
 * so that the bench's own process costs little per connection, and so bad CONNECTs can come from
 * other loopback addresses (127.0.0.2, 127.0.1.x) than the good board's (127.0.0.1).
 */
import mqttPacket from 'mqtt-packet'
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { rawConnect } from '../test/support/raw-connect.js'

const DOWN = ['access/res', 'config', 'schedule', 'cmd', 'fw/offer', 'fw/block', 'error']

/** Waits for the first packet of `cmd` on a kept connection. */
function nextPacket(parser, cmd) {
  return new Promise((resolve) => {
    const on = (p) => {
      if (p.cmd === cmd) {
        parser.off('packet', on)
        resolve(p)
      }
    }
    parser.on('packet', on)
  })
}

/**
 * What a board does when the gateway comes back (PROTOCOL.md, "Connection"): CONNECT, status (QoS 1,
 * waits for the PUBACK), SUBSCRIBE to its down topics (waits for the SUBACK). Returns the open socket.
 * With `asSim`, the CONNECT is sim/sim-board.js' own (its retained offline will, keep-alive 30 s), so
 * that the gateway holds per connection what it holds for a simulated board.
 */
export async function reconnectBoard(port, id, password, { asSim = false } = {}) {
  const sim = asSim
    ? { keepalive: 30, will: { topic: `boards/${id}/status`, payload: Buffer.from(JSON.stringify({ v: 1, online: false })), qos: /** @type {1} */ (1), retain: true } }
    : {}
  const c = await rawConnect({ port, clientId: id, password, keep: true, timeoutMs: 120_000, ...sim })
  if (c.code !== 0) throw new Error(`board ${id} refused with ${c.code}`)
  const { socket, parser } = c
  // a board acknowledges the retained QoS 1 messages its subscription brings
  parser.on('packet', (p) => {
    if (p.cmd === 'publish' && p.qos === 1) socket.write(mqttPacket.generate({ cmd: 'puback', messageId: p.messageId }))
  })
  const acked = nextPacket(parser, 'puback')
  socket.write(
    mqttPacket.generate({
      cmd: 'publish',
      topic: `boards/${id}/status`,
      payload: Buffer.from(JSON.stringify({ v: 1, online: true, fw: '9.9.9' })),
      qos: 1,
      retain: true,
      dup: false,
      messageId: 1
    })
  )
  await acked
  const subacked = nextPacket(parser, 'suback')
  socket.write(mqttPacket.generate({ cmd: 'subscribe', messageId: 2, subscriptions: DOWN.map((n) => ({ topic: `boards/${id}/${n}`, qos: 1 })) }))
  await subacked
  return socket
}

/** Reconnects every board with at most `inFlight` connections under way; seconds until all are done. */
export async function reconnectStorm(port, ids, password, inFlight = 500) {
  const sockets = []
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: Math.min(inFlight, ids.length) }, async () => {
      while (next < ids.length) sockets.push(await reconnectBoard(port, ids[next++], password))
    })
  )
  const seconds = (performance.now() - t0) / 1000
  for (const s of sockets) s.destroy()
  return seconds
}

/**
 * `count` CONNECTs with wrong secrets for the given board ids, `inFlight` at a time, from
 * `addresses` in turn. Returns the CONNACK codes seen and how long the storm lasted.
 */
export async function badConnectStorm(port, ids, { count = 1000, inFlight = 100, addresses = ['127.0.0.2'] } = {}) {
  const codes = {}
  let i = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (i < count) {
        const n = i++
        const code = await rawConnect({ port, localAddress: addresses[n % addresses.length], clientId: ids[n % ids.length], password: `wrong-${n}`, timeoutMs: 300_000 })
        codes[code] = (codes[code] ?? 0) + 1
      }
    })
  )
  return { codes, seconds: (performance.now() - t0) / 1000 }
}

/**
 * `badConnectStorm` in a child process (bench/storm.mjs), started once that process is up: resolves
 * with `{run}`, and `run()` starts the storm and resolves with its result.
 */
export async function prepareStorm(port, ids, opts = {}) {
  const child = fork(fileURLToPath(new URL('./storm.mjs', import.meta.url)))
  const exited = new Promise((resolve, reject) => child.once('exit', (code) => reject(new Error(`storm process exited with ${code}`))))
  exited.catch(() => {})
  await Promise.race([new Promise((resolve) => child.once('message', resolve)), exited])
  return {
    run: () =>
      Promise.race([
        new Promise((resolve) => {
          child.once('message', resolve)
          child.send({ port, ids, ...opts })
        }),
        exited
      ])
  }
}

/** One good board's CONNECT → CONNACK time in ms, on a new connection from 127.0.0.1. */
async function goodConnect(port, id, password) {
  const t0 = performance.now()
  const code = await rawConnect({ port, localAddress: '127.0.0.1', clientId: id, password, timeoutMs: 300_000 })
  if (code !== 0) throw new Error(`good board ${id} refused with ${code}`)
  return performance.now() - t0
}

/**
 * Good connects started every `intervalMs` (at most `maxOutstanding` under way, each a new board id),
 * `n` of them; sorted latencies. Open loop, so one slow connect does not thin out the samples.
 */
export async function quietConnects(port, ids, password, n, { intervalMs = 5, maxOutstanding = 4 } = {}) {
  return sample(port, ids, password, () => false, n, intervalMs, maxOutstanding)
}

/** The same, started only while `storm` runs; sorted latencies and the storm's result. */
export async function connectsDuring(storm, port, ids, password, { intervalMs = 5, maxOutstanding = 4 } = {}) {
  let over = false
  const result = storm.then((r) => {
    over = true
    return r
  })
  const latencies = await sample(port, ids, password, () => over, Infinity, intervalMs, maxOutstanding)
  return { latencies, storm: await result }
}

async function sample(port, ids, password, stop, n, intervalMs, maxOutstanding) {
  const out = []
  const running = new Set()
  for (let i = 0; i < n && !stop(); i++) {
    while (running.size >= maxOutstanding) await Promise.race(running)
    if (stop()) break
    const p = goodConnect(port, ids[i % ids.length], password).then((ms) => {
      out.push(ms)
      running.delete(p)
    })
    running.add(p)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
  await Promise.all(running)
  return out.sort((a, b) => a - b)
}
