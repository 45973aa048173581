/**
 * The embedded aedes broker and its listeners. With a Redis URL, messages travel between gateway
 * instances over mqemitter-redis and sessions/retained messages live in aedes-persistence-redis, so
 * a board may connect to any instance.
 */
import { createServer } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import { createServer as createHttpServer } from 'node:http'
import { createRequire } from 'node:module'
import { Readable } from 'node:stream'
import { Aedes } from 'aedes'
import { WebSocketServer, createWebSocketStream } from 'ws'

const require = createRequire(import.meta.url)

/**
 * @param {{id: string, redisUrl?: string, maxTopicLevels: number}} opts
 */
export async function createAedes({ id, redisUrl, maxTopicLevels }) {
  const opts = { id, maxTopicLevels, heartbeatInterval: 60_000, drainTimeout: 10_000, concurrency: 1000 }
  if (redisUrl) {
    const MQEmitterRedis = require('mqemitter-redis')
    const RedisPersistence = require('aedes-persistence-redis/asyncPersistence.js')
    opts.mq = MQEmitterRedis({ connectionString: redisUrl })
    opts.persistence = new RedisPersistence({ ...redisOptions(redisUrl) })
    // aedes 1.2 pipes the retained messages of a SUBSCRIBE as a Node stream; aedes-persistence-redis 12
    // answers with an async iterable, which left every SUBSCRIBE without its SUBACK.
    const retained = opts.persistence.createRetainedStreamCombi.bind(opts.persistence)
    opts.persistence.createRetainedStreamCombi = (patterns) => Readable.from(retained(patterns))
    // aedes stores a SUBSCRIBE's whole topic list once per topic, concurrently; the Redis persistence
    // then waits for its cluster broadcast under one key per call, so with two or more topics the
    // waits overwrite each other and the SUBACK never comes. One store per SUBSCRIBE packet instead.
    const addSubscriptions = opts.persistence.addSubscriptions.bind(opts.persistence)
    const storing = new WeakMap()
    opts.persistence.addSubscriptions = (client, subs) => {
      if (!storing.has(subs)) storing.set(subs, addSubscriptions(client, subs))
      return storing.get(subs)
    }
  }
  const aedes = await Aedes.createBroker(opts)
  if (!redisUrl) indexRetained(aedes.persistence)
  else closeEmitterAfterPublishes(aedes)
  return aedes
}

/**
 * aedes closes its emitter as soon as it has asked every connection to close, while the wills those
 * closes publish are still on their way to Redis; each then fails with ioredis' "Connection is closed",
 * and one such failure went unhandled and ended the process with an error on most stops with boards
 * connected (test/shutdown-redis.test.js). The emitter closes once the publishes under way have ended,
 * or after CLOSE_WAIT_MS.
 */
function closeEmitterAfterPublishes(aedes) {
  const CLOSE_WAIT_MS = 5000
  let pending = 0
  let idle = () => {}
  const publish = aedes.publish.bind(aedes)
  aedes.publish = (packet, client, done) => {
    if (typeof client === 'function') [client, done] = [null, client]
    pending++
    publish(packet, client, (err) => {
      if (--pending === 0) idle()
      done?.(err)
    })
  }
  const close = aedes.mq.close.bind(aedes.mq)
  aedes.mq.close = (cb) => {
    if (pending === 0) return close(cb)
    const timer = setTimeout(() => idle(), CLOSE_WAIT_MS)
    idle = () => {
      idle = () => {}
      clearTimeout(timer)
      close(cb)
    }
  }
}

/**
 * The in-memory persistence answers every SUBSCRIBE by testing *all* retained messages against the
 * filter — with three retained topics per board, 1,000 boards subscribing cost millions of matches.
 * Boards subscribe to exact topics, so those are answered from a topic index; wildcard filters still
 * take the full scan. (The Redis persistence already looks exact topics up directly.)
 */
function indexRetained(persistence) {
  /** @type {Map<string, object>} */
  const byTopic = new Map()
  const store = persistence.storeRetained.bind(persistence)
  persistence.storeRetained = async (packet) => {
    await store(packet)
    if (packet.payload.length === 0) byTopic.delete(packet.topic)
    else byTopic.set(packet.topic, { cmd: 'publish', topic: packet.topic, payload: packet.payload, qos: packet.qos, retain: true })
  }
  const scan = persistence.createRetainedStreamCombi.bind(persistence)
  persistence.createRetainedStreamCombi = (patterns) =>
    patterns.some((p) => p.includes('+') || p.includes('#')) ? scan(patterns) : Readable.from(patterns.map((p) => byTopic.get(p)).filter(Boolean))
}

/** @param {string} url */
function redisOptions(url) {
  const u = new URL(url)
  return { host: u.hostname, port: Number(u.port || 6379), password: u.password || undefined, db: Number(u.pathname.slice(1) || 0) }
}

/**
 * Refuses an MQTT packet as soon as its header announces more than `maxBytes`, before the rest is
 * buffered: aedes itself would accept frames of up to 256 MB. This reaches into the packet parser
 * aedes gives each client (mqtt-packet's length step), so it is checked by the ACL tests.
 */
function limitFrames(client, maxBytes) {
  const parser = client._parser
  const parseLength = parser._parseLength
  parser._parseLength = function () {
    const done = parseLength.call(this)
    if (done && this.packet.length > maxBytes) this._emitError(new Error(`packet of ${this.packet.length} bytes exceeds ${maxBytes}`))
    return done
  }
  return client
}

/**
 * Starts the TCP and WebSocket listeners. Nagle is off: without it every request/response waits
 * ~40 ms for the peer's delayed ACK.
 * @param {import('aedes').Aedes} aedes
 * With a certificate, MQTT over TLS listens too (boards send their secret in CONNECT, so anything
 * beyond a trusted local network should use it).
 * @param {{host: string, mqttPort: number, wsPort?: number|null, maxPayload: number,
 *   tls?: {cert: string|Buffer, key: string|Buffer, port: number}}} opts
 */
export async function listen(aedes, { host, mqttPort, wsPort, maxPayload, tls }) {
  // room for the fixed header's variable part, topic and message id around the largest payload
  const handle = (conn, req) => limitFrames(aedes.handle(conn, req), maxPayload + 1024)
  const tcp = createServer({ noDelay: true }, handle)
  await new Promise((resolve, reject) => tcp.once('error', reject).listen(mqttPort, host, () => resolve()))
  let secure = null
  if (tls) {
    secure = createTlsServer({ cert: tls.cert, key: tls.key }, (socket) => {
      socket.setNoDelay(true)
      handle(socket)
    })
    await new Promise((resolve, reject) => secure.once('error', reject).listen(tls.port, host, resolve))
  }
  let http = null
  if (wsPort != null) {
    http = createHttpServer()
    const wss = new WebSocketServer({ server: http })
    wss.on('connection', (ws, req) => {
      req.socket.setNoDelay(true)
      handle(createWebSocketStream(ws), req)
    })
    await new Promise((resolve, reject) => http.once('error', reject).listen(wsPort, host, resolve))
  }
  return {
    mqttPort: port(tcp),
    wsPort: http ? port(http) : null,
    mqttsPort: secure ? port(secure) : null,
    async close() {
      await Promise.all(
        [tcp, secure, http].filter(Boolean).map(
          (s) =>
            new Promise((resolve) => {
              s.close(() => resolve())
              if ('closeAllConnections' in s) /** @type {import('node:http').Server} */ (s).closeAllConnections()
            })
        )
      )
    }
  }
}

/** @param {import('node:net').Server} server a listening server */
const port = (server) => /** @type {import('node:net').AddressInfo} */ (server.address()).port
