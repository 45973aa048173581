/**
 * `node bench/cell-move.mjs [events] [window]` — a company moves between cells while its board sends
 * events (decision 0053). Two cells, each with its own gateway, one Worker end (the contract double,
 * serving each cell its feed); the board sends `events` (10,000) with `window` (16) unacknowledged at a
 * time, and a quarter of the way in its company is moved. Prints whether every event arrived exactly
 * once (by event id), how many went through each cell, how many the board sent again (no PUBACK before
 * the redirect closed its connection), how many the Worker got twice, and how long the move took the board.
 * Everything runs in this process, on loopback.
 */
import { WorkerContractDouble } from '../test/support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway } from '../test/support/fixtures.js'
import { freePort } from '../test/support/processes.js'

const EVENTS = Number(process.argv[2] ?? 10_000)
const WINDOW = Number(process.argv[3] ?? 16)
const SECRET_B = 'cell-b-bench-secret'

process.env.LOG_LEVEL ??= 'error'
const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
const [portA, portB] = [await freePort(), await freePort()]
const urlB = `mqtt://127.0.0.1:${portB}`
worker.cell('main', { mqttUrl: `mqtt://127.0.0.1:${portA}` }).cell('b', { secret: SECRET_B, mqttUrl: urlB })
worker.change('company', 'upsert', 'MOVER', { id: 'MOVER', name: 'Mover', active: true })
await provisionBoard(worker, 'mover-1', { companyId: 'MOVER' })
const dirs = [await tempDir(), await tempDir()]
const gwA = await startGateway(worker, dirs[0], { gatewayId: 'gw-a', mqttPort: portA, syncIntervalMs: 1000 })
const gwB = await startGateway(worker, dirs[1], { gatewayId: 'gw-b', mqttPort: portB, gatewaySecret: SECRET_B, syncIntervalMs: 1000 })

const b = await board(gwA, 'mover-1', { retryMs: 100 }).connect()
await b.next('config')
let movedAt = 0
let redirectedAt = 0
let arrivedAt = 0
b.once('redirect', () => (redirectedAt = performance.now()))
const ids = Array.from({ length: EVENTS }, (_, i) => `ev-${i}`)
let next = 0
const started = performance.now()
const sender = async () => {
  while (next < ids.length) {
    const id = ids[next++]
    if (next === Math.floor(EVENTS / 4)) {
      movedAt = performance.now()
      worker.moveCompany('MOVER', 'b')
    }
    await b.deliver('door.opened', {}, { id })
    if (!arrivedAt && b.url === urlB) arrivedAt = performance.now()
  }
}
await Promise.all(Array.from({ length: WINDOW }, sender))
const sent = performance.now()
while (!ids.every((id) => worker.rows.has(`mover-1/${id}`))) await new Promise((resolve) => setTimeout(resolve, 50))
const done = performance.now()

const through = { 'gw-a': 0, 'gw-b': 0 }
for (const id of ids) through[worker.rows.get(`mover-1/${id}`).gatewayId]++
const rows = [...worker.rows.keys()].filter((k) => k.startsWith('mover-1/ev-')).length
const s = (ms) => `${(ms / 1000).toFixed(2)} s`
console.log(
  JSON.stringify(
    {
      events: EVENTS,
      window: WINDOW,
      exactlyOnce: rows === EVENTS && through['gw-a'] + through['gw-b'] === EVENTS,
      throughOldCell: through['gw-a'],
      throughNewCell: through['gw-b'],
      resentByTheBoard: b.resent,
      duplicatesAtTheWorker: worker.duplicates,
      boardMoves: b.moves,
      sending: s(sent - started),
      allAtTheWorker: s(done - started),
      moveToRedirect: s(redirectedAt - movedAt),
      moveToFirstEventInNewCell: s(arrivedAt - movedAt)
    },
    null,
    1
  )
)
await b.close()
await gwA.close()
await gwB.close()
await worker.close()
for (const d of dirs) await removeDir(d)
