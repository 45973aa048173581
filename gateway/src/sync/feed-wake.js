/**
 * The console's wake-up channel (docs/gateway-api.md, "Wake-ups"; decision 0118): a WebSocket to
 * `GET /api/gateway/wake` that carries one message, "wake": read the change feed now. A lockdown
 * started in the console then reaches the boards in well under a second instead of at the next poll.
 *
 * The channel only shortens the wait: the feed stays the one source of what changed, and a gateway
 * whose channel is down reads it at its poll interval as before. So every (re)connection is followed by
 * a read (a wake-up may have been missed while it was down), and a console without the channel (404)
 * is tried again only every few minutes. A keep-alive "ping" every `pingMs` must be answered ("pong")
 * within `pingMs`, or the socket is taken for dead and replaced.
 */
import WebSocket from 'ws'
import { backoff } from '../util/backoff.js'

export const WAKE_PATH = '/api/gateway/wake'
const MISSING_RETRY_MS = 5 * 60_000

export class FeedWake {
  #ws = null
  #stopped = false
  #failures = 0
  #retry = null
  #ping = null
  #awaitingPong = false

  /**
   * @param {{worker: import('./worker-client.js').WorkerClient, onWake: () => void,
   *   log: import('../log.js').Logger, pingMs?: number}} opts
   */
  constructor({ worker, onWake, log, pingMs = 30_000 }) {
    this.url = worker.base.replace(/^http/, 'ws') + WAKE_PATH
    this.headers = worker.headers
    this.onWake = onWake
    this.log = log
    this.pingMs = pingMs
  }

  /** Whether the channel is open now. */
  get connected() {
    return this.#ws?.readyState === WebSocket.OPEN
  }

  start() {
    this.#connect()
    return this
  }

  #connect() {
    if (this.#stopped) return
    const ws = new WebSocket(this.url, { headers: this.headers, handshakeTimeout: 15_000 })
    this.#ws = ws
    let missing = false
    ws.on('open', () => {
      this.#failures = 0
      this.log.debug('wake-up channel open')
      this.#keepAlive(ws)
      this.onWake() // whatever was missed while the channel was down
    })
    ws.on('message', (data) => {
      const text = String(data)
      if (text === 'wake') this.onWake()
      else if (text === 'pong') this.#awaitingPong = false
    })
    ws.on('unexpected-response', (_req, res) => {
      missing = res.statusCode === 404
      this.log.warn('wake-up channel refused; reading the feed at its interval', { status: res.statusCode })
      ws.terminate()
    })
    ws.on('error', (e) => this.log.debug('wake-up channel error', { error: e.message }))
    ws.on('close', () => {
      clearInterval(this.#ping)
      if (this.#stopped || this.#ws !== ws) return
      this.#failures++
      this.#retry = setTimeout(() => this.#connect(), missing ? MISSING_RETRY_MS : backoff(this.#failures))
      this.#retry.unref?.()
    })
  }

  #keepAlive(ws) {
    this.#awaitingPong = false
    this.#ping = setInterval(() => {
      if (this.#awaitingPong) return ws.terminate() // no answer to the last one: the connection is gone
      this.#awaitingPong = true
      ws.send('ping')
    }, this.pingMs)
    this.#ping.unref?.()
  }

  stop() {
    this.#stopped = true
    clearTimeout(this.#retry)
    clearInterval(this.#ping)
    this.#ws?.terminate()
  }
}
