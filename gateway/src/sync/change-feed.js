/**
 * Follows the Worker's change feed into the replica. The cursor is stored with each applied page,
 * so after any downtime the feed resumes exactly where it stopped. A 410 means the Worker no longer
 * has history back to our cursor: start over from a full snapshot (`reset`).
 *
 * A snapshot comes in pages too. Each goes to disk as it arrives, beside the copy decisions read, and
 * the snapshot replaces that copy in one step once the last is in: decisions never run on half a
 * snapshot, and a snapshot cut short leaves the previous copy in place.
 */
import { backoff } from '../util/backoff.js'

export class ChangeFeed {
  #stopped = false
  #wake = null
  #again = false
  #running = null
  #chain = Promise.resolve()

  /**
   * @param {{replica: import('../store/replica.js').Replica, worker: import('./worker-client.js').WorkerClient,
   *   log: import('../log.js').Logger, intervalMs?: number, pageSize?: number}} opts
   */
  constructor({ replica, worker, log, intervalMs = 5000, pageSize = 500 }) {
    this.replica = replica
    this.worker = worker
    this.log = log
    this.intervalMs = intervalMs
    this.pageSize = pageSize
  }

  start() {
    this.#running = this.#loop()
    return this
  }

  /**
   * Reads the feed now rather than at the next interval (the console's wake-up, feed-wake.js). During a
   * read, one more follows it at once: the change may have landed after that read's last page.
   */
  wake() {
    this.#again = true
    this.#wake?.()
  }

  /** Fetches pages until the feed says there is no more. Calls queue up, so pages apply once, in order. */
  syncOnce() {
    const run = this.#chain.then(() => this.#sync())
    this.#chain = run.catch(() => {})
    return run
  }

  async #sync() {
    let cursor = this.replica.cursor
    /** @type {Awaited<ReturnType<import('../store/replica.js').Replica['beginSnapshot']>>|null} a snapshot being paged */
    let snapshot = null
    for (;;) {
      let page
      try {
        page = await this.worker.changes(cursor, this.pageSize)
      } catch (e) {
        if (e.status !== 410) throw e
        this.log.warn('cursor expired, resyncing from a snapshot', { cursor })
        page = await this.worker.changes(null, this.pageSize)
      }
      cursor = page.cursor
      if (page.reset) snapshot = await this.replica.beginSnapshot()
      if (snapshot) {
        await snapshot.add(page.changes)
        if (page.more) continue
        await snapshot.commit(cursor)
        snapshot = null
        continue // what changed while the snapshot was paged follows from its cursor
      }
      if (page.changes.length > 0 || cursor !== this.replica.cursor) await this.replica.applyPage(page)
      if (!page.more) break
    }
  }

  async #loop() {
    let failures = 0
    while (!this.#stopped) {
      this.#again = false
      try {
        await this.syncOnce()
        failures = 0
      } catch (e) {
        failures++
        this.log.warn('change feed unavailable', { error: e.message, failures })
      }
      if (this.#stopped) break
      if (this.#again && !failures) continue
      await new Promise((resolve) => {
        const t = setTimeout(resolve, failures ? backoff(failures) : this.intervalMs)
        this.#wake = () => {
          clearTimeout(t)
          resolve()
        }
      })
      this.#wake = null
    }
  }

  async stop() {
    this.#stopped = true
    this.#wake?.()
    await this.#running
  }
}
