/**
 * Delivers the durable event queue to the Worker in batches, oldest first. An event leaves the queue
 * only after the Worker answered for its batch; the Worker de-duplicates by event id, so a batch resent
 * after a crash between "accepted" and "acked locally" creates no second row. Events the Worker
 * rejects leave the queue only once they are on disk in the dead-letter file, which offers them to the
 * Worker again a few times (decision 0106).
 */
import { join } from 'node:path'
import { backoff } from '../util/backoff.js'
import { DeadLetter } from '../store/dead-letter.js'

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
   *   gatewayId: string, log: import('../log.js').Logger, dataDir: string, retryAfterMs?: number[],
   *   batchSize?: number, idleMs?: number, lingerMs?: number}} opts
   *   dataDir: the dead-letter file is `events/rejected.jsonl` in it
   *   retryAfterMs: when rejected events are offered again (default: dead-letter.js RETRY_AFTER_MS)
   *   lingerMs: how long a part-full batch waits for company, so a steady trickle becomes few requests
   */
  constructor({ queue, worker, gatewayId, log, dataDir, retryAfterMs, batchSize = 500, idleMs = 1000, lingerMs = 50 }) {
    this.queue = queue
    this.worker = worker
    this.gatewayId = gatewayId
    this.log = log
    this.batchSize = batchSize
    this.idleMs = idleMs
    this.lingerMs = lingerMs
    this.deadLetter = new DeadLetter(join(dataDir, 'events', 'rejected.jsonl'), { retryAfterMs })
  }

  start() {
    this.#running = this.#loop()
    return this
  }

  /** Called after each push so delivery starts without waiting for the idle timer. */
  poke() {
    if (this.#idle) this.#wake?.()
  }

  async #loop() {
    while (!this.#stopped) {
      if (this.queue.length > 0 && this.queue.length < this.batchSize && this.failures === 0) {
        await new Promise((resolve) => setTimeout(resolve, this.lingerMs))
      }
      const batch = this.queue.peek(this.batchSize, MAX_BATCH_BYTES)
      let sent = 0
      let waitMs = this.idleMs
      try {
        await this.deadLetter.open() // nothing is sent while a rejection could not be kept
        if (batch.length > 0) await this.#deliver(batch)
        const retries = this.deadLetter.due(Date.now(), this.batchSize)
        if (retries.length > 0) await this.#retry(retries)
        sent = batch.length + retries.length
        this.failures = 0
      } catch (e) {
        this.failures++
        waitMs = backoff(this.failures)
        this.log.warn('event delivery failed, will retry', { error: e.message, queued: this.queue.length, retryInMs: waitMs })
      }
      if (sent > 0) continue
      if (this.#stopped) break
      this.#idle = this.failures === 0 // while backing off, new events must not hurry a retry
      await new Promise((resolve) => {
        const t = setTimeout(resolve, waitMs)
        this.#wake = () => {
          clearTimeout(t)
          resolve()
        }
      })
      this.#wake = null
      this.#idle = false
    }
  }

  /** @param {import('../store/event-queue.js').QueuedEvent[]} batch */
  async #deliver(batch) {
    const res = await this.worker.postEvents(
      this.gatewayId,
      batch.map((r) => r.json)
    )
    const rejections = rejectionsOf(batch, res?.rejected)
    if (rejections.length > 0) {
      await this.deadLetter.keep(rejections, Date.now())
      this.#warn('events rejected by the Worker, kept in the dead-letter file', rejections)
    }
    await this.queue.ack(batch.at(-1).seq)
    this.delivered += batch.length - rejections.length
  }

  /** Offers held events again; each ends up stored at the Worker or rejected once more. */
  async #retry(held) {
    const res = await this.worker.postEvents(
      this.gatewayId,
      held.map((h) => h.json)
    )
    const rejections = rejectionsOf(held, res?.rejected)
    const again = new Set(rejections.map((r) => r.id))
    const stored = held.filter((h) => !again.has(h.id)).map((h) => h.id)
    await this.deadLetter.settle(rejections, stored, Date.now())
    if (stored.length > 0) this.log.info('rejected events stored by the Worker on a retry', { count: stored.length, ids: stored.slice(0, 20) })
    if (rejections.length > 0) this.#warn('rejected events rejected again on a retry', rejections)
  }

  #warn(msg, rejections) {
    this.log.warn(msg, { file: this.deadLetter.log.path, count: rejections.length, rejected: rejections.slice(0, 20).map(({ id, reason }) => ({ id, reason })) })
  }

  async stop() {
    this.#stopped = true
    this.#wake?.()
    await this.#running
    await this.deadLetter.close()
  }
}

/**
 * Pairs the Worker's `rejected` entries with the events sent. An id that was not sent fails the whole
 * answer, so the batch is sent again rather than an unidentified event dropped.
 * @param {{id: string, json: string}[]} sent @param {{id: unknown, reason: unknown}[]} [rejected]
 * @returns {import('../store/dead-letter.js').Rejection[]}
 */
function rejectionsOf(sent, rejected = []) {
  const byId = new Map(sent.map((e) => [e.id, e]))
  return rejected.map((r) => {
    const e = byId.get(/** @type {string} */ (r.id))
    if (!e) throw new Error(`the Worker rejected ${JSON.stringify(r.id)}, which was not sent`)
    return { id: e.id, json: e.json, reason: String(r.reason) }
  })
}
