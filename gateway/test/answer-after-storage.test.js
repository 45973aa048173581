import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'

const ALL_DAYS = [true, true, true, true, true, true, true]
const always = { kind: 'ekey', access: 'full', tz: 'UTC', startDate: '2026-01-01', endDate: null, days: ALL_DAYS, allDay: true, startTime: null, endTime: null, used: false }
const queued = (id) => gw.queue.peek(100_000).filter((e) => e.id === id).length
/** Stored now, or already delivered to the console. */
const recorded = (id) => queued(id) > 0 || worker.rows.has(id)

let worker, gw, dir
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'b1')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true })
  worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 'b1', userId: 'u1', fob: 'F-1', window: always })
  dir = await tempDir()
  gw = await startGateway(worker, dir)
})
after(async () => {
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

/** Resolves at the next PUBACK the board receives. */
function nextPuback(b) {
  return new Promise((resolve) => {
    const onPacket = (p) => {
      if (p.cmd !== 'puback') return
      b.client.off('packetreceive', onPacket)
      resolve()
    }
    b.client.on('packetreceive', onPacket)
  })
}

/** Holds every event the gateway stores until `release()`; `fail()` makes the held ones fail instead. */
function holdStorage() {
  const push = gw.queue.pushPrepared.bind(gw.queue)
  const held = []
  gw.queue.pushPrepared = (event) => new Promise((resolve, reject) => held.push({ go: () => push(event).then(resolve, reject), fail: () => reject(new Error('disk full')) }))
  return {
    held,
    release() {
      gw.queue.pushPrepared = push
      for (const h of held.splice(0)) h.go()
    },
    fail() {
      gw.queue.pushPrepared = push
      for (const h of held.splice(0)) h.fail()
    }
  }
}

test('the answer does not wait for storage; the PUBACK does', async () => {
  const b1 = await board(gw, 'b1').connect()
  const storage = holdStorage()
  try {
    let acked = false
    const puback = nextPuback(b1).then(() => (acked = true))
    const res = await b1.requestAccess({ type: 'fob', id: 'F-1' }, { corr: 'held-1' })
    assert.equal(res.allowed, true)
    await until(() => storage.held.length === 1, { what: 'the decision to be stored' })
    // Written to the connection after the point where an early PUBACK would have been: it arrives after one.
    const cmd = b1.next('cmd', { fresh: true })
    await gw.sendCommand('b1', { id: 'after-answer', cmd: 'ping' })
    await cmd
    assert.equal(acked, false, 'no PUBACK before the event is stored')
    storage.release()
    await puback
    assert.ok(recorded('b1/gw/acc.held-1'))
  } finally {
    storage.release()
    await b1.close()
  }
})

test('when the event cannot be stored, the resent request gets the same answer and is recorded once', async () => {
  const b1 = await board(gw, 'b1').connect()
  const storage = holdStorage()
  const closed = new Promise((resolve) => b1.client.once('close', () => resolve()))
  const first = await b1.requestAccess({ type: 'fob', id: 'F-1' }, { corr: 'lost-1' })
  await until(() => storage.held.length === 1, { what: 'the decision to be stored' })
  storage.fail()
  await closed // no PUBACK: the gateway drops the connection so the board resends
  b1.kill()
  assert.equal(queued('b1/gw/acc.lost-1'), 0)

  const again = await board(gw, 'b1').connect()
  const stores = []
  const push = gw.queue.pushPrepared.bind(gw.queue)
  gw.queue.pushPrepared = async (event) => {
    const stored = await push(event)
    if (stored) stores.push(event.id)
    return stored
  }
  try {
    const res = await again.requestAccess({ type: 'fob', id: 'F-1' }, { corr: 'lost-1' })
    assert.deepEqual(res, first, 'the same answer, not a second decision')
    await until(() => recorded('b1/gw/acc.lost-1'), { what: 'the resent decision to be stored' })
    // its PUBACK comes once the gateway is done with it, a second store included
    const handled = nextPuback(again)
    assert.deepEqual(await again.requestAccess({ type: 'fob', id: 'F-1' }, { corr: 'lost-1' }), first)
    await handled
    assert.deepEqual(stores, ['b1/gw/acc.lost-1'], 'stored once, not again for the second resend')
  } finally {
    gw.queue.pushPrepared = push
    await again.close()
  }
})
