/**
 * Firmware offers, block serving and per-board progress (PROTOCOL.md "firmware").
 *
 * The company's policy decides whether a board may have its type's active release at all (decision
 * 0116): when its company record says `forceFirmware`, every board of the company may; otherwise only a
 * board whose device record names that release in `firmwareStart` (an allowed user started it in the
 * console or the phone app). A company record without the field (an older console) counts as forcing,
 * as every release was offered before the policy existed. Forced offers also wait for the company's
 * install window in the door's zone, and a staged rollout decides which release a board is offered
 * (decision 0094; see `releaseFor`).
 * The active release of a device type is offered (retained) to each board of that type once the board
 * has reported, in its `status` on this connection, a firmware version other than the release's: a
 * board is never offered the version it runs, so it does not install it again and again. Until its
 * status arrives the gateway leaves the board's offer as it is. A board asks
 * for blocks with a bitmap of what it still lacks; only blocks whose bit is set are ever sent, so a
 * resumed download never receives a finished block again. Progress is reported to the console as
 * `firmware.progress` events at every 10 % step reached, with ids that make a repeat harmless.
 */
import { gatewayEventId } from '../events/ids.js'
import { admitted } from './rollout-plan.js'
import { isOpen } from '../access/core.js'

export const BLOCK_SIZE = 4096

/** Block frame of PROTOCOL.md: [1][index u32 BE][id length u8][id][bytes]. */
export function encodeBlock(releaseId, index, bytes) {
  const id = Buffer.from(releaseId)
  const head = Buffer.alloc(6)
  head[0] = 1
  head.writeUInt32BE(index, 1)
  head[5] = id.length
  return Buffer.concat([head, id, bytes])
}

/** @param {Buffer} frame */
export function decodeBlock(frame) {
  if (frame.length < 6 || frame[0] !== 1) return null
  const n = frame[5]
  return { index: frame.readUInt32BE(1), releaseId: frame.subarray(6, 6 + n).toString(), bytes: frame.subarray(6 + n) }
}

export class FirmwareDelivery {
  /** @type {Map<string, {releaseId: string, attempt: number, step: number, received: number, blocks: number}>} */ progress = new Map()
  /** blocks sent per board and release, for tests and metrics */
  sent = new Map()
  /** @type {Map<string, {timer: NodeJS.Timeout, attempt: number}>} releases whose image could not be had yet */
  #retries = new Map()
  /**
   * What each connected board reported in its latest `status`: its installed version (null when the
   * status named none) and the connection it came on, so a stale disconnect does not forget a newer one.
   * @type {Map<string, {fw: string|null, client: object}>}
   */
  #installed = new Map()

  /**
   * @param {{replica: import('../store/replica.js').Replica, images: import('./image-cache.js').ImageCache,
   *   publishRetained: (topicName: string, boardId: string, msg: object|null) => Promise<void>,
   *   recordEvent: (boardId: string, event: {id: string, type: string, at: number, data: object}) => Promise<unknown>,
   *   log: import('../log.js').Logger, blockSize?: number, retryMs?: number, windowCheckMs?: number, now?: () => number}} opts
   *   retryMs: first wait before trying again to fetch an image that could not be had (doubles, ≤ 10 min);
   *   windowCheckMs: how often install windows and rollout opt-outs are re-read; now: the clock they are read by
   */
  constructor({ replica, images, publishRetained, recordEvent, log, blockSize = BLOCK_SIZE, retryMs = 30_000, windowCheckMs = 60_000, now = Date.now }) {
    this.replica = replica
    this.images = images
    this.publishRetained = publishRetained
    this.recordEvent = recordEvent
    this.log = log
    this.blockSize = blockSize
    this.retryMs = retryMs
    this.windowCheckMs = windowCheckMs
    this.now = now
  }

  /** What each board was last offered, as `release|allowed`: a window or opt-out date passing changes it. */
  #gate = new Map()
  /** @type {NodeJS.Timeout|undefined} */ #windowTimer
  /** Install windows as core windows, per company record and zone (the core caches by object). */
  #windows = new WeakMap()

  /** Re-reads install windows and rollout opt-outs every `windowCheckMs`: they open and close with the clock, not the feed. */
  start() {
    this.#windowTimer = setInterval(() => this.recheck().catch((e) => this.log.error('firmware window check failed', { error: e.message })), this.windowCheckMs)
    this.#windowTimer.unref()
  }

  /** Offers again to each board of a company with a window or an opt-out whose gate changed since its last offer. */
  async recheck() {
    for (const company of this.replica.all('company')) {
      if (!company.firmwareWindow && !company.rolloutDeferredUntil) continue
      for (const d of this.replica.index.devicesByCompany.get(company.id) ?? []) {
        if (this.#gate.has(d.id) && this.#gate.get(d.id) !== this.#gateOf(d.id)) await this.offer(d.id)
      }
    }
  }

  #gateOf(deviceId) {
    const release = this.releaseFor(deviceId)
    return `${release?.id ?? ''}|${release ? this.#allowed(deviceId, release) : ''}`
  }

  /** Whether the company's install window is open now at the door, in the door's zone; no window: always. */
  #inWindow(company, device) {
    const w = company?.firmwareWindow
    if (!w) return true
    let byZone = this.#windows.get(company)
    if (!byZone) this.#windows.set(company, (byZone = new Map()))
    if (!byZone.has(device.tz)) {
      byZone.set(device.tz, {
        kind: 'ekey',
        access: 'custom',
        tz: device.tz,
        startDate: '2000-01-01',
        endDate: null,
        days: Array(7).fill(true),
        allDay: false,
        startTime: w.start,
        endTime: w.end,
        used: false
      })
    }
    try {
      return isOpen(byZone.get(device.tz), this.now())
    } catch {
      return true // a window the core cannot read holds nothing back (the console checks it when it is saved)
    }
  }

  /** Whether the company sits out staged rollouts today, in the door's zone (the date is inclusive). */
  #deferred(company, device) {
    const until = company?.rolloutDeferredUntil
    if (!until) return false
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: device.tz || 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(this.now())
    return today <= until
  }

  /**
   * The release a board should run, or undefined. While a staged rollout takes a release to the board's
   * type (decision 0094), a board of an open wave is offered that release, and nothing while the rollout
   * is paused (it keeps what it runs); a board of a wave not yet open keeps its type's active release.
   * An aborted rollout leaves the feed, so every board is offered the active release again: the rollback.
   */
  releaseFor(deviceId) {
    const device = this.replica.get('device', deviceId)
    if (!device) return undefined
    const rollout = this.replica.index.rolloutFirmwareByType.get(device.deviceType)
    const company = this.replica.get('company', device.companyId)
    if (rollout && admitted(rollout.rollout, deviceId) && !this.#deferred(company, device)) return rollout.rollout.state === 'running' ? rollout : undefined
    return this.replica.index.activeFirmwareByType.get(device.deviceType)
  }

  /**
   * Whether the company's policy lets the board have this release: started for it, or forced and inside the
   * company's install window (decision 0094) in the door's zone.
   */
  #allowed(deviceId, release) {
    const device = this.replica.get('device', deviceId)
    if (device?.firmwareStart === release.id) return true
    const company = this.replica.get('company', device?.companyId)
    return company?.forceFirmware !== false && this.#inWindow(company, device)
  }

  /**
   * A board's `status`: remembers its installed version and offers (or withdraws) the release. The
   * promise settles once the retained offer is updated, so a board that subscribes after the PUBACK of
   * its status (PROTOCOL.md, "Connection") never sees an offer of the version it runs.
   * @param {string} boardId @param {{online: boolean, fw?: string}} status @param {object} client
   */
  async noteStatus(boardId, status, client) {
    if (!status.online) return
    this.#installed.set(boardId, { fw: status.fw ?? null, client })
    const release = this.releaseFor(boardId)
    const offering = this.offer(boardId)
    // An image still to be fetched from the console must not hold up the status's PUBACK: its offer
    // follows on the board's subscription once the image is verified.
    if (release && release.version !== status.fw && !this.images.loaded(release.id)) {
      return void offering.catch((e) => this.log.error('firmware offer failed', { deviceId: boardId, error: e.message }))
    }
    await offering
  }

  /** The board's connection closed: what it reported is no longer known here. */
  forget(boardId, client) {
    if (this.#installed.get(boardId)?.client === client) this.#installed.delete(boardId)
  }

  /** The version a board reported on its current connection: a string, null (none named) or undefined (no status yet). */
  installedOn(boardId) {
    return this.#installed.get(boardId)?.fw
  }

  /**
   * Publishes, clears or leaves the retained offer of one board: cleared when its type has no active
   * release, the company's policy does not let the board have it, or the board reported that release's
   * version; left alone while the board has not reported a version on this gateway (another instance of
   * a cluster may be serving it).
   */
  async offer(deviceId) {
    this.#gate.set(deviceId, this.#gateOf(deviceId))
    const release = this.releaseFor(deviceId)
    if (!release || !this.#allowed(deviceId, release)) return this.publishRetained('fw/offer', deviceId, null)
    const reported = this.#installed.get(deviceId)
    if (!reported) return
    if (reported.fw === release.version) return this.publishRetained('fw/offer', deviceId, null)
    const img = await this.images.get(release)
    if (!img) return this.#retryLater(release) // the previous offer stays meanwhile
    this.#retries.delete(release.id)
    // While the image was fetched, a pause, an abort or a policy change may have withdrawn the offer (a
    // later call published that): what was decided before the wait must not go out after it.
    if (this.#gateOf(deviceId) !== `${release.id}|true` || this.#installed.get(deviceId)?.fw === release.version) return
    await this.publishRetained('fw/offer', deviceId, {
      v: 1,
      releaseId: release.id,
      version: release.version,
      size: release.size,
      sha256: release.sha256,
      blockSize: this.blockSize,
      blocks: Math.ceil(release.size / this.blockSize)
    })
  }

  /** Offers the release again to every board of its type once the image may be available. */
  #retryLater(release) {
    const r = this.#retries.get(release.id) ?? { timer: null, attempt: 0 }
    if (r.timer) return
    r.attempt++
    r.timer = setTimeout(
      async () => {
        r.timer = null
        for (const d of this.replica.all('device')) {
          if (d.deviceType === release.deviceType) await this.offer(d.id).catch((e) => this.log.error('firmware offer failed', { deviceId: d.id, error: e.message }))
        }
      },
      Math.min(this.retryMs * 2 ** (r.attempt - 1), 600_000)
    )
    r.timer.unref()
    this.#retries.set(release.id, r)
  }

  stop() {
    clearInterval(this.#windowTimer)
    for (const r of this.#retries.values()) clearTimeout(r.timer)
  }

  /**
   * Answers a block request. Returns the frames to send, or throws ProtocolError-worthy codes.
   * @param {string} boardId
   * @param {{releaseId: string, missing: Buffer, max: number}} req
   * @returns {Buffer[]|{error: string, message: string}}
   */
  blocksFor(boardId, req) {
    const release = this.releaseFor(boardId)
    const img = release && release.id === req.releaseId && this.#allowed(boardId, release) ? this.images.loaded(release.id) : undefined
    if (!img) return { error: 'unknown_release', message: `release ${req.releaseId} is not offered to this board` }
    const blocks = Math.ceil(img.length / this.blockSize)
    if (req.missing.length !== Math.ceil(blocks / 8)) {
      return { error: 'bad_payload', message: `missing must be a bitmap of ${blocks} bits (${Math.ceil(blocks / 8)} bytes)` }
    }
    const frames = []
    let lacking = 0
    for (let i = 0; i < blocks; i++) {
      if (!(req.missing[i >> 3] & (1 << (i & 7)))) continue
      lacking++
      if (frames.length < req.max) {
        frames.push(encodeBlock(release.id, i, img.subarray(i * this.blockSize, Math.min(img.length, (i + 1) * this.blockSize))))
      }
    }
    const key = boardId + '\0' + release.id
    this.sent.set(key, (this.sent.get(key) ?? 0) + frames.length)
    this.noteProgress(boardId, release, blocks - lacking, blocks)
    return frames
  }

  /**
   * Records progress and emits a console event when it reaches a new 10 % step. A download that starts
   * over (after a failed install, or one this gateway has not seen before) is a new attempt, named by
   * its start time, so its steps are reported again.
   */
  noteProgress(boardId, release, received, blocks) {
    const step = Math.floor((received * 10) / blocks)
    let p = this.progress.get(boardId)
    if (!p || p.releaseId !== release.id || (received === 0 && p.step > 0)) {
      p = { releaseId: release.id, attempt: Date.now(), step: -1, received, blocks }
    }
    this.progress.set(boardId, { ...p, step: Math.max(step, p.step), received, blocks })
    if (step <= p.step) return
    this.recordEvent(boardId, {
      id: gatewayEventId(`fwp.${release.id}.${p.attempt}.${step * 10}`),
      type: 'firmware.progress',
      at: Date.now(),
      data: { releaseId: release.id, version: release.version, attempt: p.attempt, received, blocks, percent: step * 10 }
    }).catch((e) => this.log.error('could not record firmware progress', { boardId, error: e.message }))
  }
}
