/**
 * CONTRACT TEST DOUBLE of the console Worker's gateway API (docs/gateway-api.md). It is not the
 * console: it implements just the contract — change feed with cursors, idempotent event ingestion
 * de-duplicated by event id with the console's per-event rejections, firmware download, cells — so the
 * gateway's tests have a real HTTP peer.
 *
 * Cells (docs/decisions/0050-cells.md, 0053): each cell has its own gateway secret and feed. The
 * default cell is `main`, with the double's `secret`, `changes`, `cursorsSeen` and `oldestKept`;
 * `cell(name, …)` adds another or names a cell's MQTT endpoint (the feed's `cell` record). A record
 * goes to the feed of its company's cell (firmware to every cell); `moveCompany` deletes a company's
 * records from its old cell's feed and upserts them in the new one's. Events and presence are taken
 * from the cell that serves the device's company, and from its previous cell for 24 hours after a move
 * or a device's transfer; within that day a transferred device's events go to the company it left when
 * their board time is before the transfer, to the one it joined otherwise (decision 0074).
 * Tests that only need the events contract can point at the real Worker instead via WORKER_URL.
 *
 * Wake-ups (decision 0118): gateways' WebSockets on `/api/gateway/wake`, per cell; `wake(cell)` sends them
 * `wake`, as the console does after a lockdown changes; `ping` is answered `pong`.
 *
 * Run standalone: `node test/support/worker-contract-double.js --port 8787 --secret s`.
 */
import { createServer } from 'node:http'
import { WebSocketServer } from 'ws'
import { createHash } from 'node:crypto'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'

/** Event types the console turns into activity rows (docs/gateway-api.md, "Event types"). */
export const RECORDED_TYPES = [
  'door.opened',
  'door.closed',
  'door.forced',
  'door.heldOpen',
  'sensor',
  'sensor.contact',
  'sensor.measurement',
  'battery',
  'location',
  'tamper',
  'panic.pressed',
  'command.result',
  'access.granted',
  'access.denied',
  'schedule.firstEntry',
  'firmware.progress',
  'firmware.result'
]

export class WorkerContractDouble {
  /** @type {{seq: number, type: string, op: string, id: string, data?: any}[]} */ changes = []
  /** @type {Map<string, any>} event rows by id, each with the `companyId` whose log holds it: the "activity log" */ rows = new Map()
  /** @type {Map<string, Buffer>} */ firmware = new Map()
  duplicates = 0
  requests = { changes: 0, events: 0, firmware: 0, claims: 0, cellLookups: 0 }
  /** How long each feed page is held after it is read (0: answered at once). */
  feedAnswerDelayMs = 0
  /** @type {{id: string, boardId: string, cmd: string, args: object, expiresAt: number, claimedBy: string|null}[]} console commands, as device_commands rows */
  commands = []
  /** cursors the gateway asked with, in order (null: no cursor) */
  cursorsSeen = []
  /** seq of the oldest change still kept, as after the Worker's pruning: a cursor short of `oldestKept - 1` gets 410 */
  oldestKept = 0
  /** the credential keys of the gateway's cell (GET /api/gateway/credential-keys) */
  jwks = { keys: [] }
  /** while true every call answers 503, as a Worker that is down */
  down = false
  /**
   * Devices the console has a row for: every device ever announced on the feed (the console removes
   * devices softly, so events of a removed one are still recorded).
   */
  devices = new Set()
  /**
   * Board presence by `<deviceId> <gateway instance>`: `{online, since}` (the console's device_presence,
   * app/services/board-presence.server.ts); presence entries are stored state, not rows.
   */
  presence = new Map()
  /**
   * Board clock readings by device id, oldest first: `{driftMs, tzdata, at}` (the console keeps the last,
   * in device_clocks: app/services/board-clock.server.ts).
   * @type {Map<string, {driftMs: number|null, tzdata: string|null, at: number}[]>}
   */
  clocks = new Map()
  /** event types with an activity name; remove one to play a console from before it had one */
  recordedTypes = new Set(RECORDED_TYPES)

  /** @type {Promise<void>|null} while set, cell lookups wait for it (a slow Worker) */
  cellLookupGate = null
  /** @type {Promise<void>|null} while set, firmware image downloads wait for it (a slow Worker) */
  firmwareGate = null
  /** @type {Map<string, {secret: string, mqttUrl?: string, feed: {changes: any[], cursorsSeen: (string|null)[], oldestKept: number}}>} */
  cells = new Map()
  /** the live records by `type id`, with the company each belongs to (null: every cell's) */
  #live = new Map()
  /** @type {Map<string, string>} company id → cell; a company not in it is in `main` */
  companyCells = new Map()
  /** @type {Map<string, {from: string, at: number}>} the last move of each company */
  moves = new Map()
  /** @type {Map<string, {from: string, fromCompanyId: string, at: number}>} the last transfer of each device: the cell and company it left */
  deviceMoves = new Map()
  /** @type {Map<string, string>} device id → company, kept after the device is removed */
  #deviceCompany = new Map()

  /** @param {{secret: string, now?: () => number}} opts */
  constructor({ secret, now = Date.now }) {
    this.secret = secret
    this.now = now
    this.cells.set('main', { secret, feed: this })
  }

  /**
   * Adds a cell with its gateway secret, or (re)names a cell's public MQTT endpoint, which its feed
   * then carries as the `cell` record.
   * @param {string} name @param {{secret?: string, mqttUrl?: string}} opts
   */
  cell(name, { secret, mqttUrl }) {
    const c = this.cells.get(name) ?? { secret: /** @type {string} */ (secret), feed: { changes: [], cursorsSeen: [], oldestKept: 0 } }
    this.cells.set(name, c)
    if (mqttUrl) {
      c.mqttUrl = mqttUrl
      append(c.feed, { type: 'cell', op: 'upsert', id: name, data: { id: name, mqttUrl } })
    }
    return this
  }

  /** The cell a company is in. */
  cellOf(companyId) {
    return this.companyCells.get(companyId) ?? 'main'
  }

  /** Appends a change to the feed of its company's cell, the way the console would when a record is written. */
  change(type, op, id, data) {
    if (type === 'device' && op === 'upsert') this.devices.add(id)
    const key = `${type} ${id}`
    const companyId = op === 'upsert' ? this.#companyOf(type, id, data) : this.#live.get(key)?.companyId
    if (type === 'device' && op === 'upsert') this.#deviceCompany.set(id, data?.companyId)
    if (op === 'upsert') this.#live.set(key, { type, id, data, companyId })
    else this.#live.delete(key)
    const cells = companyId == null ? [...this.cells.values()] : [this.cells.get(this.cellOf(companyId))]
    for (const c of cells) append(c.feed, { type, op, id, ...(op === 'upsert' ? { data } : {}) })
  }

  /** @returns {string|null|undefined} */
  #companyOf(type, id, data) {
    const of = (t, i) => this.#live.get(`${t} ${i}`)?.companyId
    if (type === 'company') return id
    if (type === 'firmware') return null
    if (type === 'boardCredential') return of('device', data?.deviceId ?? id)
    if (type === 'ekey' || type === 'groupKey') return of('user', data?.userId) ?? of('device', data?.deviceId)
    return data?.companyId
  }

  /**
   * Moves a company to another cell: the old cell's feed deletes every record of it, the new one's
   * has them all.
   */
  moveCompany(companyId, to) {
    const from = this.cellOf(companyId)
    const records = [...this.#live.values()].filter((r) => r.companyId === companyId)
    for (const r of records) append(this.cells.get(from).feed, { type: r.type, op: 'delete', id: r.id })
    this.companyCells.set(companyId, to)
    this.moves.set(companyId, { from, at: this.now() })
    for (const r of records) append(this.cells.get(to).feed, { type: r.type, op: 'upsert', id: r.id, data: r.data })
  }

  /**
   * Transfers a device to another company, as a reseller's transfer does: when the companies' cells differ,
   * the old cell's feed deletes the device and its board credential and the new one's has them.
   */
  transferDevice(deviceId, toCompanyId) {
    const fromCompanyId = this.#deviceCompany.get(deviceId)
    const from = this.cellOf(fromCompanyId)
    const device = this.#live.get(`device ${deviceId}`)
    const credential = this.#live.get(`boardCredential ${deviceId}`)
    this.deviceMoves.set(deviceId, { from, fromCompanyId, at: this.now() })
    if (from !== this.cellOf(toCompanyId)) {
      append(this.cells.get(from).feed, { type: 'device', op: 'delete', id: deviceId })
      if (credential) append(this.cells.get(from).feed, { type: 'boardCredential', op: 'delete', id: deviceId })
    }
    this.change('device', 'upsert', deviceId, { ...device.data, companyId: toCompanyId })
    if (credential) this.change('boardCredential', 'upsert', deviceId, credential.data)
  }

  /**
   * Whether a gateway of `cell` may report for this device: its company's cell, or the one the company or
   * the device (transferred) left less than 24 h ago.
   */
  #serves(cell, deviceId) {
    const companyId = this.#deviceCompany.get(deviceId)
    if (companyId === undefined || this.cellOf(companyId) === cell) return true
    const left = (move) => move?.from === cell && this.now() - move.at < 24 * 3600_000
    return left(this.moves.get(companyId)) || left(this.deviceMoves.get(deviceId))
  }

  /** The company whose log gets an event of the device at board time `at`: the one it left, within a day of a transfer, for an earlier event. */
  #companyAt(deviceId, at) {
    const t = this.deviceMoves.get(deviceId)
    return t && this.now() - t.at < 24 * 3600_000 && at < t.at ? t.fromCompanyId : this.#deviceCompany.get(deviceId)
  }

  /** Queues a console command (an admin's unlock) until a gateway that holds the board claims it. */
  addCommand(boardId, { id, cmd = 'unlock', expiresAt = Date.now() + 60_000 }) {
    this.commands.push({ id, boardId, cmd, args: {}, expiresAt, claimedBy: null })
  }

  /** Stores a firmware image and publishes its release record through the feed. */
  /** @param {{id: string, deviceType: string, version: string, bytes: Buffer, active?: boolean, sha256?: string}} release sha256: a wrong one to test refusal */
  addFirmware({ id, deviceType, version, bytes, active = true, sha256 }) {
    this.firmware.set(id, bytes)
    this.change('firmware', 'upsert', id, { id, deviceType, version, size: bytes.length, sha256: sha256 ?? createHash('sha256').update(bytes).digest('hex'), active })
  }

  /** The open wake-up channels, by cell. @type {Map<string, Set<import('ws').WebSocket>>} */
  wakeChannels = new Map()
  /** Made by `listen`: the console contract test uses the double's answers without a server, where `ws` has none. */
  #wakeServer = /** @type {WebSocketServer|null} */ (null)

  /** Tells the gateways of `cell` to read their feed now. @returns {number} how many were told */
  wake(cell = 'main') {
    const open = this.wakeChannels.get(cell) ?? new Set()
    for (const ws of open) ws.send('wake')
    return open.size
  }

  /** Drops every wake-up channel, as a console restart does. */
  dropWakeChannels() {
    for (const open of this.wakeChannels.values()) for (const ws of open) ws.terminate()
  }

  /** @param {import('node:http').IncomingMessage} req @param {import('node:stream').Duplex} socket @param {Buffer} head */
  #upgrade(req, socket, head) {
    const url = new URL(req.url ?? '/', 'http://x')
    const cellName = [...this.cells].find(([, c]) => req.headers.authorization === `Bearer ${c.secret}`)?.[0]
    const status = this.down ? '503 Service Unavailable' : url.pathname !== '/api/gateway/wake' ? '404 Not Found' : !cellName ? '401 Unauthorized' : null
    if (status || !cellName) return socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\n\r\n`)
    this.#wakeServer?.handleUpgrade(req, socket, head, (ws) => {
      const open = this.wakeChannels.get(cellName) ?? new Set()
      this.wakeChannels.set(cellName, open.add(ws))
      ws.on('message', (m) => String(m) === 'ping' && ws.send('pong'))
      ws.on('error', () => {}) // a gateway killed or closed mid-frame: its close follows
      ws.on('close', () => open.delete(ws))
    })
  }

  async listen(port = 0, host = '127.0.0.1') {
    this.server = createServer((req, res) => this.#handle(req, res).catch((e) => send(res, 500, { error: e.message })))
    this.#wakeServer = new WebSocketServer({ noServer: true })
    this.server.on('upgrade', (req, socket, head) => this.#upgrade(req, socket, head))
    await new Promise((resolve) => this.server.listen(port, host, () => resolve()))
    this.url = `http://${host}:${/** @type {import('node:net').AddressInfo} */ (this.server.address()).port}`
    return this
  }

  close() {
    this.dropWakeChannels()
    return new Promise((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }

  async #handle(req, res) {
    const url = new URL(req.url, 'http://x')
    if (this.down) return send(res, 503, { error: 'unavailable' })
    const cellName = [...this.cells].find(([, c]) => req.headers.authorization === `Bearer ${c.secret}`)?.[0]
    if (!cellName) return send(res, 401, { error: 'unauthorized' })
    const feed = this.cells.get(cellName).feed
    if (req.method === 'GET' && url.pathname === '/api/gateway/changes') {
      this.requests.changes++
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 500), 1000)
      const cursor = url.searchParams.get('cursor')
      feed.cursorsSeen.push(cursor)
      // Cursors are seqs; "s<n>" marks a position inside a snapshot, which stays valid after pruning.
      // The snapshot replays the whole log here, which yields the live state just the same.
      const snapshot = cursor == null || cursor.startsWith('s')
      const from = cursor == null ? 0 : Number(snapshot ? cursor.slice(1) : cursor)
      if (!Number.isInteger(from) || from > feed.changes.length || (!snapshot && from < feed.oldestKept - 1)) return send(res, 410, { error: 'cursor_expired' })
      const page = feed.changes.slice(from, from + limit)
      const next = from + page.length
      const more = next < feed.changes.length
      // a slow console: the page is read now and answered later, so a change made meanwhile is not in it
      if (this.feedAnswerDelayMs) await new Promise((resolve) => setTimeout(resolve, this.feedAnswerDelayMs))
      return send(res, 200, { v: 1, changes: page, cursor: snapshot && more ? `s${next}` : String(next), more, ...(cursor == null ? { reset: true } : {}) })
    }
    if (req.method === 'POST' && url.pathname === '/api/gateway/events') {
      this.requests.events++
      const body = JSON.parse(await readBody(req))
      if (body.v !== 1 || !Array.isArray(body.events) || body.events.length > 1000) return send(res, 400, { error: 'bad_batch' })
      return send(res, 200, this.ingest(body.events, cellName))
    }
    const placed = url.pathname.match(/^\/api\/gateway\/devices\/([^/]+)\/cell$/)
    if (req.method === 'GET' && placed) {
      this.requests.cellLookups++
      await this.cellLookupGate
      const deviceId = decodeURIComponent(placed[1])
      const device = this.#live.get(`device ${deviceId}`)
      if (!device) return send(res, 404, { error: 'not_found' })
      const cell = this.cellOf(device.companyId)
      return send(res, 200, { v: 1, deviceId, cell, mqttUrl: this.cells.get(cell).mqttUrl })
    }
    if (req.method === 'POST' && url.pathname === '/api/gateway/commands/claim') {
      this.requests.claims++
      const body = JSON.parse(await readBody(req))
      if (body.v !== 1 || !Array.isArray(body.boards) || body.boards.length > 1000) return send(res, 400, { error: 'bad_request' })
      // The console's rule: open, unexpired commands of the listed boards, each handed out once.
      const now = Date.now()
      const claimed = this.commands.filter((c) => c.claimedBy === null && c.expiresAt > now && body.boards.includes(c.boardId))
      for (const c of claimed) c.claimedBy = String(req.headers['x-gateway-id'])
      return send(res, 200, { v: 1, commands: claimed.map(({ id, boardId, cmd, args, expiresAt }) => ({ id, boardId, cmd, args, expiresAt, expiresInMs: expiresAt - now })) })
    }
    if (req.method === 'GET' && url.pathname === '/api/gateway/credential-keys') return send(res, 200, this.jwks)
    const fw = url.pathname.match(/^\/api\/gateway\/firmware\/([^/]+)$/)
    if (req.method === 'GET' && fw) {
      this.requests.firmware++
      await this.firmwareGate
      const bytes = this.firmware.get(decodeURIComponent(fw[1]))
      if (!bytes) return send(res, 404, { error: 'not_found' })
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length })
      return res.end(bytes)
    }
    send(res, 404, { error: 'not_found' })
  }

  /**
   * The console's rules (app/services/gateway-events.server.ts), reasons word for word: entries are
   * checked one by one and a bad one is reported in `rejected` without failing the batch. Public so
   * tests/workers/gateway-double-contract.test.ts can hold the real Worker to the same answers.
   * @param {any[]} events @param {string} [cell] the cell of the gateway that sent them
   */
  ingest(events, cell = 'main') {
    const rejected = []
    const valid = []
    const seen = new Set()
    let duplicates = 0
    let accepted = 0
    for (const ev of events) {
      if (ev?.type === 'board.presence' || ev?.type === 'gateway.started') {
        const reason = this.#presence(ev, cell)
        if (reason) rejected.push({ id: ev?.id ?? null, reason })
        else accepted++
        continue
      }
      if (ev?.type === 'board.clock') {
        const reason = this.#clock(ev, cell)
        if (reason) rejected.push({ id: ev?.id ?? null, reason })
        else accepted++
        continue
      }
      const reason = envelopeProblem(ev)
      if (reason) rejected.push({ id: ev?.id ?? null, reason })
      else if (seen.has(ev.id)) duplicates++
      else {
        seen.add(ev.id)
        valid.push(ev)
      }
    }
    for (const ev of valid) {
      const reason = !this.devices.has(ev.deviceId) ? 'unknown device' : !this.#serves(cell, ev.deviceId) ? 'device not served by this gateway' : this.#mappingProblem(ev)
      if (reason) rejected.push({ id: ev.id, reason })
      else if (this.rows.has(ev.id)) duplicates++
      else {
        this.rows.set(ev.id, { ...ev, companyId: this.#companyAt(ev.deviceId, ev.at) })
        accepted++
      }
    }
    this.duplicates += duplicates
    return { accepted, duplicates, rejected }
  }

  /** The console's presence rules: never back in time; a start clears what the instance had online. */
  #presence(ev, cell) {
    if (typeof ev.id !== 'string' || !ID.test(ev.id)) return 'id must be 1-200 printable characters'
    if (!Number.isSafeInteger(ev.at) || ev.at <= 0) return 'at must be epoch milliseconds'
    const instance = typeof ev.gatewayId === 'string' ? ev.gatewayId : ''
    if (ev.type === 'gateway.started') {
      for (const [key, p] of this.presence) if (key.endsWith(` ${instance}`) && p.online && p.since < ev.at) this.presence.set(key, { online: false, since: ev.at })
      return null
    }
    if (typeof ev.data?.online !== 'boolean') return 'board.presence events need data.online'
    if (!this.devices.has(ev.deviceId)) return 'unknown device'
    if (!this.#serves(cell, ev.deviceId)) return 'device not served by this gateway'
    const key = `${ev.deviceId} ${instance}`
    if ((this.presence.get(key)?.since ?? 0) <= ev.at) this.presence.set(key, { online: ev.data.online, since: ev.at })
    return null
  }

  /** The console's clock rules: a reading, never back in time. */
  #clock(ev, cell) {
    if (typeof ev.id !== 'string' || !ID.test(ev.id)) return 'id must be 1-200 printable characters'
    if (!Number.isSafeInteger(ev.at) || ev.at <= 0) return 'at must be epoch milliseconds'
    const { driftMs, tzdata } = ev.data ?? {}
    if (!(driftMs === null || Number.isSafeInteger(driftMs)) || !(tzdata === null || (typeof tzdata === 'string' && /^\d{4}[a-z]{1,2}$/.test(tzdata))))
      return 'board.clock events need data.driftMs (milliseconds or null) and data.tzdata (a tz database version or null)'
    if (!this.devices.has(ev.deviceId)) return 'unknown device'
    if (!this.#serves(cell, ev.deviceId)) return 'device not served by this gateway'
    const readings = this.clocks.get(ev.deviceId) ?? this.clocks.set(ev.deviceId, []).get(ev.deviceId)
    if ((readings.at(-1)?.at ?? 0) <= ev.at) readings.push({ driftMs, tzdata, at: ev.at })
    return null
  }

  /** Whether any instance reports the board connected (staleness is the console's, not modelled here). */
  online(deviceId) {
    return [...this.presence].some(([key, p]) => key.startsWith(`${deviceId} `) && p.online)
  }

  /** @param {{type: string, data?: Record<string, any>}} event */
  #mappingProblem({ type, data: given }) {
    const data = given ?? {} // null data is none, as the console reads it
    if (!this.recordedTypes.has(type)) return `event type ${type} is not recorded`
    const num = (x) => typeof x === 'number' && Number.isFinite(x)
    if (type === 'battery' && !num(data.percent)) return 'battery events need data.percent'
    if (type === 'location' && !(num(data.lat) && num(data.lon))) return 'location events need data.lat and data.lon'
    if (type === 'command.result' && !(typeof data.cmd === 'string' && data.cmd && typeof data.ok === 'boolean')) return 'command.result events need data.cmd and data.ok'
    if (type === 'sensor.contact' && !((data.input === 1 || data.input === 2) && (data.state === 'open' || data.state === 'closed')))
      return 'sensor.contact events need data.input (1 or 2) and data.state'
    // A bare `sensor` is a contact when it carries an open/closed state, otherwise a measurement.
    const contact = data.state === 'open' || data.state === 'closed' || typeof data.value === 'boolean'
    if ((type === 'sensor.measurement' || (type === 'sensor' && !contact)) && !(typeof data.name === 'string' && data.name && num(data.value)))
      return 'sensor.measurement events need data.name and a numeric data.value'
    return null
  }
}

const ID = /^[\x21-\x7e]{1,200}$/

/** @param {{changes: any[]}} feed */
function append(feed, change) {
  feed.changes.push({ seq: feed.changes.length + 1, ...change })
}

/** The console's per-entry checks, in its order. */
function envelopeProblem(ev) {
  if (typeof ev !== 'object' || ev === null) return 'event must be an object'
  if (typeof ev.id !== 'string' || !ID.test(ev.id)) return 'id must be 1-200 printable characters'
  if (typeof ev.deviceId !== 'string') return 'unknown device'
  if (typeof ev.type !== 'string') return 'type must be a string'
  if (!Number.isSafeInteger(ev.at) || ev.at <= 0) return 'at must be epoch milliseconds'
  const data = ev.data ?? {}
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'data must be an object'
  return null
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

async function readBody(req) {
  const chunks = []
  for await (const c of req) chunks.push(c)
  return Buffer.concat(chunks).toString('utf8')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8787' }, secret: { type: 'string', default: 'dev-gateway-secret' } } })
  const w = await new WorkerContractDouble({ secret: values.secret }).listen(Number(values.port))
  process.stdout.write(JSON.stringify({ ready: true, url: w.url }) + '\n')
}
