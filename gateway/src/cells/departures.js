/**
 * Boards whose device left this cell's copy: removed by the console, or its company moved to another
 * cell (decision 0053). A board connected here stops being served at once (`markLeaving`, before the
 * feed page's listeners return); then the Worker is asked where it went. A board of another cell is
 * redirected there, any other is disconnected. Either way this cell forgets it: its session, will,
 * queued messages and retained topics leave the broker's persistence. What the board already had
 * acknowledged stays in the event queue and drains to the Worker as always.
 */
import { isLeaving, markLeaving, redirectClient } from './redirect.js'

/** the retained topics of a board: the gateway's three and the board's own status */
export const RETAINED_NAMES = ['config', 'schedule', 'fw/offer', 'status']

export class Departures {
  /** @type {Set<Promise<void>>} */ #running = new Set()
  /** connected boards sent to their new cell */
  redirected = 0

  /**
   * @param {object} deps
   * @param {Pick<import('./placement.js').CellPlacement, 'place'>} deps.placement
   * @param {(boardId: string) => import('aedes').Client|undefined} deps.clientOf the board's connection to this instance
   * @param {(boardId: string) => boolean} deps.holds whether this cell's copy has the board's device (again)
   * @param {(boardId: string) => Promise<void>} deps.forget removes the board's session and retained topics
   * @param {import('../log.js').Logger} deps.log
   */
  constructor({ placement, clientOf, holds, forget, log }) {
    this.placement = placement
    this.clientOf = clientOf
    this.holds = holds
    this.forget = forget
    this.log = log
  }

  /** Synchronous up to its promise: the board's connection accepts nothing from here on. */
  leave(boardId) {
    const client = this.clientOf(boardId)
    if (client && !isLeaving(client)) markLeaving(client, boardId)
    const run = this.#depart(boardId, client)
      .catch((e) => this.log.error('board departure failed', { boardId, error: e.message }))
      .finally(() => this.#running.delete(run))
    this.#running.add(run)
    return run
  }

  async #depart(boardId, client) {
    // only a board connected here needs to hear where it went; the others learn it when they connect
    /** @type {import('./placement.js').Placement} */
    const p = client ? await this.placement.place(boardId, { fresh: true, wait: true }) : { where: 'unknown' }
    if (this.holds(boardId)) {
      // back in this cell's copy meanwhile (moved back, or removed and added again): only reconnect it
      client?.close()
      return
    }
    if (client && !client.closed) {
      if (p.where === 'elsewhere') {
        this.log.info('board redirected to its new cell', { boardId, cell: p.cell })
        this.redirected++
        await redirectClient(client, { boardId, cell: p.cell, mqttUrl: p.mqttUrl })
      } else {
        this.log.info('disconnecting board', { boardId, why: 'device removed' })
        client.close()
      }
    }
    await this.forget(boardId)
  }

  /** Waits for the departures under way (close, tests). */
  async settled() {
    while (this.#running.size) await Promise.all(this.#running)
  }
}
