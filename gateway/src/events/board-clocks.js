/**
 * Board clocks and zone data (PROTOCOL.md "status"; decision 0092). A board's status carries its clock
 * (`clock`, epoch ms) and the tz database version it decides with (`tzdata`); boards send it on every
 * connect and then every `statusMs` of their configuration. As each status arrives the gateway compares
 * them with its own wall clock and the core's zone data: a clock more than DRIFT_FLAG_MS off, or zone
 * data older than the core's (which decides DST wrongly after a rule change), is flagged. A drifted
 * board is answered with the gateway's time on `boards/{id}/time`.
 *
 * The console hears a board's reading (`board.clock`, queued with presence) on the first status of a
 * connection and whenever a flag, the zone data or the drift (by more than REPORT_STEP_MS) changes, so
 * a fleet of steady boards sends nothing between connects.
 */
import core from '../../../core-wasm/pkg/node.js'

/** A clock this far from the gateway's is flagged (and set). */
export const DRIFT_FLAG_MS = 30_000
/** A drift that moved less than this since the last report is not reported again. */
const REPORT_STEP_MS = 5_000

/**
 * IANA versions read as a year and letters ("2025b"): older sorts first by year, then by the letters'
 * length ("z" before "aa"), then alphabetically.
 * @param {string} a @param {string} b
 */
export function olderZoneData(a, b) {
  const [ya, la] = [a.slice(0, 4), a.slice(4)]
  const [yb, lb] = [b.slice(0, 4), b.slice(4)]
  if (ya !== yb) return ya < yb
  if (la.length !== lb.length) return la.length < lb.length
  return la < lb
}

export class BoardClocks {
  /** @type {Map<string, {driftMs: number|null, tzdata: string|null, drifted: boolean, staleZones: boolean}>} */
  #last = new Map()

  /**
   * @param {{presence: Pick<import('./presence.js').Presence, 'clockReading'>, log: import('../log.js').Logger,
   *   clock?: () => number, tzdata?: string}} opts
   *   clock: the gateway's wall clock (not the decision clock tests fix); tzdata: the core's zone data version
   */
  constructor({ presence, log, clock = Date.now, tzdata = core.tzdataVersion() }) {
    this.presence = presence
    this.log = log
    this.clock = clock
    this.tzdata = tzdata
  }

  /**
   * Reads one status. Returns the gateway's time when the board should be sent it, else null.
   * @param {string} boardId @param {{online: boolean, clock?: number, tzdata?: string}} status
   * @returns {number|null}
   */
  note(boardId, status) {
    if (!status.online || (status.clock === undefined && status.tzdata === undefined)) return null
    const at = this.clock()
    const driftMs = status.clock === undefined ? null : status.clock - at
    const tzdata = status.tzdata ?? null
    const reading = { driftMs, tzdata, drifted: driftMs !== null && Math.abs(driftMs) > DRIFT_FLAG_MS, staleZones: tzdata !== null && olderZoneData(tzdata, this.tzdata) }
    const prev = this.#last.get(boardId)
    const moved =
      !prev ||
      prev.drifted !== reading.drifted ||
      prev.staleZones !== reading.staleZones ||
      prev.tzdata !== tzdata ||
      (prev.driftMs === null) !== (driftMs === null) ||
      Math.abs((prev.driftMs ?? 0) - (driftMs ?? 0)) > REPORT_STEP_MS
    if (moved) {
      this.#last.set(boardId, reading)
      this.presence.clockReading(boardId, { driftMs, tzdata, coreTzdata: this.tzdata }, at)
      if (reading.drifted) this.log.warn('board clock drifted', { boardId, driftMs })
      if (reading.staleZones) this.log.warn('board zone data older than the core', { boardId, tzdata, core: this.tzdata })
    }
    return reading.drifted ? at : null
  }

  /** What the board's last reported status showed, while it is connected. */
  reading(boardId) {
    return this.#last.get(boardId) ?? null
  }

  /** The board's connection closed: its next connection reports afresh. */
  forget(boardId) {
    this.#last.delete(boardId)
  }
}
