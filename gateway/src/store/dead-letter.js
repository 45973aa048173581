/**
 * Events the Worker rejected, kept so that none vanishes (decision 0106).
 *
 * An append-only, fsync'd JSON-lines file: `{at, reason, attempt, event}` for each rejection (the whole
 * event as it was sent) and `{at, accepted: <event id>}` once a later attempt was stored by the Worker.
 * An event is *held* while its latest line is a rejection. Held events are offered to the Worker again
 * after each delay of `retryAfterMs` (counted from their latest rejection), then left alone; the file
 * stays for an operator to read.
 */
import { AppendLog } from './append-log.js'

/** After a first rejection: 1 min, 15 min, 4 h, 24 h. */
export const RETRY_AFTER_MS = [60_000, 15 * 60_000, 4 * 3_600_000, 24 * 3_600_000]

/**
 * @typedef {{id: string, json: string, reason: string, at: number, attempt: number}} HeldEvent  json: the event as sent
 * @typedef {{id: string, json: string, reason: string}} Rejection
 */

const lineOf = (h) => `{"at":${h.at},"reason":${JSON.stringify(h.reason)},"attempt":${h.attempt},"event":${h.json}}`

export class DeadLetter {
  /** @type {Map<string, HeldEvent>} */ #held = new Map()
  /** @type {Promise<void>|null} */ #opening = null
  #nextDueAt = Infinity

  /** @param {string} path @param {{retryAfterMs?: number[]}} [opts] */
  constructor(path, { retryAfterMs = RETRY_AFTER_MS } = {}) {
    this.log = new AppendLog(path)
    this.retryAfterMs = retryAfterMs
  }

  /** Reads the file once; a failed open is tried again on the next call. */
  open() {
    this.#opening ??= this.log.open().then(
      (records) => {
        for (const r of records) {
          if (r.accepted) this.#held.delete(r.accepted)
          else this.#held.set(r.event.id, { id: r.event.id, json: JSON.stringify(r.event), reason: r.reason, at: r.at, attempt: r.attempt })
        }
        this.#computeNextDue()
      },
      (e) => {
        this.#opening = null
        throw e
      }
    )
    return this.#opening
  }

  /** Events rejected and not stored since. */
  get held() {
    return this.#held.size
  }

  /** Held events that will be offered again. */
  get awaitingRetry() {
    let n = 0
    for (const h of this.#held.values()) if (this.#dueAt(h) < Infinity) n++
    return n
  }

  /**
   * Keeps events from the queue that the Worker rejected; resolves once they are on disk. An id already
   * held is skipped: it is the same event re-sent after a crash, and its line is already there.
   * @param {Rejection[]} rejections @param {number} at
   */
  async keep(rejections, at) {
    await this.#write(
      rejections.filter((r) => !this.#held.has(r.id)).map((r) => ({ ...r, at, attempt: 1 })),
      [],
      at
    )
  }

  /**
   * Records how a retry of held events went; resolves once on disk.
   * @param {Rejection[]} rejections  held events rejected again
   * @param {string[]} acceptedIds    held events the Worker now stored (or already had)
   * @param {number} at
   */
  async settle(rejections, acceptedIds, at) {
    const again = rejections.map((r) => ({ ...r, at, attempt: (this.#held.get(r.id)?.attempt ?? 0) + 1 }))
    await this.#write(again, acceptedIds, at)
  }

  /**
   * Held events whose next retry is due, oldest rejection first.
   * @param {number} now @param {number} max @returns {HeldEvent[]}
   */
  due(now, max) {
    if (now < this.#nextDueAt) return []
    return [...this.#held.values()]
      .filter((h) => this.#dueAt(h) <= now)
      .sort((a, b) => a.at - b.at)
      .slice(0, max)
  }

  /** @param {HeldEvent[]} held @param {string[]} acceptedIds @param {number} at */
  async #write(held, acceptedIds, at) {
    const lines = [...held.map(lineOf), ...acceptedIds.map((id) => JSON.stringify({ at, accepted: id }))]
    if (lines.length === 0) return
    await this.log.appendLine(lines.join('\n')) // one write and one fdatasync; a torn tail is dropped on open
    for (const h of held) this.#held.set(h.id, h)
    for (const id of acceptedIds) this.#held.delete(id)
    this.#computeNextDue()
  }

  /** @param {HeldEvent} h */
  #dueAt(h) {
    const delay = this.retryAfterMs[h.attempt - 1]
    return delay === undefined ? Infinity : h.at + delay
  }

  #computeNextDue() {
    this.#nextDueAt = Infinity
    for (const h of this.#held.values()) this.#nextDueAt = Math.min(this.#nextDueAt, this.#dueAt(h))
  }

  close() {
    return this.log.close()
  }
}
