/**
 * Where a board belongs when this cell's copy does not have its device: asks the Worker
 * (`GET /api/gateway/devices/{id}/cell`, docs/gateway-api.md), bounded so that many unknown boards
 * cannot flood it (decision 0053). Answers are cached per device id for a while, lookups of the same
 * id share one request, and at most `maxInFlight` requests run at once: a CONNECT past that is told
 * to come back later (CONNACK 3) without a lookup, while the departures of a company's connected
 * boards wait their turn.
 */

/**
 * @typedef {{where: 'elsewhere', cell: string, mqttUrl: string}
 *   | {where: 'here'} | {where: 'unknown'} | {where: 'busy'} | {where: 'unavailable'}} Placement
 *   here: the console places it in this cell, whose copy has not caught up yet; or this copy has not yet
 *   learned its own cell (the feed's `cell` record, on its first page), so it cannot tell: behind, either way
 */

export const PLACEMENT_DEFAULTS = {
  /** how long an answer naming another cell, or no device, is reused */
  cacheMs: 60_000,
  /** how long "this cell" is reused: the feed brings the device soon */
  hereMs: 2_000,
  maxEntries: 10_000,
  maxInFlight: 8
}

export class CellPlacement {
  /** @type {Map<string, {placement: Placement, until: number}>} */ #cache = new Map()
  /** @type {Map<string, Promise<Placement>>} */ #inFlight = new Map()
  /** @type {(() => void)[]} lookups waiting for a free slot */ #waiting = []
  lookups = 0
  refusedBusy = 0

  /**
   * @param {object} deps
   * @param {Pick<import('../sync/worker-client.js').WorkerClient, 'deviceCell'>} deps.worker
   * @param {() => string|undefined} deps.ownCell this gateway's cell, from the feed's `cell` record
   * @param {import('../log.js').Logger} deps.log
   * @param {Partial<typeof PLACEMENT_DEFAULTS>} [deps.limits]
   * @param {() => number} [deps.now]
   */
  constructor({ worker, ownCell, log, limits = {}, now = Date.now }) {
    this.worker = worker
    this.ownCell = ownCell
    this.log = log
    this.limits = { ...PLACEMENT_DEFAULTS, ...limits }
    this.now = now
  }

  /**
   * @param {string} deviceId
   * @param {{fresh?: boolean, wait?: boolean}} [opts] fresh: ask the Worker even when an answer is cached
   *   (a device that just left); wait: for a free slot rather than answer `busy`
   * @returns {Promise<Placement>}
   */
  async place(deviceId, { fresh = false, wait = false } = {}) {
    const cached = this.#cache.get(deviceId)
    if (cached && !fresh && cached.until > this.now()) return cached.placement
    for (;;) {
      const running = this.#inFlight.get(deviceId)
      if (running) return running
      if (this.#inFlight.size < this.limits.maxInFlight) break
      if (!wait) {
        this.refusedBusy++
        return { where: 'busy' }
      }
      await new Promise((resolve) => this.#waiting.push(() => resolve(undefined)))
    }
    const lookup = this.#lookup(deviceId).finally(() => {
      this.#inFlight.delete(deviceId)
      this.#waiting.shift()?.()
    })
    this.#inFlight.set(deviceId, lookup)
    return lookup
  }

  /** @returns {Promise<Placement>} */
  async #lookup(deviceId) {
    this.lookups++
    let found
    try {
      found = await this.worker.deviceCell(deviceId)
    } catch (e) {
      this.log.warn('cell lookup failed', { deviceId, error: e.message })
      return { where: 'unavailable' }
    }
    const own = this.ownCell()
    // A gateway that just started has no cell until its first feed page: a board of any cell waits for it,
    // rather than be sent to the cell the console names, which may be this one.
    /** @type {Placement} */
    const placement = !found ? { where: 'unknown' } : own === undefined || found.cell === own ? { where: 'here' } : { where: 'elsewhere', ...found }
    this.#remember(deviceId, placement)
    return placement
  }

  #remember(deviceId, placement) {
    this.#cache.delete(deviceId)
    if (this.#cache.size >= this.limits.maxEntries) this.#cache.delete(this.#cache.keys().next().value)
    this.#cache.set(deviceId, { placement, until: this.now() + (placement.where === 'here' ? this.limits.hereMs : this.limits.cacheMs) })
  }

  /** A device this cell now holds is no longer "elsewhere". */
  forget(deviceId) {
    this.#cache.delete(deviceId)
  }
}
