/**
 * Operational figures, published retained on `$SYS/{gatewayId}/gateway/stats` every interval (only the
 * operator login may read `$SYS`). Decision times are measured inside the gateway, from the request
 * reaching the access handler to the answer being handed to the connection, over the last interval;
 * the event-loop delay shows how long work waited before it could run at all. `events.deadLettered`
 * counts events the Worker rejected and has not stored since (in `events/rejected.jsonl`), of which
 * `awaitingRetry` will be offered again.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'

const SAMPLES = 20_000

export class Stats {
  #durations = new Float64Array(SAMPLES)
  #n = 0
  #count = 0
  #timer = null
  #loop = monitorEventLoopDelay({ resolution: 5 })

  /** Set by `start`: what exists only once the broker runs. */
  #running = null

  /**
   * @param {object} deps
   * @param {string} deps.topic where the figures are published
   * @param {number} deps.intervalMs
   * @param {Pick<import('./store/event-queue.js').EventQueue, 'length'>} deps.queue
   * @param {Pick<import('./store/replica.js').Replica, 'cursor'>} deps.replica
   */
  constructor({ topic, intervalMs, queue, replica }) {
    this.topic = topic
    this.intervalMs = intervalMs
    this.queue = queue
    this.replica = replica
  }

  /** @param {number} ms */
  decision(ms) {
    this.#durations[this.#n++ % SAMPLES] = ms
    this.#count++
  }

  /**
   * @param {object} running
   * @param {import('aedes').Aedes} running.aedes its connected clients are counted, the figures published through it
   * @param {import('./events/forwarder.js').Forwarder} running.forwarder
   * @param {() => object} running.cells the cell's figures: lookups, redirects, retained publishes (decision 0053)
   */
  start(running) {
    this.#running = running
    this.#loop.enable()
    this.#timer = setInterval(() => this.#publish(), this.intervalMs)
    this.#timer.unref()
    return this
  }

  stop() {
    clearInterval(this.#timer)
    this.#loop.disable()
  }

  #publish() {
    const d = Array.from(this.#durations.subarray(0, Math.min(this.#n, SAMPLES))).sort((a, b) => a - b)
    const { aedes, forwarder, cells } = this.#running
    const dead = forwarder.deadLetter
    const at = (p) => (d.length ? +(d[Math.min(d.length - 1, Math.floor(d.length * p))] * 1000).toFixed(0) : null)
    const msg = {
      v: 1,
      at: Date.now(),
      boards: Object.keys(aedes.clients).length,
      decisions: { count: this.#count, p50Us: at(0.5), p99Us: at(0.99), maxUs: d.length ? +(d.at(-1) * 1000).toFixed(0) : null },
      eventLoopDelay: { p99Ms: +(this.#loop.percentile(99) / 1e6).toFixed(2), maxMs: +(this.#loop.max / 1e6).toFixed(2) },
      events: {
        queued: this.queue.length,
        delivered: forwarder.delivered,
        deliveryFailures: forwarder.failures,
        deadLettered: dead.held,
        awaitingRetry: dead.awaitingRetry
      },
      cells: cells(),
      cursor: this.replica.cursor
    }
    this.#n = 0
    this.#count = 0
    this.#loop.reset()
    aedes.publish({ cmd: 'publish', topic: this.topic, payload: Buffer.from(JSON.stringify(msg)), qos: 0, retain: true, dup: false }, () => {})
  }
}
