/**
 * The bench's Worker end in its own process (`fork`ed by bench.mjs): the contract test double,
 * provisioned with the bench's boards, users, keys and firmware image. In production the console Worker
 * runs elsewhere; inside the boards' process its batch handling would add to every measured latency.
 * IPC: sends `{url}` once listening; answers `'rows'` with `{rows}`; exits on disconnect.
 */
import { randomBytes } from 'node:crypto'
import { WorkerContractDouble } from '../test/support/worker-contract-double.js'
import { SECRET } from '../test/support/fixtures.js'
import { hashSecret } from '../src/password.js'

const [boards, fwSize, reconnectBoards = 0, pbkdf2Boards = 0] = process.argv.slice(2).map(Number)

/**
 * Boards for the authentication figures: `rc-<i>` with the console's hmac-sha256 hash, `pb-<i>` with
 * the earlier PBKDF2-SHA256 at 100,000 iterations (one hash string shared: the gateway's cache is
 * keyed by board, so each board still costs one PBKDF2 after a restart).
 */
async function provisionAuth(worker) {
  const hmac = await hashSecret('bench-secret')
  const pbkdf2 = await hashSecret('bench-secret', { algorithm: 'pbkdf2-sha256', iterations: 100_000 })
  const board = (id, hash) => {
    worker.change('device', 'upsert', id, { id, companyId: 'AUTH', name: id, deviceType: 'AB-100', tz: 'UTC', groupIds: [], active: true })
    worker.change('boardCredential', 'upsert', id, { deviceId: id, hash })
  }
  for (let i = 0; i < reconnectBoards; i++) board(`rc-${i}`, hmac)
  for (let i = 0; i < pbkdf2Boards; i++) board(`pb-${i}`, pbkdf2)
}

async function provision(worker) {
  const hash = await hashSecret('bench-secret')
  const always = {
    kind: 'ekey',
    access: 'full',
    tz: 'Europe/Berlin',
    startDate: '2026-01-01',
    endDate: null,
    days: [true, true, true, true, true, true, true],
    allDay: true,
    startTime: null,
    endTime: null,
    used: false
  }
  const weekdays = {
    kind: 'ekey',
    access: 'custom',
    tz: 'America/New_York',
    startDate: '2026-01-01',
    endDate: null,
    days: [true, true, true, true, true, false, false],
    allDay: false,
    startTime: '08:00',
    endTime: '17:30',
    used: false
  }
  for (let i = 0; i < boards; i++) {
    const id = `bench-${i}`
    worker.change('device', 'upsert', id, { id, companyId: 'BENCH', name: id, deviceType: 'AB-200', tz: 'Europe/Berlin', groupIds: [], active: true })
    worker.change('boardCredential', 'upsert', id, { deviceId: id, hash })
    worker.change('user', 'upsert', `u-${i}`, { id: `u-${i}`, companyId: 'BENCH', active: true })
    // a closed key first, so every decision evaluates two windows in their own zones
    worker.change('ekey', 'upsert', `kw-${i}`, { id: `kw-${i}`, deviceId: id, userId: `u-${i}`, fob: `F-${i}`, window: weekdays })
    worker.change('ekey', 'upsert', `ka-${i}`, { id: `ka-${i}`, deviceId: id, userId: `u-${i}`, fob: `F-${i}`, window: always })
  }
  worker.addFirmware({ id: 'fw-bench', deviceType: 'AB-200', version: '9.9.9', bytes: randomBytes(fwSize) })
}

const worker = new WorkerContractDouble({ secret: SECRET })
await provision(worker)
await provisionAuth(worker)
await worker.listen()
process.on('message', (m) => {
  if (m === 'rows') process.send({ rows: worker.rows.size })
})
process.on('disconnect', () => worker.close().then(() => process.exit(0)))
process.send({ url: worker.url })
