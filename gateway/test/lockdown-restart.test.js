/**
 * A lockdown holds at the door without the console, across gateway restarts, ends on the gateway's own
 * clock, and an end is not undone by an older start read after it (issue 31, decision 0117). Real
 * gateway, real MQTT board; the console is the contract double, made unreachable as in sync.test.js. The
 * gateway's clock runs from a fixed instant and the test moves it forward, so nothing here depends on when
 * it runs and no step waits for a lockdown's end in real time.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, ALWAYS_OPEN, tempDir, removeDir, provisionBoard, board, startGateway, until, lockdownRecord } from './support/fixtures.js'
import { createGateway } from '../src/gateway.js'

const MINUTE = 60_000
/** Monday 2026-11-23, 17:20 in Madrid when the file starts; the clock then runs, plus what a test skips. */
const T0 = Date.now()
let skipped = 0
const clock = () => Date.parse('2026-11-23T16:20:00Z') + (Date.now() - T0) + skipped
/** Moves the gateway's clock to `at` (forward only). */
const setClock = (at) => {
  skipped += Math.max(0, at - clock())
}

const lockdown = (over) => lockdownRecord({ exemptUserIds: ['u1'], startedAt: clock(), ...over })

let worker, gw, dir, b1
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'b1')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true })
  worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: true })
  worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 'b1', userId: 'u1', window: ALWAYS_OPEN })
  worker.change('ekey', 'upsert', 'k2', { id: 'k2', deviceId: 'b1', userId: 'u2', window: ALWAYS_OPEN })
  dir = await tempDir()
  gw = await startGateway(worker, dir, { now: clock })
  b1 = await board(gw, 'b1').connect()
})
after(async () => {
  await b1?.close()
  await gw?.close()
  await worker.close()
  await removeDir(dir)
})

/** The board's answer for each user, as `{u1, u2}`: true when admitted, else the denial code. */
async function answers() {
  const one = async (id) => {
    const r = await b1.requestAccess({ type: 'user', id })
    return r.allowed ? true : r.code
  }
  return { u1: await one('u1'), u2: await one('u2') }
}

/** Closes the gateway and starts another on the same data dir, with the console unreachable; the board reconnects. */
async function restartOffline() {
  await b1.close()
  await gw.close()
  assert.equal(worker.down, true)
  gw = await createGateway({ dataDir: dir, workerUrl: worker.url, gatewaySecret: SECRET, mqttPort: 0, wsPort: null, gatewayId: 'gw-test', now: clock })
  await assert.rejects(gw.syncNow(), /503/)
  b1 = await board(gw, 'b1').connect()
}

let endsAt
test('a lockdown refuses a user it does not exempt and admits the exempt one', async () => {
  assert.deepEqual(await answers(), { u1: true, u2: true })
  endsAt = clock() + 30 * MINUTE
  worker.change('lockdown', 'upsert', 'ACME', lockdown({ epoch: 1, endsAt }))
  await gw.syncNow()
  assert.deepEqual(await answers(), { u1: true, u2: 'lockdown' })
})

test('with the console unreachable, a restarted gateway keeps deciding by the lockdown', async () => {
  worker.down = true
  await assert.rejects(gw.syncNow(), /503/)
  assert.deepEqual(await answers(), { u1: true, u2: 'lockdown' })
  await restartOffline()
  assert.deepEqual(await answers(), { u1: true, u2: 'lockdown' })
  assert.equal(gw.replica.get('lockdown', 'ACME')?.epoch, 1)
})

test("the automatic end takes effect on the gateway's clock with the console still unreachable, and after a restart", async () => {
  setClock(endsAt - 1000)
  assert.deepEqual(await answers(), { u1: true, u2: 'lockdown' }, 'in force until endsAt')
  setClock(endsAt)
  assert.deepEqual(await answers(), { u1: true, u2: true }, 'over at endsAt')
  await restartOffline()
  assert.equal(gw.replica.get('lockdown', 'ACME')?.active, true, 'the copy still holds the start: the end is the clock')
  assert.deepEqual(await answers(), { u1: true, u2: true })
})

test('back online, an explicit end is not undone by the older start read after it', async () => {
  // The console returns; its sweep wrote the automatic end meanwhile.
  worker.down = false
  worker.change('lockdown', 'upsert', 'ACME', lockdown({ epoch: 2, active: false, endsAt }))
  await gw.syncNow()
  assert.equal(gw.replica.get('lockdown', 'ACME').epoch, 2)
  assert.deepEqual(await answers(), { u1: true, u2: true })

  // A lockdown without an automatic end, ended by hand.
  const start = lockdown({ epoch: 3 })
  worker.change('lockdown', 'upsert', 'ACME', start)
  await gw.syncNow()
  assert.deepEqual(await answers(), { u1: true, u2: 'lockdown' })
  worker.change('lockdown', 'upsert', 'ACME', { ...start, epoch: 4, active: false })
  await gw.syncNow()
  assert.deepEqual(await answers(), { u1: true, u2: true })

  // The start comes again after its end, as when a feed read after a snapshot replays what changed while
  // the snapshot was paged (the snapshot already held the end). The copy keeps the newer end.
  worker.change('lockdown', 'upsert', 'ACME', start)
  await gw.syncNow()
  assert.equal(gw.replica.cursor, String(worker.changes.length), 'the replayed start was read')
  assert.equal(gw.replica.get('lockdown', 'ACME').epoch, 4)
  assert.deepEqual(await answers(), { u1: true, u2: true })

  // And still after a restart without the console.
  worker.down = true
  await restartOffline()
  await until(() => gw.replica.get('lockdown', 'ACME')?.epoch === 4, { what: 'the end kept on disk' })
  assert.deepEqual(await answers(), { u1: true, u2: true })
})
