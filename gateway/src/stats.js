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

  /** @param {import('./gateway.js').Gateway} gw @param {number} intervalMs */
  constructor(gw, intervalMs) {
    this.gw = gw
    this.intervalMs = intervalMs
  }

  /** @param {number} ms */
  decision(ms) {
    this.#durations[this.#n++ % SAMPLES] = ms
    this.#count++
  }

  start() {
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
    const dead = this.gw.forwarder.deadLetter
    const at = (p) => (d.length ? +(d[Math.min(d.length - 1, Math.floor(d.length * p))] * 1000).toFixed(0) : null)
    const msg = {
      v: 1,
      at: Date.now(),
      boards: Object.keys(this.gw.aedes.clients).length,
      decisions: { count: this.#count, p50Us: at(0.5), p99Us: at(0.99), maxUs: d.length ? +(d.at(-1) * 1000).toFixed(0) : null },
      eventLoopDelay: { p99Ms: +(this.#loop.percentile(99) / 1e6).toFixed(2), maxMs: +(this.#loop.max / 1e6).toFixed(2) },
      events: {
        queued: this.gw.queue.length,
        delivered: this.gw.forwarder.delivered,
        deliveryFailures: this.gw.forwarder.failures,
        deadLettered: dead.held,
        awaitingRetry: dead.awaitingRetry
      },
      cursor: this.gw.replica.cursor
    }
    this.#n = 0
    this.#count = 0
    this.#loop.reset()
    this.gw.aedes.publish(
      { cmd: 'publish', topic: `$SYS/${this.gw.opts.gatewayId}/gateway/stats`, payload: Buffer.from(JSON.stringify(msg)), qos: 0, retain: true, dup: false },
      () => {}
    )
  }
}
