/**
 * Delivers the durable event queue to the Worker in batches, oldest first. An event leaves the queue
 * only after the Worker accepted its batch; the Worker de-duplicates by event id, so a batch resent
 * after a crash between "accepted" and "acked locally" creates no second row.
 */
import { backoff } from '../util/backoff.js'

/** The Worker accepts bodies up to 2 MB (docs/gateway-api.md). */
const MAX_BATCH_BYTES = 1_500_000

export class Forwarder {
  #stopped = false
  #wake = null
  #idle = false
  #running = null
  failures = 0
  delivered = 0

  /**
   * @param {{queue: import('../store/event-queue.js').EventQueue, worker: import('../sync/worker-client.js').WorkerClient,
   *   gatewayId: string, log: import('../log.js').Logger, batchSize?: number, idleMs?: number, lingerMs?: number}} opts
   *   lingerMs: how long a part-full batch waits for company, so a steady trickle becomes few requests
   */
  constructor ({ queue, worker, gatewayId, log, batchSize = 500, idleMs = 1000, lingerMs = 50 }) {
    Object.assign(this, { queue, worker, gatewayId, log, batchSize, idleMs, lingerMs })
  }

  start () { this.#running = this.#loop(); return this }

  /** Called after each push so delivery starts without waiting for the idle timer. */
  poke () { if (this.#idle) this.#wake?.() }

  async #loop () {
    while (!this.#stopped) {
      if (this.queue.length > 0 && this.queue.length < this.batchSize && this.failures === 0) {
        await new Promise((resolve) => setTimeout(resolve, this.lingerMs))
      }
      const batch = this.queue.peek(this.batchSize, MAX_BATCH_BYTES)
      let waitMs = this.idleMs
      if (batch.length > 0) {
        try {
          const res = await this.worker.postEvents(this.gatewayId, batch.map((r) => r.json))
          if (res?.rejected?.length) this.log.warn('events rejected by the Worker', { rejected: res.rejected.slice(0, 20), count: res.rejected.length })
          await this.queue.ack(batch.at(-1).seq)
          this.delivered += batch.length
          this.failures = 0
          continue
        } catch (e) {
          this.failures++
          waitMs = backoff(this.failures)
          this.log.warn('event delivery failed, will retry', { error: e.message, queued: this.queue.length, retryInMs: waitMs })
        }
      }
      if (this.#stopped) break
      this.#idle = batch.length === 0 // while backing off, new events must not hurry a retry
      await new Promise((resolve) => {
        const t = setTimeout(resolve, waitMs)
        this.#wake = () => { clearTimeout(t); resolve() }
      })
      this.#wake = null
      this.#idle = false
    }
  }

  async stop () {
    this.#stopped = true
    this.#wake?.()
    await this.#running
  }
}
