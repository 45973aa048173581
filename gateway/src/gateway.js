/**
 * The gateway: embedded broker + synced replica + durable event queue + firmware delivery.
 * `createGateway(opts)` starts everything and returns a handle whose `close()` stops it cleanly.
 */
import { join } from 'node:path'
import { hostname } from 'node:os'
import { createLogger } from './log.js'
import { createAedes, listen } from './broker/broker.js'
import { defaultHooks } from './broker/hooks.js'
import { authenticateHandler, preConnectHandler } from './broker/authenticate.js'
import { authorizePublishHandler } from './broker/authorize-publish.js'
import { authorizeSubscribeHandler } from './broker/authorize-subscribe.js'
import { authorizeForwardHandler } from './broker/authorize-forward.js'
import { watchConnections } from './broker/connections.js'
import { boardOf, identityOf } from './broker/identity.js'
import { forgetSession } from './broker/sessions.js'
import { CellRedis } from './broker/cell-redis.js'
import { CellPlacement } from './cells/placement.js'
import { Departures, RETAINED_NAMES } from './cells/departures.js'
import { redirectClient } from './cells/redirect.js'
import { ConnectBackoff } from './broker/connect-backoff.js'
import { topic } from './protocol/topics.js'
import { Replica } from './store/replica.js'
import { EventQueue } from './store/event-queue.js'
import { WorkerClient } from './sync/worker-client.js'
import { ChangeFeed } from './sync/change-feed.js'
import { FeedWake } from './sync/feed-wake.js'
import { Forwarder } from './events/forwarder.js'
import { EventRecorder } from './events/recorder.js'
import { Presence } from './events/presence.js'
import { BoardClocks } from './events/board-clocks.js'
import { ImageCache } from './firmware/image-cache.js'
import { FirmwareDelivery } from './firmware/delivery.js'
import { ScheduledOpen } from './access/scheduled-open.js'
import { CredentialKeys } from './access/credential-keys.js'
import { Revocations } from './access/revocations.js'
import { Inbound } from './inbound.js'
import { CommandOutbox } from './commands/outbox.js'
import { withDeadline } from './commands/deadline.js'
import { lockdownAt } from './access/lockdown.js'
import { ConsoleCommands } from './commands/console.js'
import { Stats } from './stats.js'
import { BoardConfigs } from './board-configs.js'

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
 * @property {string} [redisUrl]        cluster mode when set: the Redis of this gateway's cell, shared by its instances only
 * @property {Partial<import('./cells/placement.js').PLACEMENT_DEFAULTS>} [placement] bounds of the Worker lookups
 *   for boards this cell does not hold
 * @property {number} [maxPayload]      bytes, default 65536
 * @property {number} [maxTopicLevels]  default 8
 * @property {number} [syncIntervalMs]  change-feed poll interval, default 5000
 * @property {boolean} [feedWake]       keep the console's wake-up channel open (decision 0118), default true
 * @property {number} [scheduleIntervalMs] scheduled-open re-evaluation, default 15000
 * @property {number} [firmwareRetryMs] first wait before fetching an unavailable image again, default 30000
 * @property {number} [firmwareWindowCheckMs] how often companies' install windows and rollout opt-outs are re-read, default 60000
 * @property {number} [credentialKeysIntervalMs] how often the console's credential keys are fetched, default 60000
 * @property {number} [revocationDelayMs] how long changes of a revocation list gather before boards get it, default 1000
 * @property {number} [commandIntervalMs] how often the connected boards' console commands are claimed, default 2000
 * @property {number} [boardStatusMs] how often boards are told to send their status (clock and zone data), default 300000
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

/** The retained topics the gateway publishes for every board again (its configuration, scheduled-open state, firmware offer). */
const REPUBLISHED = RETAINED_NAMES.filter((name) => name !== 'status')

const definedOnly = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

export class Gateway {
  #pruneTimer = null
  /** boards of another cell told where to go when they connected */
  #redirectedOnConnect = 0
  /** @type {Promise<void>|null|undefined} */ #catchingUp = null
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
    this.events = new EventRecorder({ queue: this.queue, gatewayId: this.opts.gatewayId, stored: () => this.forwarder?.poke() })
    this.cellRedis = this.opts.redisUrl ? new CellRedis(this.opts.redisUrl) : null
    this.placement = new CellPlacement({ worker: this.worker, ownCell: () => this.cell?.id, log: this.log, limits: this.opts.placement })
    this.departures = new Departures({
      placement: this.placement,
      clientOf: (boardId) => this.aedes.clients[boardId],
      holds: (boardId) => this.replica.get('device', boardId) !== undefined,
      forget: (boardId) => this.#forgetBoard(boardId),
      log: this.log
    })
    const publishRetained = (name, boardId, msg, content) => this.publishRetained(name, boardId, msg, content)
    const recordEvent = (boardId, ev) => this.events.record(boardId, ev)
    this.firmware = new FirmwareDelivery({
      replica: this.replica,
      images: new ImageCache({ dir: join(this.opts.dataDir, 'firmware'), worker: this.worker, log: this.log }),
      publishRetained,
      recordEvent,
      log: this.log,
      retryMs: this.opts.firmwareRetryMs,
      windowCheckMs: this.opts.firmwareWindowCheckMs,
      now: this.opts.now
    })
    this.stats = new Stats({ topic: `$SYS/${this.opts.gatewayId}/gateway/stats`, intervalMs: this.opts.statsIntervalMs, queue: this.queue, replica: this.replica })
    this.presence = new Presence({ dataDir: this.opts.dataDir, gatewayId: this.opts.gatewayId, worker: this.worker, log: this.log })
    this.clocks = new BoardClocks({ presence: this.presence, log: this.log })
    this.revocations = new Revocations({ dir: this.opts.dataDir, log: this.log })
    this.credentialKeys = new CredentialKeys({ dir: this.opts.dataDir, worker: this.worker, log: this.log, intervalMs: this.opts.credentialKeysIntervalMs })
    this.schedule = new ScheduledOpen({ replica: this.replica, publishRetained, recordEvent, log: this.log, intervalMs: this.opts.scheduleIntervalMs, now: this.opts.now })
    this.configs = new BoardConfigs({
      replica: this.replica,
      credentialKeys: this.credentialKeys,
      revocations: this.revocations,
      schedule: this.schedule,
      firmware: this.firmware,
      publishRetained,
      withStoredRetained: (boardIds, work) =>
        this.cellRedis
          ? this.cellRedis.withStoredHashes(
              boardIds.flatMap((id) => REPUBLISHED.map((name) => topic(id, name))),
              work
            )
          : work(),
      clientOf: (boardId) => this.aedes.clients[boardId],
      departures: this.departures,
      connected: () => this.#connectedBoards(),
      retained: (topics) => this.aedes.persistence.createRetainedStreamCombi(topics),
      cluster: Boolean(this.opts.redisUrl),
      revocationDelayMs: this.opts.revocationDelayMs ?? 1000,
      statusMs: this.opts.boardStatusMs ?? 300_000,
      now: this.opts.now,
      log: this.log
    })
    this.inbound = new Inbound({
      replica: this.replica,
      events: this.events,
      firmware: this.firmware,
      clocks: this.clocks,
      credentialKeys: this.credentialKeys,
      onGranted: (boardId, key, now) => this.#onGranted(boardId, key, now),
      decided: (ms) => this.stats.decision(ms),
      now: this.opts.now,
      log: this.log
    })
  }

  async start() {
    await this.replica.open()
    await this.credentialKeys.open()
    await this.revocations.open()
    await this.queue.open()
    await this.commands?.open()
    await this.presence.open()
    if (this.cell) await this.cellRedis?.claimCell(this.cell.id)
    this.aedes = await createAedes({ id: this.opts.gatewayId, redisUrl: this.opts.redisUrl, maxTopicLevels: this.opts.maxTopicLevels })
    this.#installHooks(this.aedes)
    await this.configs.adoptPublished()
    await this.revocations.prune(this.opts.now())
    this.commands?.attach(this.aedes, (client) => boardOf(client) !== undefined)
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
    // a feed naming a cell other than the one this Redis belongs to is not applied, nor stored in part
    this.replica.beforeApply(async (page) => {
      const cell = page.changes.find((c) => c.type === 'cell' && c.op === 'upsert')
      if (cell) await this.cellRedis?.claimCell(cell.id)
    })
    this.replica.beforeApply((page) => this.configs.beforePage(page))
    this.revocations.onChange((companyIds) => this.configs.revocationsChanged(companyIds))
    this.#pruneTimer = setInterval(() => this.revocations.prune(this.opts.now()).catch((e) => this.log.error('pruning revocations failed', { error: e.message })), 10 * 60_000)
    this.#pruneTimer.unref?.()
    this.replica.onChange((changes, reset) => this.configs.onReplicaChange(changes, reset).catch((e) => this.log.error('applying change failed', { error: e.message })))
    this.replica.onChange((changes) => {
      for (const c of changes) if (c.type === 'device' && c.op === 'upsert') this.placement.forget(c.id)
    })
    await this.configs.republishAll()
    this.credentialKeys.onChange(() => this.configs.republishAll().catch((e) => this.log.error('publishing configurations failed', { error: e.message })))
    this.credentialKeys.start()
    this.feed.start()
    if (this.opts.feedWake !== false) this.wakeups = new FeedWake({ worker: this.worker, onWake: () => this.feed.wake(), log: this.log }).start()
    this.consoleCommands.start()
    this.schedule.start()
    this.firmware.start()
    this.stats.start({ aedes: this.aedes, forwarder: this.forwarder, cells: () => this.#cellStats() })
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

  /** The cell this gateway serves, from the feed's `cell` record (docs/gateway-api.md); undefined before the first sync. */
  get cell() {
    return this.replica.all('cell')[0]
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

  /** The aedes hooks, each in its own file under src/broker/ with its contract; each gets only what it uses. */
  #installHooks(aedes) {
    const { log, commands } = this
    aedes.preConnect = preConnectHandler()
    aedes.authenticate = authenticateHandler({
      policy: this.hooks.authenticate,
      context: { replica: this.replica, gatewaySecret: this.gatewaySecret },
      backoff: this.backoff,
      credentialHash: (boardId) => this.replica.get('boardCredential', boardId)?.hash,
      cells: {
        placement: this.placement,
        holds: (boardId) => this.replica.get('device', boardId) !== undefined,
        behind: () => this.#catchUp()
      },
      log
    })
    // a board of another cell hears where to go once it has its CONNACK, and nothing else
    aedes.on('connackSent', (_connack, client) => {
      const identity = identityOf(client)
      if (identity?.role !== 'redirect') return
      this.#redirectedOnConnect++
      redirectClient(client, identity).catch((e) => log.warn('redirect failed', { clientId: client.id, error: e.message }))
    })
    aedes.authorizePublish = authorizePublishHandler({ policy: this.hooks.authorizePublish, maxPayload: this.opts.maxPayload, commands, inbound: this.inbound, log })
    aedes.authorizeSubscribe = authorizeSubscribeHandler({ policy: this.hooks.authorizeSubscribe, log })
    aedes.authorizeForward = authorizeForwardHandler({
      commands,
      log,
      lockedDown: (boardId) => {
        const device = this.replica.get('device', boardId)
        return Boolean(device) && lockdownAt(this.replica, device, this.opts.now())?.mode === 'lockdown'
      }
    })
    watchConnections(aedes, { presence: this.presence, firmware: this.firmware, clocks: this.clocks, log })
  }

  /**
   * A granted access spends a one-time key or one-entry visitor pass and may be today's first person in.
   * Must be called synchronously after the decision: the key is spent in memory before this returns a promise.
   */
  #onGranted(boardId, key, now) {
    // e-keys and passes are records of the type their kind names
    const rec = key?.kind === 'ekey' || key?.kind === 'pass' ? this.replica.get(key.kind, key.id) : undefined
    const spent =
      rec?.window?.access === 'oneTime' ? this.replica.applyLocal({ type: key.kind, op: 'upsert', id: rec.id, data: { ...rec, window: { ...rec.window, used: true } } }) : undefined
    return Promise.all([spent, this.schedule.onGranted(boardId, now)])
  }

  /**
   * In a cluster, a content the cell's retained topic already has is not published again (src/broker/cell-redis.js).
   * @param {string} name @param {string} boardId @param {object|null} msg null clears the retained message
   * @param {object|null} [content] what makes two messages the same content, when not all of `msg` does
   */
  publishRetained(name, boardId, msg, content = msg) {
    const json = (m) => Buffer.from(m ? JSON.stringify(m) : '')
    const packet = { topic: topic(boardId, name), payload: json(msg), qos: /** @type {1} */ (1), retain: true }
    if (!this.cellRedis) return this.#publish(packet)
    return this.cellRedis.publishOnce(packet.topic, content === msg ? packet.payload : json(content), () => this.#publish(packet))
  }

  /** One feed sync at a time for boards the console places here before this copy has them. */
  #catchUp() {
    if (this.#catchingUp || !this.feed) return
    this.#catchingUp = this.feed
      .syncOnce()
      .catch((e) => this.log.warn('change feed unavailable', { error: e.message }))
      .finally(() => (this.#catchingUp = null))
  }

  #cellStats() {
    return {
      cell: this.cell?.id ?? null,
      lookups: this.placement.lookups,
      lookupsRefused: this.placement.refusedBusy,
      redirectedOnConnect: this.#redirectedOnConnect,
      redirectedConnected: this.departures.redirected,
      ...(this.cellRedis ? { retainedPublished: this.cellRedis.published, retainedSkipped: this.cellRedis.skipped } : {})
    }
  }

  /** A board that left this cell's copy leaves nothing in its broker persistence (src/cells/departures.js). */
  async #forgetBoard(boardId) {
    for (const name of RETAINED_NAMES) await this.publishRetained(name, boardId, null)
    await forgetSession(this.aedes.persistence, this.aedes.id, boardId)
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

  /** Ids of the boards with a live connection to this instance. */
  #connectedBoards() {
    return Object.values(this.aedes.clients)
      .map(boardOf)
      .filter((boardId) => boardId !== undefined)
  }

  /** Runs the change feed until it is caught up (tests, startup scripts). */
  syncNow() {
    return this.feed.syncOnce()
  }

  async close() {
    this.stats.stop()
    this.credentialKeys.stop()
    clearInterval(this.#pruneTimer)
    await this.configs.stop() // before the broker and Redis close under its publishes
    await this.departures.settled()
    this.firmware.stop()
    this.schedule.stop()
    this.wakeups?.stop()
    await this.feed?.stop()
    await this.consoleCommands?.stop()
    await this.forwarder?.stop()
    await this.presence.stop()
    await new Promise((resolve) => this.aedes.close(() => resolve()))
    if (this.opts.redisUrl) await this.aedes.persistence.destroy() // aedes closes its mq, not its persistence
    await this.cellRedis?.close()
    await this.listeners?.close()
    await this.queue.close()
    await this.presence.close()
    await this.commands?.close()
    await this.replica.close()
  }
}
