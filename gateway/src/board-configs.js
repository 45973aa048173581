/**
 * What each board is told, and when: its retained `config` (PROTOCOL.md), then its scheduled-open
 * state and firmware offer. Published for every board at start, again for the boards a change of the
 * console's records, of the credential keys or of a company's revocations concerns; boards deactivated
 * or given a new credential are disconnected, boards whose device left this cell's copy depart
 * (src/cells/departures.js: redirected to their new cell or disconnected, and forgotten here).
 */
import { topic } from './protocol/topics.js'
import { pageWithdrawals } from './access/revocations.js'
import { credentialHashOf } from './broker/identity.js'
import { isLeaving } from './cells/redirect.js'

/** PROTOCOL.md's revision of version 1, told to boards in their configuration. */
export const PROTOCOL_REVISION = 3

/** Boards published at once when every board is published again (at start, after a reset or a key change). */
const REPUBLISH_LANES = 32

export class BoardConfigs {
  #stopped = false
  /** @type {Set<Promise<unknown>>} publishing under way, which `stop` lets end before the broker and Redis close */ #running = new Set()
  #revocationTimer = null
  /** @type {Set<string>} companies whose boards wait for their new revocation list */ #revokedCompanies = new Set()

  /**
   * @param {object} deps
   * @param {import('./store/replica.js').Replica} deps.replica
   * @param {Pick<import('./access/credential-keys.js').CredentialKeys, 'jwks'>} deps.credentialKeys
   * @param {import('./access/revocations.js').Revocations} deps.revocations
   * @param {Pick<import('./access/scheduled-open.js').ScheduledOpen, 'refresh'|'refreshAll'|'rearm'>} deps.schedule
   * @param {Pick<import('./firmware/delivery.js').FirmwareDelivery, 'offer'>} deps.firmware
   * @param {(name: string, boardId: string, msg: object|null) => Promise<void>} deps.publishRetained
   * @param {<T>(boardIds: string[], work: () => Promise<T>) => Promise<T>} deps.withStoredRetained runs work that publishes these boards' retained topics again, in a cluster with their stored contents read at once
   * @param {(boardId: string) => import('aedes').Client|undefined} deps.clientOf the board's connection to this instance
   * @param {Pick<import('./cells/departures.js').Departures, 'leave'>} deps.departures
   * @param {(topics: string[]) => AsyncIterable<{payload: Buffer}>} deps.retained the broker's retained messages
   * @param {() => string[]} deps.connected the boards connected to this instance
   * @param {boolean} deps.cluster instances share retained messages through Redis
   * @param {number} deps.revocationDelayMs
   * @param {number} deps.statusMs the configuration's `statusMs`
   * @param {() => number} deps.now
   * @param {import('./log.js').Logger} deps.log
   */
  constructor({
    replica,
    credentialKeys,
    revocations,
    schedule,
    firmware,
    publishRetained,
    withStoredRetained,
    clientOf,
    departures,
    connected,
    retained,
    cluster,
    revocationDelayMs,
    statusMs,
    now,
    log
  }) {
    this.replica = replica
    this.credentialKeys = credentialKeys
    this.revocations = revocations
    this.schedule = schedule
    this.firmware = firmware
    this.publishRetained = publishRetained
    this.withStoredRetained = withStoredRetained
    this.clientOf = clientOf
    this.departures = departures
    this.connected = connected
    this.retained = retained
    this.cluster = cluster
    this.revocationDelayMs = revocationDelayMs
    this.now = now
    this.statusMs = statusMs
    this.log = log
  }

  /** At start, in a cluster: the revocation lists the other instances published for this copy's doors. */
  async adoptPublished() {
    if (this.cluster) await this.#adoptPublishedRevocations(this.replica.all('device').map((d) => d.id))
  }

  /** Starts nothing more, and resolves once what was being published has stopped at its current board. */
  async stop() {
    this.#stopped = true
    clearTimeout(this.#revocationTimer)
    await Promise.allSettled([...this.#running])
  }

  /** @template T @param {Promise<T>} work @returns {Promise<T>} */
  #track(work) {
    this.#running.add(work)
    work.then(
      () => this.#running.delete(work),
      () => this.#running.delete(work)
    )
    return work
  }

  async #publishDevice(deviceId) {
    if (!(await this.#publishConfig(deviceId))) return
    await this.schedule.refresh(deviceId)
    await this.firmware.offer(deviceId)
  }

  /** @returns {Promise<boolean>} whether the device exists */
  async #publishConfig(deviceId) {
    const d = this.replica.get('device', deviceId)
    if (!d) {
      await this.publishRetained('config', deviceId, null)
      return false
    }
    // the feed carries one: the cell this gateway serves and where its boards connect
    const cell = this.replica.all('cell')[0]
    await this.publishRetained('config', deviceId, {
      v: 1,
      rev: PROTOCOL_REVISION,
      deviceId: d.id,
      name: d.name,
      deviceType: d.deviceType,
      companyId: d.companyId,
      tz: d.tz,
      unlockMs: d.unlockMs ?? 5000,
      // How often the board sends its status again, so its clock and zone data are checked.
      statusMs: this.statusMs,
      // When to report door.heldOpen; absent: the door has no held-open alarm in the console.
      ...(d.heldOpenMs ? { heldOpenMs: d.heldOpenMs } : {}),
      // Its groups: a group key's credential and a group-scoped lockdown name the door by them while it is offline.
      groupIds: d.groupIds ?? [],
      // The keys that verify signed credentials, for the board to use while it is offline.
      credentialKeys: this.credentialKeys.jwks,
      // What was withdrawn since issue, for the board to refuse while it decides alone.
      revoked: this.revocations.list(d.companyId),
      // Credentials without the console-verified biometric claim are refused (PROTOCOL.md, "Signed credentials").
      biometricRequired: this.replica.get('company', d.companyId)?.biometricRequired === true,
      ...(cell ? { cell: cell.id, mqttUrl: cell.mqttUrl } : {})
    })
    return true
  }

  /** The boards of these companies get their new lists together, once the changes of a moment are in. */
  revocationsChanged(companyIds) {
    for (const c of companyIds) this.#revokedCompanies.add(c)
    if (this.#revocationTimer) return
    this.#revocationTimer = setTimeout(() => {
      this.#revocationTimer = null
      const companies = [...this.#revokedCompanies]
      this.#revokedCompanies.clear()
      this.#track(this.#publishCompanies(companies)).catch((e) => this.log.error('publishing revocations failed', { error: e.message }))
    }, this.revocationDelayMs)
    this.#revocationTimer.unref?.()
  }

  async #publishCompanies(companyIds) {
    for (const c of companyIds)
      for (const d of this.replica.index.devicesByCompany.get(c) ?? []) {
        if (this.#stopped) return
        await this.#publishConfig(d.id)
      }
  }

  /** A feed page about to be applied: its withdrawals are on disk before the page is. */
  async beforePage(page) {
    if (page.reset && this.cluster) await this.#adoptPublishedRevocations(page.changes.filter((c) => c.type === 'device' && c.op === 'upsert').map((c) => c.id))
    await this.revocations.add(pageWithdrawals(this.replica, page), this.now())
  }

  /**
   * A cluster instance with a fresh data directory takes in the lists the others published in the
   * shared retained configurations (at start, and from a snapshot's doors, which is how a fresh one
   * first learns them), so that what it publishes never drops their entries.
   * @param {string[]} deviceIds
   */
  async #adoptPublishedRevocations(deviceIds) {
    const topics = deviceIds.map((id) => topic(id, 'config'))
    if (topics.length === 0) return
    let changed = false
    for await (const packet of this.retained(topics)) {
      try {
        const config = JSON.parse(packet.payload.toString())
        if (typeof config?.companyId === 'string') changed = this.revocations.merge(config.companyId, config.revoked) || changed
      } catch {
        // an unreadable retained message has nothing to adopt
      }
    }
    if (changed) await this.revocations.save()
  }

  republishAll() {
    return this.#track(this.#republishAll())
  }

  async #republishAll() {
    // In a cluster every publish waits for Redis (the claim, then the store): a few boards at a time keep
    // those round trips overlapping instead of one after another (gateway/README.md, "Fleet").
    const devices = this.replica.all('device')
    let next = 0
    let failed
    const lane = async () => {
      while (next < devices.length && !this.#stopped && !failed) {
        try {
          await this.#publishDevice(devices[next++].id)
        } catch (e) {
          failed ??= e
        }
      }
    }
    await this.withStoredRetained(
      devices.map((d) => d.id),
      () => Promise.all(Array.from({ length: REPUBLISH_LANES }, lane))
    )
    if (failed) throw failed
  }

  onReplicaChange(changes, reset) {
    return this.#track(this.#onReplicaChange(changes, reset))
  }

  async #onReplicaChange(changes, reset) {
    // first, before anything waits: a departing board's next publish must not be acknowledged here
    if (reset) {
      for (const id of this.connected()) if (!this.replica.get('device', id)) this.departures.leave(id)
      return this.#republishAll()
    }
    for (const c of changes) if (c.type === 'device' && c.op === 'delete') this.departures.leave(c.id)
    const devices = new Set()
    for (const c of changes) {
      if (c.type === 'device') {
        devices.add(c.id)
        if (c.op === 'upsert' && c.data?.active === false) this.#disconnect(c.id, 'device deactivated')
      } else if (c.type === 'cell') {
        for (const d of this.replica.all('device')) devices.add(d.id)
      } else if (c.type === 'boardCredential') {
        const client = this.clientOf(c.id)
        if (client && credentialHashOf(client) !== this.replica.get('boardCredential', c.id)?.hash) this.#disconnect(c.id, 'credential changed')
      } else if (c.type === 'scheduledOpen') {
        if (c.op === 'delete') await this.schedule.refreshAll()
        for (const d of this.replica.index.devicesByCompany.get(c.data?.companyId) ?? []) await this.schedule.refresh(d.id)
      } else if (c.type === 'lockdown') {
        // a lockdown ends the hold-open, an evacuation holds doors open (decision 0087)
        this.schedule.rearm()
        for (const d of this.replica.index.devicesByCompany.get(c.id) ?? []) await this.schedule.refresh(d.id)
      } else if (c.type === 'company') {
        // what the company's record says reaches its boards: biometrics in the configuration, the firmware policy in the offer
        for (const d of this.replica.index.devicesByCompany.get(c.id) ?? []) devices.add(d.id)
      } else if (c.type === 'firmware') {
        for (const d of this.replica.all('device')) if (c.op === 'delete' || d.deviceType === c.data?.deviceType) devices.add(d.id)
      }
    }
    for (const id of devices) {
      if (this.#stopped) return
      await this.#publishDevice(id)
    }
  }

  #disconnect(boardId, why) {
    const client = this.clientOf(boardId)
    if (!client || isLeaving(client)) return // a departing board is closed by its departure
    this.log.info('disconnecting board', { boardId, why })
    client.close()
  }
}
