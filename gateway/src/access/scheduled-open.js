/**
 * Scheduled-open state for boards (PROTOCOL.md "scheduled-open state"). Each company's window is
 * re-evaluated at its next change as the core computes it (so doors open on the minute), at a lockdown's
 * automatic end, and at least every `intervalMs`; the state is re-published (retained) to the company's
 * boards when it changes. First-person-in: the first authorized entry inside today's hours sets
 * `firstEntryAt`, which opens the door for the rest of the day's opening. A lockdown ends the hold-open
 * and an evacuation holds its doors open (decision 0087).
 */
import { isOpen, nextChange } from './core.js'
import { lockdownAt } from './lockdown.js'
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

/**
 * Whether the door is held unlocked at `now` (decision 0087): during an evacuation covering it, yes; during a
 * lockdown covering it, no; otherwise as its company's hours say. Only a door in service of a live company.
 * The console decides the same (app/services/door-decision.server.ts `heldOpen`).
 * @param {import('../store/replica.js').Replica} replica
 * @param {any} device
 * @param {number} now
 * @param {ReturnType<typeof lockdownAt>} [lockdown] the door's lockdown at `now`, when the caller has it already
 */
export function heldOpenAt(replica, device, now, lockdown = device ? lockdownAt(replica, device, now) : null) {
  if (!device || device.active === false || replica.get('company', device.companyId)?.active === false) return false
  if (lockdown) return lockdown.mode === 'evacuation'
  const schedule = scheduleOfDoor(replica, device)
  return Boolean(schedule) && isOpen(schedule.window, now)
}

export class ScheduledOpen {
  /** @type {Map<string, string>} last published state per board, to publish only changes */
  #last = new Map()
  #timer = null

  /**
   * @param {{replica: import('../store/replica.js').Replica,
   *   publishRetained: (topicName: string, boardId: string, msg: object|null, content?: object|null) => Promise<void>,
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
    // a lockdown's automatic end, on this gateway's clock: the doors follow their hours again at once
    for (const l of this.replica.all('lockdown')) if (l.active && l.endsAt != null && l.endsAt > now) next = Math.min(next, l.endsAt)
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

  /** Re-plans the next re-evaluation now (a lockdown arrived whose automatic end may come sooner). */
  rearm() {
    if (!this.#timer) return
    clearTimeout(this.#timer)
    this.#schedule(this.now())
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
    const lockdown = device && device.active !== false ? lockdownAt(this.replica, device, now) : null
    let msg = null
    if (schedule || lockdown) {
      let open = false
      try {
        open = heldOpenAt(this.replica, device, now, lockdown)
      } catch (e) {
        this.log.warn('invalid scheduled-open window', { companyId: device.companyId, error: e.message })
      }
      msg = {
        v: 1,
        open,
        fpi: Boolean(schedule?.window.fpi),
        firstEntryAt: schedule?.window.firstEntryAt ?? null,
        window: schedule?.window ?? null,
        // Boards hold `open` until the lockdown's end instead of evaluating `window` themselves (PROTOCOL.md).
        ...(lockdown && { lockdown: { mode: lockdown.mode, endsAt: lockdown.endsAt ?? null } })
      }
    }
    const key = JSON.stringify(msg)
    if (this.#last.get(deviceId) === key) return
    this.#last.set(deviceId, key)
    // The same state computed later (by a restarted gateway, or another of the cell) is the same
    // content: the retained message keeps the `at` of its first publish, and a cell publishes it once.
    await this.publishRetained('schedule', deviceId, msg && { ...msg, at: now }, msg)
  }

  /**
   * Called on every granted access. Inside today's hours with first-person-in still waiting, this
   * entry is the first one: record it locally, tell the console, and open the company's doors. An entry
   * at a door under a lockdown or evacuation is not one (decision 0087): it says nothing of staff arriving.
   */
  async onGranted(deviceId, now) {
    const device = this.replica.get('device', deviceId)
    const schedule = this.#scheduleOf(device)
    if (!schedule?.window.fpi || lockdownAt(this.replica, device, now)) return
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
