/**
 * The durable event queue between boards and the Worker.
 *
 * events.log holds `{seq, event}` lines (synced before the board's PUBACK); delivered.json holds the
 * highest seq the Worker accepted.
 * Events leave the queue strictly in seq order, so one number says what is done. Once everything is
 * delivered the log is emptied; the seq counter lives on in delivered.json. During a long outage the
 * log is also compacted to the undelivered events once it passes `compactBytes`.
 */
import { readFile, writeFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { AppendLog } from './append-log.js'

/**
 * @typedef {import('../protocol/wire.js').WireEvent} GatewayEvent
 * @typedef {{seq: number, id: string, json: string, bytes: number}} QueuedEvent  json: the event as sent to the Worker
 */

// Queued events are kept serialized: one string instead of an object graph per event is less for the
// garbage collector to copy, and the forwarder sends the strings as they are.
const lineOf = (rec) => `{"seq":${rec.seq},"event":${rec.json}}`
const queued = (seq, event) => {
  const json = JSON.stringify(event)
  return { seq, id: event.id, json, bytes: Buffer.byteLength(json) }
}

export class EventQueue {
  /** @type {QueuedEvent[]} */ #pending = []
  #ids = new Set()
  #nextSeq = 1
  #delivered = 0
  #writing = 0
  #compactedSize = 0

  /** @param {string} dir @param {{compactBytes?: number}} [opts] */
  constructor(dir, { compactBytes = 64 * 1024 * 1024 } = {}) {
    this.compactBytes = compactBytes
    // Syncs at most every 4 ms: a PUBACK may wait that long, an access answer never does (it is sent
    // before its event is stored), and under load one fdatasync carries many events.
    this.log = new AppendLog(join(dir, 'events.log'), { syncIntervalMs: 4 })
    this.deliveredPath = join(dir, 'delivered.json')
  }

  async open() {
    try {
      this.#delivered = JSON.parse(await readFile(this.deliveredPath, 'utf8')).seq
    } catch {
      // Missing, or torn by a power loss (it is not synced): everything in the log is sent again,
      // and the Worker drops what it already has.
    }
    for (const { seq, event } of await this.log.open()) {
      if (seq > this.#delivered) this.#keep(queued(seq, event))
    }
    this.#nextSeq = Math.max(this.#delivered, this.#pending.at(-1)?.seq ?? 0) + 1
    return this
  }

  #keep(rec) {
    this.#pending.push(rec)
    this.#ids.add(rec.id)
  }

  /** Number of events not yet accepted by the Worker. */
  get length() {
    return this.#pending.length
  }

  /**
   * Stores an event durably. An id already waiting in the queue is not stored twice.
   * @param {GatewayEvent} event
   * @returns {Promise<boolean>} false when it was a duplicate of a queued event
   */
  async push(event) {
    return this.pushPrepared(EventQueue.prepare(event))
  }

  /**
   * Serializes an event for the queue. Throws when it cannot be (which validation rules out): callers
   * that answer a board do this first, so nothing is answered whose record could not be stored.
   * @param {GatewayEvent} event @returns {{id: string, json: string, bytes: number}}
   */
  static prepare(event) {
    const json = JSON.stringify(event)
    return { id: event.id, json, bytes: Buffer.byteLength(json) }
  }

  /**
   * Stores a prepared event durably. An id already waiting in the queue is not stored twice.
   * @param {{id: string, json: string, bytes: number}} prepared
   * @returns {Promise<boolean>} false when it was a duplicate of a queued event
   */
  async pushPrepared(prepared) {
    if (this.#ids.has(prepared.id)) return false
    const rec = { seq: this.#nextSeq++, ...prepared }
    this.#ids.add(rec.id)
    this.#writing++
    try {
      await this.log.appendLine(lineOf(rec))
    } catch (e) {
      this.#ids.delete(rec.id)
      throw e
    } finally {
      this.#writing--
    }
    // Visible to the forwarder only once durable, so nothing is sent that a crash could forget.
    this.#insertInOrder(rec)
    return true
  }

  #insertInOrder(rec) {
    let i = this.#pending.length
    while (i > 0 && this.#pending[i - 1].seq > rec.seq) i--
    this.#pending.splice(i, 0, rec)
  }

  /**
   * The oldest undelivered events: at most `max`, and no more than `maxBytes` of JSON (at least one).
   * @param {number} max @param {number} [maxBytes] @returns {QueuedEvent[]}
   */
  peek(max, maxBytes = Infinity) {
    let n = 0
    let bytes = 0
    while (n < max && n < this.#pending.length) {
      bytes += this.#pending[n].bytes + 1
      if (n > 0 && bytes > maxBytes) break
      n++
    }
    return this.#pending.slice(0, n)
  }

  /** Marks every event up to and including `seq` as delivered. */
  async ack(seq) {
    // Not synced on purpose: losing this only means resending events the Worker de-duplicates,
    // and two fsyncs per batch would cost more than the whole batch.
    await writeFile(this.deliveredPath + '.tmp', JSON.stringify({ seq }))
    await rename(this.deliveredPath + '.tmp', this.deliveredPath)
    this.#delivered = seq
    let done = 0
    while (done < this.#pending.length && this.#pending[done].seq <= seq) done++
    for (const rec of this.#pending.splice(0, done)) this.#ids.delete(rec.id)
    const drained = this.#pending.length === 0 && this.log.size > 0
    const bloated = this.log.size > Math.max(this.compactBytes, 2 * this.#compactedSize)
    if (drained || bloated) {
      // Only when no push is between "written" and "visible in #pending", or its line would be dropped.
      await this.log.rewrite(() => (this.#writing === 0 ? this.#pending.map(lineOf) : null))
      this.#compactedSize = this.log.size
    }
  }

  close() {
    return this.log.close()
  }
}
