/**
 * Nothing lost, nothing doubled: 10,000 events sent while the Worker is stopped, the gateway (a child
 * process) SIGKILLed halfway through, restarted; the Worker comes back and the gateway is SIGKILLed
 * again in the middle of delivery. The Worker end must then hold exactly 10,000 rows.
 *
 * Both kills are driven, not timed: the first is sent from the board side at the very PUBACK that
 * completes half the events, the second while a relay in front of the Worker end holds back the
 * answer to a batch the Worker has stored (the gateway sends one batch at a time, so it is certainly
 * mid-delivery, with the crash between "stored" and "acknowledged locally" that de-duplication covers).
 *
 * The Worker end is, by default, the contract test double (support/worker-contract-double.js), which
 * implements docs/gateway-api.md with de-duplication by event id and counts rows. To run the same test
 * against the real console Worker, set WORKER_END to a module exporting `startWorkerEnd()` that returns
 * the same interface as `startDoubleEnd` below: `url`, `boardIds(n)` (provisions n boards whose secret
 * is 'board-secret' and returns their ids), `rows()` (activity rows of this run, may be async),
 * `duplicatesRefused()`, `stop()` / `start()` (stop and start the Worker) and optionally `dispose()`.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, spawnGateway, gatewayStats, until } from './support/fixtures.js'
import { SimBoard } from '../sim/sim-board.js'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

const BOARDS = 10
const PER_BOARD = 1000
const TOTAL = BOARDS * PER_BOARD
const WINDOW = 25 // events in flight per board

const startWorkerEnd = process.env.WORKER_END ? (await import(pathToFileURL(resolve(process.env.WORKER_END)).href)).startWorkerEnd : startDoubleEnd

async function startDoubleEnd() {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const port = Number(new URL(worker.url).port)
  return {
    url: worker.url,
    async boardIds(n) {
      const ids = Array.from({ length: n }, (_, i) => `dur-${i}`)
      for (const id of ids) await provisionBoard(worker, id)
      return ids
    },
    rows: () => worker.rows.size,
    duplicatesRefused: () => worker.duplicates,
    stop: () => worker.close(),
    start: () => worker.listen(port)
  }
}

const CONTRACT_HEADERS = ['authorization', 'x-gateway-id', 'content-type']
// Presence travels in batches of its own (docs/gateway-api.md); every other batch is the boards' events.
const PRESENCE_TYPES = new Set(['board.presence', 'gateway.started'])
const isBoardEventBatch = (url, body) => url === '/api/gateway/events' && JSON.parse(body).events.some((e) => !PRESENCE_TYPES.has(e.type))

/**
 * The gateway's way to the Worker end: passes every request through (502 while the Worker is down),
 * except the one batch of board events `holdBatch(n)` names: the Worker stores it, its answer is never sent.
 */
async function startRelay(target) {
  let batches = 0
  let holdNth = 0
  /** @type {(value?: unknown) => void} */
  let held = () => {}
  const server = createServer(async (req, res) => {
    const body = Buffer.concat(await req.toArray())
    const headers = Object.fromEntries(CONTRACT_HEADERS.filter((h) => req.headers[h]).map((h) => [h, String(req.headers[h])]))
    // The Worker can stop in the middle of an answer (the test stops it): a lost answer is a 502, like none.
    const upstream = await fetch(target + req.url, { method: req.method, headers, body: req.method === 'POST' ? body : undefined })
      .then(async (r) => ({ ok: r.ok, status: r.status, type: r.headers.get('content-type'), answer: Buffer.from(await r.arrayBuffer()) }))
      .catch(() => null)
    if (!upstream) return res.writeHead(502).end()
    if (upstream.ok && isBoardEventBatch(req.url, body) && ++batches === holdNth) return held()
    res.writeHead(upstream.status, { 'content-type': upstream.type ?? 'text/plain' }).end(upstream.answer)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    url: `http://127.0.0.1:${port}`,
    /** Resolves once the Worker stored the `nth` batch of board events from now on; that answer stays held. */
    holdBatch(nth) {
      batches = 0
      holdNth = nth
      return new Promise((resolve) => (held = resolve))
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

/**
 * One board sending its events like real firmware: each event stays in the board's storage until
 * its PUBACK; after a lost connection the board reconnects and resends what was not acknowledged.
 */
async function runBoard(id, port, stats) {
  const todo = Array.from({ length: PER_BOARD }, (_, i) => `${id}-e${i}`)
  while (todo.length > 0) {
    const b = new SimBoard({ url: `mqtt://127.0.0.1:${port()}`, id, password: 'board-secret', subscribe: [], connectTimeoutMs: 2000 })
    try {
      await b.connect()
    } catch {
      b.kill()
      await new Promise((resolve) => setTimeout(resolve, 100))
      continue
    }
    const lost = new Promise((resolve, reject) => b.client.once('close', () => reject(new Error('connection lost'))))
    lost.catch(() => {})
    const sendOne = async (eventId) => {
      await Promise.race([b.sendEvent('sensor', { name: 'temp', value: 20 }, { id: eventId }), lost])
      todo.splice(todo.indexOf(eventId), 1)
      if (++stats.acked === TOTAL / 2) stats.halfway()
    }
    try {
      while (todo.length > 0) await Promise.all(todo.slice(0, WINDOW).map(sendOne))
      await b.close()
    } catch {
      b.kill()
      stats.reconnects++
    }
  }
}

test(`${TOTAL} events survive a stopped Worker and two SIGKILLs, delivered exactly once`, { timeout: 240_000 }, async (t) => {
  const worker = await startWorkerEnd()
  const relay = await startRelay(worker.url)
  const dir = await tempDir('gw-durability-')
  let gw
  try {
    const ids = await worker.boardIds(BOARDS)
    const env = { DATA_DIR: dir, WORKER_URL: relay.url, MQTT_PORT: '0', SYNC_INTERVAL_MS: '200', STATS_INTERVAL_MS: '200', GATEWAY_ID: 'gw-durability' }
    gw = await spawnGateway(env)
    // The gateway learns its boards from the feed, then the Worker goes away.
    const probe = new SimBoard({ url: `mqtt://127.0.0.1:${gw.mqttPort}`, id: ids[0], password: 'board-secret', subscribe: [] })
    await until(
      () =>
        probe.connect().then(
          () => true,
          () => false
        ),
      { what: 'boards provisioned', stepMs: 100 }
    )
    await probe.close()
    await worker.stop()

    const stats = { acked: 0, reconnects: 0, halfway: () => gw.proc.kill('SIGKILL') }
    let port = gw.mqttPort
    const boards = Promise.all(ids.map((id) => runBoard(id, () => port, stats)))

    await gw.exited
    const ackedAtKill = stats.acked
    // PUBACKs already on their way may still count, at most one window per board
    assert.ok(ackedAtKill < TOTAL, `the first kill landed before the boards were done (${ackedAtKill} acknowledged)`)
    gw = await spawnGateway({ ...env, MQTT_PORT: String(port) })
    await boards
    assert.equal(stats.acked, TOTAL)
    assert.equal(await worker.rows(), 0, 'the Worker was down the whole time')

    const midDelivery = relay.holdBatch(3)
    await worker.start()
    await midDelivery
    gw.proc.kill('SIGKILL')
    await gw.exited
    const rowsAtSecondKill = await worker.rows()
    assert.ok(rowsAtSecondKill > 0 && rowsAtSecondKill < TOTAL, `the second kill landed mid-delivery (${rowsAtSecondKill} of ${TOTAL} rows)`)
    gw = await spawnGateway({ ...env, MQTT_PORT: String(port) })
    // An empty queue means every event was answered by the Worker and none will be sent again.
    await gatewayStats(gw.mqttPort, env.GATEWAY_ID, (s) => s.events.queued === 0)

    assert.equal(await worker.rows(), TOTAL)
    t.diagnostic(
      `acked at first kill ${ackedAtKill}, board reconnects ${stats.reconnects}, rows at second kill ${rowsAtSecondKill}, duplicates refused by the Worker ${worker.duplicatesRefused()}`
    )
  } finally {
    gw?.proc.kill('SIGKILL')
    await gw?.exited
    await relay.close()
    await (worker.dispose ?? worker.stop)().catch(() => {})
    await removeDir(dir)
  }
})
