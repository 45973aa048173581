/**
 * Board presence for the console (decision 0113): a `board.presence` event when a board connects to
 * or disconnects from this instance, and one `gateway.started` when the instance starts, so boards
 * it had before a crash are not left online. They travel in the durable event queue like board
 * events, so a console outage delays them but loses none, and they arrive in the order they happened.
 */
import { gatewayEventId } from './ids.js'
import { EventQueue } from '../store/event-queue.js'

export class Presence {
  #n = 0

  /**
   * @param {{gateway: import('../gateway.js').Gateway, log: import('../log.js').Logger, clock?: () => number}} opts
   *   clock: wall-clock time of connects and disconnects (not the decision clock tests fix)
   */
  constructor({ gateway, log, clock = Date.now }) {
    this.gateway = gateway
    this.log = log
    this.clock = clock
    this.startedAt = clock()
  }

  /** Queued before any board can connect. */
  started() {
    const gw = this.gateway
    const at = this.startedAt
    return gw.storeEvent(EventQueue.prepare(/** @type {any} */ ({ id: gatewayEventId(`start.${at}`), type: 'gateway.started', at, receivedAt: at, gatewayId: gw.opts.gatewayId, data: {} })))
  }

  /** @param {string} boardId @param {boolean} online */
  changed(boardId, online) {
    const at = this.clock()
    const ev = { id: gatewayEventId(`prs.${this.startedAt}.${++this.#n}`), type: 'board.presence', at, data: { online } }
    this.gateway.recordEvent(boardId, ev).catch((e) => this.log.error('could not queue board presence', { boardId, online, error: e.message }))
  }
}
