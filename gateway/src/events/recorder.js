/**
 * Board and gateway-made events into the durable queue, waking the forwarder. Two steps for callers
 * that must not answer before an event can be stored: `prepare` serializes (and throws) first,
 * `store` writes; `record` does both.
 */
import { EventQueue } from '../store/event-queue.js'

export class EventRecorder {
  /**
   * @param {object} deps
   * @param {EventQueue} deps.queue
   * @param {string} deps.gatewayId the events' source
   * @param {() => void} deps.stored called after each write (wakes the forwarder)
   */
  constructor({ queue, gatewayId, stored }) {
    this.queue = queue
    this.gatewayId = gatewayId
    this.stored = stored
  }

  /**
   * Stores a board (or gateway-made) event durably and wakes the forwarder.
   * @param {string} boardId
   * @param {{id: string, type: string, at: number, data: object}} ev  id unique per board
   */
  record(boardId, ev) {
    return this.store(this.prepare(boardId, ev))
  }

  /**
   * The queue record of an event, serialized: throws when it cannot be, before anything is answered.
   * `ev.id` is the board's event id, or a gateway id from `gatewayEventId` (src/events/ids.js).
   */
  prepare(boardId, ev) {
    return EventQueue.prepare({
      id: `${boardId}/${ev.id}`,
      deviceId: boardId,
      type: ev.type,
      at: ev.at,
      receivedAt: Date.now(),
      gatewayId: this.gatewayId,
      data: ev.data ?? {}
    })
  }

  /** Stores a prepared event durably and wakes the forwarder. */
  async store(prepared) {
    const stored = await this.queue.pushPrepared(prepared)
    this.stored()
    return stored
  }
}
