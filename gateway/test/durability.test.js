/**
 * Nothing lost, nothing doubled: 10,000 events sent while the Worker is stopped, the gateway (a child
 * process) SIGKILLed halfway through, restarted; the Worker comes back and the gateway is SIGKILLed
 * again in the middle of delivery. The Worker end must then hold exactly 10,000 rows.
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
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, spawnGateway, until } from './support/fixtures.js'
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
      stats.acked++
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
  const dir = await tempDir('gw-durability-')
  let gw
  try {
    const ids = await worker.boardIds(BOARDS)
    const env = { DATA_DIR: dir, WORKER_URL: worker.url, MQTT_PORT: '0', SYNC_INTERVAL_MS: '200', GATEWAY_ID: 'gw-durability' }
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

    const stats = { acked: 0, reconnects: 0 }
    let port = gw.mqttPort
    const boards = Promise.all(ids.map((id) => runBoard(id, () => port, stats)))

    await until(() => stats.acked >= TOTAL / 2, { timeoutMs: 120_000, what: 'half the events', stepMs: 5 })
    gw.proc.kill('SIGKILL')
    await gw.exited
    const ackedAtKill = stats.acked
    gw = await spawnGateway({ ...env, MQTT_PORT: String(port) })
    await boards
    assert.equal(stats.acked, TOTAL)
    assert.equal(await worker.rows(), 0, 'the Worker was down the whole time')

    await worker.start()
    await until(async () => (await worker.rows()) >= TOTAL / 3, { timeoutMs: 60_000, what: 'delivery to start', stepMs: 2 })
    gw.proc.kill('SIGKILL')
    await gw.exited
    const rowsAtSecondKill = await worker.rows()
    gw = await spawnGateway({ ...env, MQTT_PORT: String(port) })
    await until(async () => (await worker.rows()) >= TOTAL, { timeoutMs: 120_000, what: 'all rows', stepMs: 250 })
    await new Promise((resolve) => setTimeout(resolve, 1500)) // anything doubled would show up now

    assert.equal(await worker.rows(), TOTAL)
    t.diagnostic(
      `acked at first kill ${ackedAtKill}, board reconnects ${stats.reconnects}, rows at second kill ${rowsAtSecondKill}, duplicates refused by the Worker ${worker.duplicatesRefused()}`
    )
  } finally {
    gw?.proc.kill('SIGKILL')
    await gw?.exited
    await (worker.dispose ?? worker.stop)().catch(() => {})
    await removeDir(dir)
  }
})
