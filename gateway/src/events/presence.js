/**
 * Board presence for the console (decision 0113): a `board.presence` event when a board connects to
 * or disconnects from this instance, and one `gateway.started` when the instance starts, so boards
 * it had before a crash are not left online. Boards' clock readings (`board.clock`, board-clocks.js)
 * travel the same way. They have their own durable queue and forwarder
 * (`DATA_DIR/presence/`), built like the board events' ones: a console outage delays them but loses
 * none, they arrive in the order they happened, and board events never wait behind them.
 */
import { join } from 'node:path'
import { gatewayEventId } from './ids.js'
import { EventQueue } from '../store/event-queue.js'
import { Forwarder } from './forwarder.js'

export class Presence {
  #n = 0
  /** @type {Forwarder|null} */ forwarder = null

  /**
   * @param {{dataDir: string, gatewayId: string, worker: import('../sync/worker-client.js').WorkerClient,
   *   log: import('../log.js').Logger, clock?: () => number}} opts
   *   clock: wall-clock time of connects and disconnects (not the decision clock tests fix)
   */
  constructor({ dataDir, gatewayId, worker, log, clock = Date.now }) {
    this.dir = join(dataDir, 'presence')
    this.gatewayId = gatewayId
    this.worker = worker
    this.log = log
    this.clock = clock
    this.queue = new EventQueue(this.dir)
  }

  /** Opens the queue and records the start; called before any board can connect. */
  async open() {
    await this.queue.open()
    const at = (this.startedAt = this.clock())
    await this.#store({ id: gatewayEventId(`start.${at}`), type: 'gateway.started', at, receivedAt: at, gatewayId: this.gatewayId, data: {} })
    this.forwarder = new Forwarder({ queue: this.queue, worker: this.worker, gatewayId: this.gatewayId, log: this.log, dataDir: this.dir }).start()
  }

  /** @param {string} boardId @param {boolean} online */
  changed(boardId, online) {
    const at = this.clock()
    const id = `${boardId}/${gatewayEventId(`prs.${this.startedAt}.${++this.#n}`)}`
    this.#store({ id, deviceId: boardId, type: 'board.presence', at, receivedAt: at, gatewayId: this.gatewayId, data: { online } }).catch((e) =>
      this.log.error('could not queue board presence', { boardId, online, error: e.message })
    )
  }

  /**
   * A board's clock reading (board-clocks.js): drift against this gateway's clock and its zone data.
   * @param {string} boardId @param {{driftMs: number|null, tzdata: string|null, coreTzdata: string}} data @param {number} at
   */
  clockReading(boardId, data, at) {
    const id = `${boardId}/${gatewayEventId(`clk.${this.startedAt}.${++this.#n}`)}`
    this.#store({ id, deviceId: boardId, type: 'board.clock', at, receivedAt: at, gatewayId: this.gatewayId, data }).catch((e) =>
      this.log.error('could not queue board clock', { boardId, error: e.message })
    )
  }

  /** @param {object} event */
  async #store(event) {
    await this.queue.pushPrepared(EventQueue.prepare(/** @type {any} */ (event)))
    this.forwarder?.poke()
  }

  /** Stops sending; the queue stays open for the disconnects the broker's shutdown reports. */
  stop() {
    return this.forwarder?.stop()
  }

  close() {
    return this.queue.close()
  }
}
