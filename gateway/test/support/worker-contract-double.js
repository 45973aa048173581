/**
 * CONTRACT TEST DOUBLE of the console Worker's gateway API (docs/gateway-api.md). It is not the
 * console: it implements just the contract — change feed with cursors, idempotent event ingestion
 * de-duplicated by event id, firmware download — so the gateway's tests have a real HTTP peer.
 * Tests that only need the events contract can point at the real Worker instead via WORKER_URL.
 *
 * Run standalone: `node test/support/worker-contract-double.js --port 8787 --secret s`.
 */
import { createServer } from 'node:http'
import { createHash } from 'node:crypto'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'

export class WorkerContractDouble {
  /** @type {{seq: number, type: string, op: string, id: string, data?: any}[]} */ changes = []
  /** @type {Map<string, object>} event rows by id: the "activity log" */ rows = new Map()
  /** @type {Map<string, Buffer>} */ firmware = new Map()
  duplicates = 0
  requests = { changes: 0, events: 0, firmware: 0 }
  /** cursors the gateway asked with, in order (null: no cursor) */
  cursorsSeen = []
  /** changes before this seq are "pruned": older cursors get 410 */
  oldestKept = 0
  /** while true every call answers 503, as a Worker that is down */
  down = false

  /** @param {{secret: string}} opts */
  constructor ({ secret }) { this.secret = secret }

  /** Appends a change to the feed, the way the console would when a record is written. */
  change (type, op, id, data) {
    this.changes.push({ seq: this.changes.length + 1, type, op, id, ...(op === 'upsert' ? { data } : {}) })
  }

  /** Stores a firmware image and publishes its release record through the feed. */
  addFirmware ({ id, deviceType, version, bytes, active = true, sha256 }) {
    this.firmware.set(id, bytes)
    this.change('firmware', 'upsert', id, { id, deviceType, version, size: bytes.length, sha256: sha256 ?? createHash('sha256').update(bytes).digest('hex'), active })
  }

  async listen (port = 0, host = '127.0.0.1') {
    this.server = createServer((req, res) => this.#handle(req, res).catch((e) => send(res, 500, { error: e.message })))
    await new Promise((resolve) => this.server.listen(port, host, resolve))
    this.url = `http://${host}:${this.server.address().port}`
    return this
  }

  close () {
    return new Promise((resolve) => { this.server.close(() => resolve()); this.server.closeAllConnections() })
  }

  async #handle (req, res) {
    const url = new URL(req.url, 'http://x')
    if (this.down) return send(res, 503, { error: 'unavailable' })
    if (req.headers.authorization !== `Bearer ${this.secret}`) return send(res, 401, { error: 'unauthorized' })
    if (req.method === 'GET' && url.pathname === '/api/gateway/changes') {
      this.requests.changes++
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 500), 1000)
      const cursor = url.searchParams.get('cursor')
      this.cursorsSeen.push(cursor)
      // Cursors are seqs; "s<n>" marks a position inside a snapshot, which stays valid after pruning.
      // The snapshot replays the whole log here, which yields the live state just the same.
      const snapshot = cursor == null || cursor.startsWith('s')
      const from = cursor == null ? 0 : Number(snapshot ? cursor.slice(1) : cursor)
      if (!Number.isInteger(from) || from > this.changes.length || (!snapshot && from < this.oldestKept)) return send(res, 410, { error: 'cursor_expired' })
      const page = this.changes.slice(from, from + limit)
      const next = from + page.length
      const more = next < this.changes.length
      return send(res, 200, { v: 1, changes: page, cursor: snapshot && more ? `s${next}` : String(next), more, ...(cursor == null ? { reset: true } : {}) })
    }
    if (req.method === 'POST' && url.pathname === '/api/gateway/events') {
      this.requests.events++
      const body = JSON.parse(await readBody(req))
      if (body.v !== 1 || !Array.isArray(body.events) || body.events.length > 1000) return send(res, 400, { error: 'bad_batch' })
      let accepted = 0
      let duplicates = 0
      for (const ev of body.events) {
        if (typeof ev.id !== 'string' || typeof ev.deviceId !== 'string' || typeof ev.type !== 'string') return send(res, 400, { error: 'bad_event' })
      }
      for (const ev of body.events) {
        if (this.rows.has(ev.id)) { duplicates++; continue }
        this.rows.set(ev.id, ev)
        accepted++
      }
      this.duplicates += duplicates
      return send(res, 200, { accepted, duplicates })
    }
    const fw = url.pathname.match(/^\/api\/gateway\/firmware\/([^/]+)$/)
    if (req.method === 'GET' && fw) {
      this.requests.firmware++
      const bytes = this.firmware.get(decodeURIComponent(fw[1]))
      if (!bytes) return send(res, 404, { error: 'not_found' })
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length })
      return res.end(bytes)
    }
    send(res, 404, { error: 'not_found' })
  }
}

function send (res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

async function readBody (req) {
  const chunks = []
  for await (const c of req) chunks.push(c)
  return Buffer.concat(chunks).toString('utf8')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8787' }, secret: { type: 'string', default: 'dev-gateway-secret' } } })
  const w = await new WorkerContractDouble({ secret: values.secret }).listen(Number(values.port))
  process.stdout.write(JSON.stringify({ ready: true, url: w.url }) + '\n')
}
