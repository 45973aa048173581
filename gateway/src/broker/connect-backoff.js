/**
 * Back-off for failed CONNECTs, per source address and per board id (decision 0110).
 *
 * Each key (an address, a board id) may fail `free` times; every failure after that refuses the key
 * for `baseMs`, doubling with each further failure up to `maxMs`. While a key is refused, a CONNECT
 * is answered at once (CONNACK 3, server unavailable) without looking at its secret, so neither
 * guessing nor a storm costs the gateway more than reading the packet. Failures are forgotten
 * `forgetMs` after the last one; a board id's count is cleared by its next successful CONNECT.
 *
 * Attempts refused while blocked are not failures: a board whose id someone else is hammering from
 * an address already blocked gets no longer wait for it, and its own retries do not extend the wait.
 */
export const DEFAULT_BACKOFF = {
  address: { free: 10, baseMs: 1_000, maxMs: 300_000 },
  board: { free: 5, baseMs: 1_000, maxMs: 60_000 },
  forgetMs: 15 * 60_000,
  maxEntries: 100_000
}

class Tracker {
  /** @type {Map<string, {failures: number, last: number, until: number}>} */
  #entries = new Map()

  /** @param {{free: number, baseMs: number, maxMs: number}} limits @param {number} forgetMs @param {number} maxEntries */
  constructor({ free, baseMs, maxMs }, forgetMs, maxEntries) {
    this.free = free
    this.baseMs = baseMs
    this.maxMs = maxMs
    this.forgetMs = forgetMs
    this.maxEntries = maxEntries
  }

  /** ms left to wait for `key`, 0 when it may try */
  wait(key, now) {
    const e = this.#entries.get(key)
    if (!e) return 0
    if (now - e.last > this.forgetMs) {
      this.#entries.delete(key)
      return 0
    }
    return Math.max(0, e.until - now)
  }

  fail(key, now) {
    let e = this.#entries.get(key)
    if (!e || now - e.last > this.forgetMs) {
      if (e) this.#entries.delete(key)
      if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value)
      e = { failures: 0, last: now, until: 0 }
      this.#entries.set(key, e)
    }
    e.failures++
    e.last = now
    const over = e.failures - this.free
    if (over > 0) e.until = now + Math.min(this.maxMs, this.baseMs * 2 ** Math.min(over - 1, 30))
  }

  clear(key) {
    this.#entries.delete(key)
  }
  get size() {
    return this.#entries.size
  }
}

export class ConnectBackoff {
  /**
   * @param {Partial<typeof DEFAULT_BACKOFF>} [opts]
   * @param {() => number} [now] the clock (tests pass their own)
   */
  constructor(opts = {}, now = Date.now) {
    const o = { ...DEFAULT_BACKOFF, ...opts }
    this.now = now
    this.address = new Tracker({ ...DEFAULT_BACKOFF.address, ...opts.address }, o.forgetMs, o.maxEntries)
    this.board = new Tracker({ ...DEFAULT_BACKOFF.board, ...opts.board }, o.forgetMs, o.maxEntries)
    this.refused = 0
  }

  /**
   * @param {string|undefined} address @param {string|undefined} boardId
   * @returns {number} ms the CONNECT must still wait (it is refused), 0 when it may be checked
   */
  check(address, boardId) {
    const now = this.now()
    const wait = Math.max(address ? this.address.wait(address, now) : 0, boardId ? this.board.wait(boardId, now) : 0)
    if (wait > 0) this.refused++
    return wait
  }

  failed(address, boardId) {
    const now = this.now()
    if (address) this.address.fail(address, now)
    if (boardId) this.board.fail(boardId, now)
  }

  succeeded(boardId) {
    if (boardId) this.board.clear(boardId)
  }
}
