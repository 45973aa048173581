/**
 * The gateway: embedded broker + synced replica + durable event queue + firmware delivery.
 * `createGateway(opts)` starts everything and returns a handle whose `close()` stops it cleanly.
 */
import { join } from 'node:path'
import { hostname } from 'node:os'
import { createLogger } from './log.js'
import { createAedes, listen } from './broker/broker.js'
import { defaultHooks } from './broker/hooks.js'
import { ConnectBackoff } from './broker/connect-backoff.js'
import { parseTopic, topic } from './protocol/topics.js'
import { Replica } from './store/replica.js'
import { EventQueue } from './store/event-queue.js'
import { WorkerClient } from './sync/worker-client.js'
import { ChangeFeed } from './sync/change-feed.js'
import { Forwarder } from './events/forwarder.js'
import { Presence } from './events/presence.js'
import { ImageCache } from './firmware/image-cache.js'
import { FirmwareDelivery } from './firmware/delivery.js'
import { ScheduledOpen } from './access/scheduled-open.js'
import { CredentialKeys } from './access/credential-keys.js'
import { Revocations, pageWithdrawals } from './access/revocations.js'
import { Inbound } from './inbound.js'
import { CommandOutbox } from './commands/outbox.js'
import { pastDeadline, withDeadline } from './commands/deadline.js'
import { ConsoleCommands } from './commands/console.js'
import { Stats } from './stats.js'

/** PROTOCOL.md's revision of version 1, told to boards in their configuration. */
export const PROTOCOL_REVISION = 2

const IDENTITY = Symbol('identity')
const CRED_HASH = Symbol('credentialHash')

/**
 * @typedef {object} GatewayOptions
 * @property {string} dataDir
 * @property {string} workerUrl
 * @property {string} gatewaySecret
 * @property {string} [gatewayId]       stable name of this instance (event source, broker id)
 * @property {string} [host]            listen address, default 127.0.0.1
 * @property {number} [mqttPort]        default 1883 (0 picks a free port)
 * @property {number|null} [wsPort]     default 8883; null disables WebSocket
 * @property {{cert: string|Buffer, key: string|Buffer, port: number}} [tls] MQTT over TLS as well
 * @property {string} [redisUrl]        cluster mode when set
 * @property {number} [maxPayload]      bytes, default 65536
 * @property {number} [maxTopicLevels]  default 8
 * @property {number} [syncIntervalMs]  change-feed poll interval, default 5000
 * @property {number} [scheduleIntervalMs] scheduled-open re-evaluation, default 15000
 * @property {number} [firmwareRetryMs] first wait before fetching an unavailable image again, default 30000
 * @property {number} [credentialKeysIntervalMs] how often the console's credential keys are fetched, default 60000
 * @property {number} [revocationDelayMs] how long changes of a revocation list gather before boards get it, default 1000
 * @property {number} [commandIntervalMs] how often the connected boards' console commands are claimed, default 2000
 * @property {number} [statsIntervalMs] how often `$SYS/{gatewayId}/gateway/stats` is published, default 10000
 * @property {Partial<typeof defaultHooks>} [hooks]
 * @property {false|Partial<import('./broker/connect-backoff.js').DEFAULT_BACKOFF>} [connectBackoff]
 *   back-off for failed CONNECTs per address and board id (default on; false only for measurements)
 * @property {() => number} [clock]     the back-off's clock (tests)
 * @property {() => number} [now]       the decision path's clock: access decisions, first-person-in and
 *   scheduled-open state (default `Date.now`; tests pass a fixed instant)
 */

/** @param {GatewayOptions} opts */
export async function createGateway(opts) {
  const gw = new Gateway(opts)
  await gw.start()
  return gw
}

/** The client's source address (TCP, TLS or the WebSocket's HTTP request). */
const remoteAddress = (client) => client.conn?.remoteAddress ?? client.req?.socket?.remoteAddress

const definedOnly = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

export class Gateway {
  #pruneTimer = null
  #revocationTimer = null
  /** @type {Set<string>} companies whose boards wait for their new revocation list */ #revokedCompanies = new Set()
  /** @param {GatewayOptions} opts */
  constructor(opts) {
    /** @type {GatewayOptions & Required<Pick<GatewayOptions, 'host'|'mqttPort'|'maxPayload'|'maxTopicLevels'|'statsIntervalMs'|'gatewayId'|'now'>>} */
    this.opts = {
      host: '127.0.0.1',
      mqttPort: 1883,
      wsPort: 8883,
      maxPayload: 65536,
      maxTopicLevels: 8,
      statsIntervalMs: 10_000,
      gatewayId: `gw-${hostname()}`,
      now: Date.now,
      .../** @type {GatewayOptions} */ (definedOnly(opts))
    }
    this.gatewaySecret = this.opts.gatewaySecret
    this.hooks = { ...defaultHooks, ...opts.hooks }
    this.backoff = this.opts.connectBackoff === false ? null : new ConnectBackoff(this.opts.connectBackoff || {}, this.opts.clock)
    this.log = createLogger('gateway', { gw: this.opts.gatewayId })
    this.replica = new Replica(join(this.opts.dataDir, 'replica'))
    this.queue = new EventQueue(join(this.opts.dataDir, 'events'))
    // In cluster mode aedes-persistence-redis already keeps queued commands across restarts.
    this.commands = this.opts.redisUrl ? null : new CommandOutbox(join(this.opts.dataDir, 'commands'), { log: this.log })
    this.worker = new WorkerClient({ url: this.opts.workerUrl, secret: this.opts.gatewaySecret, gatewayId: this.opts.gatewayId })
    this.inbound = new Inbound(this)
    const publishRetained = (name, boardId, msg) => this.publishRetained(name, boardId, msg)
    const recordEvent = (boardId, ev) => this.recordEvent(boardId, ev)
    this.firmware = new FirmwareDelivery({
      replica: this.replica,
      images: new ImageCache({ dir: join(this.opts.dataDir, 'firmware'), worker: this.worker, log: this.log }),
      publishRetained,
      recordEvent,
      log: this.log,
      retryMs: this.opts.firmwareRetryMs
    })
    this.stats = new Stats(this, this.opts.statsIntervalMs)
    this.presence = new Presence({ dataDir: this.opts.dataDir, gatewayId: this.opts.gatewayId, worker: this.worker, log: this.log })
    this.revocations = new Revocations({ dir: this.opts.dataDir, log: this.log })
    this.credentialKeys = new CredentialKeys({ dir: this.opts.dataDir, worker: this.worker, log: this.log, intervalMs: this.opts.credentialKeysIntervalMs })
    this.schedule = new ScheduledOpen({ replica: this.replica, publishRetained, recordEvent, log: this.log, intervalMs: this.opts.scheduleIntervalMs, now: this.opts.now })
  }

  async start() {
    await this.replica.open()
    await this.credentialKeys.open()
    await this.revocations.open()
    await this.queue.open()
    await this.commands?.open()
    await this.presence.open()
    this.aedes = await createAedes({ id: this.opts.gatewayId, redisUrl: this.opts.redisUrl, maxTopicLevels: this.opts.maxTopicLevels })
    this.#installHooks(this.aedes)
    if (this.opts.redisUrl) await this.#adoptPublishedRevocations(this.replica.all('device').map((d) => d.id))
    await this.revocations.prune(this.opts.now())
    this.commands?.attach(this.aedes, (client) => client[IDENTITY]?.role === 'board')
    this.listeners = await listen(this.aedes, this.opts)
    this.forwarder = new Forwarder({ queue: this.queue, worker: this.worker, gatewayId: this.opts.gatewayId, log: this.log, dataDir: this.opts.dataDir }).start()
    this.consoleCommands = new ConsoleCommands({
      worker: this.worker,
      boards: () => this.#connectedBoards(),
      send: (boardId, cmd) => this.sendCommand(boardId, cmd),
      log: this.log,
      intervalMs: this.opts.commandIntervalMs
    })
    this.feed = new ChangeFeed({ replica: this.replica, worker: this.worker, log: this.log, intervalMs: this.opts.syncIntervalMs })
    this.replica.beforeApply((page) => this.#beforePage(page))
    this.revocations.onChange((companyIds) => this.#revocationsChanged(companyIds))
    this.#pruneTimer = setInterval(() => this.revocations.prune(this.opts.now()).catch((e) => this.log.error('pruning revocations failed', { error: e.message })), 10 * 60_000)
    this.#pruneTimer.unref?.()
    this.replica.onChange((changes, reset) => this.#onReplicaChange(changes, reset).catch((e) => this.log.error('applying change failed', { error: e.message })))
    await this.#republishAll()
    this.credentialKeys.onChange(() => this.#republishAll().catch((e) => this.log.error('publishing configurations failed', { error: e.message })))
    this.credentialKeys.start()
    this.feed.start()
    this.consoleCommands.start()
    this.schedule.start()
    this.stats.start()
    this.log.info('gateway started', {
      mqttPort: this.listeners.mqttPort,
      mqttsPort: this.listeners.mqttsPort,
      wsPort: this.listeners.wsPort,
      cluster: Boolean(this.opts.redisUrl),
      cursor: this.replica.cursor,
      queued: this.queue.length
    })
    // A production gateway without it lets anyone guess board secrets at full speed (decision 0110).
    if (!this.backoff) this.log.warn('connect back-off is off (CONNECT_BACKOFF=off): failed CONNECTs are not throttled; for measurements only')
  }

  get mqttPort() {
    return this.listeners.mqttPort
  }
  get wsPort() {
    return this.listeners.wsPort
  }
  get mqttsPort() {
    return this.listeners.mqttsPort
  }

  #installHooks(aedes) {
    aedes.authenticate = (client, username, password, cb) => {
      const address = remoteAddress(client)
      const name = typeof username === 'string' && username.length <= 64 ? username : undefined
      const wait = this.backoff?.check(address, name)
      if (wait) {
        this.log.debug('connection refused: back-off after failed attempts', { clientId: client.id, username: name, address, waitMs: wait })
        return cb(Object.assign(new Error('server unavailable'), { returnCode: 3 }), false)
      }
      this.hooks.authenticate({ clientId: client.id, username, password }, this).then(
        (identity) => {
          if (!identity) {
            this.backoff?.failed(address, name)
            this.log.warn('connection refused', { clientId: client.id, username: name, address })
            return cb(Object.assign(new Error('bad user name or password'), { returnCode: 4 }), false)
          }
          this.backoff?.succeeded(name)
          client[IDENTITY] = identity
          if (identity.role === 'board') client[CRED_HASH] = this.replica.get('boardCredential', identity.boardId)?.hash
          cb(null, true)
        },
        (e) => {
          this.log.error('authenticate hook failed', { clientId: client.id, error: e.message })
          cb(Object.assign(new Error('server unavailable'), { returnCode: 3 }), false)
        }
      )
    }
    aedes.authorizePublish = (client, packet, cb) => {
      if (!client) return cb(null) // the broker's own will handling of a client already gone
      const identity = client[IDENTITY]
      if (!identity || !this.hooks.authorizePublish(identity, packet.topic)) {
        this.log.warn('publish refused', { clientId: client.id, topic: packet.topic })
        return cb(new Error('publish not authorized'))
      }
      if (packet.payload.length > this.opts.maxPayload) {
        this.log.warn('payload too large', { clientId: client.id, topic: packet.topic, bytes: packet.payload.length })
        return cb(new Error('payload too large'))
      }
      const t = parseTopic(packet.topic)
      if (t?.name === 'cmd' && packet.qos > 0) {
        const refuse = (e) => {
          this.log.warn('command refused', { clientId: client.id, topic: packet.topic, error: e.message })
          cb(e)
        }
        // on disk before aedes sends the PUBACK, like board events (decision 0101)
        if (this.commands) return this.commands.add(t.boardId, packet.payload).then(() => cb(null), refuse)
        try {
          packet.payload = withDeadline(packet.payload)
        } catch (e) {
          return refuse(e)
        }
      }
      if (identity.role !== 'board') return cb(null)
      packet.retain = packet.retain && t.name === 'status'
      this.inbound.handle(client, identity.boardId, t.name, packet).then(
        () => cb(null),
        (e) => {
          this.log.error('could not handle board message', { clientId: client.id, topic: packet.topic, error: e.message })
          cb(e)
        }
      )
    }
    aedes.authorizeSubscribe = (client, sub, cb) => {
      const ok = client[IDENTITY] && this.hooks.authorizeSubscribe(client[IDENTITY], sub.topic)
      if (!ok) this.log.warn('subscription refused', { clientId: client.id, topic: sub.topic })
      cb(null, ok ? sub : null)
    }
    // Defence in depth: whatever the subscription, a board never receives another board's messages.
    aedes.authorizeForward = (client, packet) => {
      const identity = client[IDENTITY]
      if (identity?.role !== 'board') return packet
      if (parseTopic(packet.topic)?.boardId !== identity.boardId) return null
      if (this.commands ? this.commands.withheld(identity.boardId, packet) : pastDeadline(packet)) {
        if (!this.commands) this.log.warn('command expired', { boardId: identity.boardId, topic: packet.topic })
        return null
      }
      return packet
    }
    aedes.on('client', (client) => {
      const identity = client[IDENTITY]
      if (identity?.role === 'board') this.presence.changed(identity.boardId, true)
    })
    aedes.on('clientDisconnect', (client) => {
      const identity = client[IDENTITY]
      if (identity?.role !== 'board') return
      this.firmware.forget(identity.boardId, client)
      this.presence.changed(identity.boardId, false)
    })
    aedes.on('clientError', (client, err) => this.log.warn('client error', { clientId: client?.id, error: err.message }))
    aedes.on('connectionError', (client, err) => this.log.warn('connection error', { clientId: client?.id, error: err.message }))
  }

  /**
   * Stores a board (or gateway-made) event durably and wakes the forwarder.
   * @param {string} boardId
   * @param {{id: string, type: string, at: number, data: object}} ev  id unique per board
   */
  recordEvent(boardId, ev) {
    return this.storeEvent(this.prepareEvent(boardId, ev))
  }

  /**
   * The queue record of an event, serialized: throws when it cannot be, before anything is answered.
   * `ev.id` is the board's event id, or a gateway id from `gatewayEventId` (src/events/ids.js).
   */
  prepareEvent(boardId, ev) {
    return EventQueue.prepare({
      id: `${boardId}/${ev.id}`,
      deviceId: boardId,
      type: ev.type,
      at: ev.at,
      receivedAt: Date.now(),
      gatewayId: this.opts.gatewayId,
      data: ev.data ?? {}
    })
  }

  /** Stores a prepared event durably and wakes the forwarder. */
  async storeEvent(prepared) {
    const stored = await this.queue.pushPrepared(prepared)
    this.forwarder?.poke()
    return stored
  }

  /**
   * A granted access spends a one-time key and may be today's first person in. Must be called
   * synchronously after the decision: the key is spent in memory before this returns a promise.
   */
  onGranted(boardId, key, now) {
    const ekey = key?.kind === 'ekey' ? this.replica.get('ekey', key.id) : undefined
    const spent =
      ekey?.window?.access === 'oneTime'
        ? this.replica.applyLocal({ type: 'ekey', op: 'upsert', id: ekey.id, data: { ...ekey, window: { ...ekey.window, used: true } } })
        : undefined
    return Promise.all([spent, this.schedule.onGranted(boardId, now)])
  }

  /** @param {string} name @param {string} boardId @param {object|null} msg null clears the retained message */
  publishRetained(name, boardId, msg) {
    return this.#publish({ topic: topic(boardId, name), payload: msg ? JSON.stringify(msg) : '', qos: 1, retain: true })
  }

  /**
   * Sends a command to a board, wherever in the cluster it is connected: without Redis it is stored in
   * the outbox first, with Redis its deadline is written into it.
   */
  async sendCommand(boardId, cmd) {
    /** @type {string|Buffer} */
    let payload = JSON.stringify({ v: 1, ...cmd })
    if (this.commands) await this.commands.add(boardId, payload)
    else payload = withDeadline(payload)
    return this.#publish({ topic: topic(boardId, 'cmd'), payload, qos: 1, retain: false })
  }

  #publish({ topic, payload, qos, retain }) {
    return new Promise((resolve, reject) =>
      this.aedes.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain, dup: false }, (err) => (err ? reject(err) : resolve()))
    )
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
    await this.publishRetained('config', deviceId, {
      v: 1,
      rev: PROTOCOL_REVISION,
      deviceId: d.id,
      name: d.name,
      deviceType: d.deviceType,
      companyId: d.companyId,
      tz: d.tz,
      unlockMs: d.unlockMs ?? 5000,
      // The keys that verify signed credentials, for the board to use while it is offline.
      credentialKeys: this.credentialKeys.jwks,
      // What was withdrawn since issue, for the board to refuse while it decides alone.
      revoked: this.revocations.list(d.companyId),
      // Credentials without the console-verified biometric claim are refused (PROTOCOL.md, "Signed credentials").
      biometricRequired: this.replica.get('company', d.companyId)?.biometricRequired === true
    })
    return true
  }

  /** The boards of these companies get their new lists together, once the changes of a moment are in. */
  #revocationsChanged(companyIds) {
    for (const c of companyIds) this.#revokedCompanies.add(c)
    if (this.#revocationTimer) return
    this.#revocationTimer = setTimeout(() => {
      this.#revocationTimer = null
      const companies = [...this.#revokedCompanies]
      this.#revokedCompanies.clear()
      this.#publishCompanies(companies).catch((e) => this.log.error('publishing revocations failed', { error: e.message }))
    }, this.opts.revocationDelayMs ?? 1000)
    this.#revocationTimer.unref?.()
  }

  async #publishCompanies(companyIds) {
    for (const c of companyIds) for (const d of this.replica.index.devicesByCompany.get(c) ?? []) await this.#publishConfig(d.id)
  }

  /** A feed page about to be applied: its withdrawals are on disk before the page is. */
  async #beforePage(page) {
    if (page.reset && this.opts.redisUrl) await this.#adoptPublishedRevocations(page.changes.filter((c) => c.type === 'device' && c.op === 'upsert').map((c) => c.id))
    await this.revocations.add(pageWithdrawals(this.replica, page), this.opts.now())
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
    for await (const packet of this.aedes.persistence.createRetainedStreamCombi(topics)) {
      try {
        const config = JSON.parse(packet.payload.toString())
        if (typeof config?.companyId === 'string') changed = this.revocations.merge(config.companyId, config.revoked) || changed
      } catch {
        // an unreadable retained message has nothing to adopt
      }
    }
    if (changed) await this.revocations.save()
  }

  async #republishAll() {
    for (const d of this.replica.all('device')) await this.#publishDevice(d.id)
  }

  async #onReplicaChange(changes, reset) {
    if (reset) return this.#republishAll()
    const devices = new Set()
    for (const c of changes) {
      if (c.type === 'device') {
        devices.add(c.id)
        if (c.op === 'delete' || c.data?.active === false) this.#disconnect(c.id, 'device removed or deactivated')
      } else if (c.type === 'boardCredential') {
        const client = this.aedes.clients[c.id]
        if (client && client[CRED_HASH] !== this.replica.get('boardCredential', c.id)?.hash) this.#disconnect(c.id, 'credential changed')
      } else if (c.type === 'scheduledOpen') {
        if (c.op === 'delete') await this.schedule.refreshAll()
        for (const d of this.replica.index.devicesByCompany.get(c.data?.companyId) ?? []) await this.schedule.refresh(d.id)
      } else if (c.type === 'firmware') {
        for (const d of this.replica.all('device')) if (c.op === 'delete' || d.deviceType === c.data?.deviceType) devices.add(d.id)
      }
    }
    for (const id of devices) await this.#publishDevice(id)
  }

  /** Ids of the boards with a live connection to this instance. */
  #connectedBoards() {
    return Object.values(this.aedes.clients)
      .map((client) => client[IDENTITY])
      .filter((identity) => identity?.role === 'board')
      .map((identity) => identity.boardId)
  }

  #disconnect(boardId, why) {
    const client = this.aedes.clients[boardId]
    if (!client) return
    this.log.info('disconnecting board', { boardId, why })
    client.close()
  }

  /** Runs the change feed until it is caught up (tests, startup scripts). */
  syncNow() {
    return this.feed.syncOnce()
  }

  async close() {
    this.stats.stop()
    this.credentialKeys.stop()
    clearInterval(this.#pruneTimer)
    clearTimeout(this.#revocationTimer)
    this.firmware.stop()
    this.schedule.stop()
    await this.feed?.stop()
    await this.consoleCommands?.stop()
    await this.forwarder?.stop()
    await this.presence.stop()
    await new Promise((resolve) => this.aedes.close(() => resolve()))
    if (this.opts.redisUrl) await this.aedes.persistence.destroy() // aedes closes its mq, not its persistence
    await this.listeners?.close()
    await this.queue.close()
    await this.presence.close()
    await this.commands?.close()
    await this.replica.close()
  }
}
