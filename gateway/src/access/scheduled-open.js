/**
 * Scheduled-open state for boards (PROTOCOL.md "scheduled-open state"). Each company's window is
 * re-evaluated at its next change as the core computes it (so doors open on the minute), and at least
 * every `intervalMs`; the state is re-published (retained) to the company's boards when it changes.
 * First-person-in: the first authorized entry inside today's hours sets `firstEntryAt`, which opens
 * the door for the rest of the day's opening.
 */
import { isOpen, nextChange } from './core.js'
import { gatewayEventId } from '../events/ids.js'

/**
 * The company schedule a door follows: none for a door opted out (`scheduleOpen: false`) or not in
 * service (`active: false`, in stock or retired). The console applies the same rule.
 * @param {import('../store/replica.js').Replica} replica
 * @param {any} device
 */
export function scheduleOfDoor(replica, device) {
  return device && device.active !== false && device.scheduleOpen !== false ? replica.index.scheduleByCompany.get(device.companyId) : undefined
}

export class ScheduledOpen {
  /** @type {Map<string, string>} last published state per board, to publish only changes */
  #last = new Map()
  #timer = null

  /**
   * @param {{replica: import('../store/replica.js').Replica,
   *   publishRetained: (topicName: string, boardId: string, msg: object|null) => Promise<void>,
   *   recordEvent: (boardId: string, event: object) => Promise<unknown>,
   *   log: import('../log.js').Logger, intervalMs?: number, now?: () => number}} opts  `now`: the clock (tests fix it)
   */
  constructor({ replica, publishRetained, recordEvent, log, intervalMs = 15_000, now = Date.now }) {
    this.replica = replica
    this.publishRetained = publishRetained
    this.recordEvent = recordEvent
    this.log = log
    this.intervalMs = intervalMs
    this.now = now
  }

  start() {
    this.#schedule(this.now())
    return this
  }

  #schedule(now) {
    let next = now + this.intervalMs
    for (const s of this.replica.index.scheduleByCompany.values()) next = Math.min(next, nextChange(s.window, now) ?? next)
    this.#timer = setTimeout(
      async () => {
        await this.refreshAll(this.now()).catch((e) => this.log.error('schedule refresh failed', { error: e.message }))
        if (this.#timer) this.#schedule(this.now())
      },
      Math.max(10, next - now + 5)
    )
    this.#timer.unref()
  }

  stop() {
    clearTimeout(this.#timer)
    this.#timer = null
  }

  /** Publishes every board's state that changed since the last call. */
  async refreshAll(now = this.now()) {
    for (const device of this.replica.all('device')) await this.refresh(device.id, now)
  }

  #scheduleOf(device) {
    return scheduleOfDoor(this.replica, device)
  }

  async refresh(deviceId, now = this.now()) {
    const device = this.replica.get('device', deviceId)
    const schedule = this.#scheduleOf(device)
    let msg = null
    if (schedule) {
      let open = false
      try {
        open = isOpen(schedule.window, now)
      } catch (e) {
        this.log.warn('invalid scheduled-open window', { companyId: device.companyId, error: e.message })
      }
      msg = { v: 1, open, fpi: Boolean(schedule.window.fpi), firstEntryAt: schedule.window.firstEntryAt ?? null, window: schedule.window }
    }
    const key = JSON.stringify(msg)
    if (this.#last.get(deviceId) === key) return
    this.#last.set(deviceId, key)
    await this.publishRetained('schedule', deviceId, msg && { ...msg, at: now })
  }

  /**
   * Called on every granted access. Inside today's hours with first-person-in still waiting, this
   * entry is the first one: record it locally, tell the console, and open the company's doors.
   */
  async onGranted(deviceId, now) {
    const device = this.replica.get('device', deviceId)
    const schedule = this.#scheduleOf(device)
    if (!schedule?.window.fpi) return
    try {
      if (isOpen(schedule.window, now) || !isOpen({ ...schedule.window, fpi: false }, now)) return
    } catch {
      return
    }
    const window = { ...schedule.window, firstEntryAt: now }
    await this.replica.applyLocal({ type: 'scheduledOpen', op: 'upsert', id: schedule.id, data: { ...schedule, window } })
    await this.recordEvent(deviceId, {
      id: gatewayEventId(`fpi.${schedule.id}.${now}`),
      type: 'schedule.firstEntry',
      at: now,
      data: { scheduledOpenId: schedule.id, companyId: device.companyId, firstEntryAt: now }
    })
    for (const d of this.replica.index.devicesByCompany.get(device.companyId) ?? []) await this.refresh(d.id, now)
  }
}
