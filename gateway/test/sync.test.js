import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { createGateway } from '../src/gateway.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway } from './support/fixtures.js'

const ALWAYS = { kind: 'ekey', access: 'full', tz: 'UTC', startDate: '2026-01-01', endDate: null, days: [true, true, true, true, true, true, true], allDay: true, startTime: null, endTime: null, used: false }

test('the change feed resumes from the stored cursor, pages through, and restarts from a snapshot on 410', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  try {
    await provisionBoard(worker, 's1')
    for (let i = 0; i < 1200; i++) worker.change('user', 'upsert', `u${i}`, { id: `u${i}`, companyId: 'ACME', active: true, fobs: [`F${i}`] })
    let gw = await startGateway(worker, dir)
    assert.equal(gw.replica.all('user').length, 1200, 'three pages of 500 applied')
    assert.equal(gw.replica.cursor, String(worker.changes.length))
    await gw.close()

    // While the gateway is down: a key is added, a user is removed.
    worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 's1', userId: 'u7', window: ALWAYS })
    worker.change('user', 'delete', 'u8')
    worker.cursorsSeen.length = 0
    gw = await startGateway(worker, dir)
    assert.equal(worker.cursorsSeen[0], '1202', 'resumed where it stopped, not from the start')
    assert.equal(gw.replica.get('user', 'u8'), undefined)
    const b = await board(gw, 's1').connect()
    assert.equal((await b.requestAccess({ type: 'fob', id: 'F7' })).allowed, true)
    await b.close()
    await gw.close()

    // The Worker pruned its history past our cursor: 410, then a snapshot with reset.
    worker.change('user', 'upsert', 'u9', { id: 'u9', companyId: 'ACME', active: false })
    worker.oldestKept = worker.changes.length
    worker.cursorsSeen.length = 0
    gw = await startGateway(worker, dir)
    assert.deepEqual(worker.cursorsSeen.slice(0, 2), ['1204', null])
    assert.equal(gw.replica.get('user', 'u9').active, false)
    assert.equal(gw.replica.all('user').length, 1199)
    await gw.close()
  } finally {
    await worker.close()
    await removeDir(dir)
  }
})

test('with the Worker unreachable, a restarted gateway decides from its stored copy', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  try {
    await provisionBoard(worker, 's2')
    worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: ['P1'] })
    worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 's2', userId: 'u1', window: ALWAYS })
    let gw = await startGateway(worker, dir)
    await gw.close()
    worker.down = true
    gw = await createGateway({ dataDir: dir, workerUrl: worker.url, gatewaySecret: SECRET, mqttPort: 0, wsPort: null, gatewayId: 'gw-offline' })
    await assert.rejects(gw.syncNow(), /503/)
    const b = await board(gw, 's2').connect()
    const res = await b.requestAccess({ type: 'phone', id: 'P1' })
    assert.equal(res.allowed, true)
    assert.equal(res.key.id, 'k1')
    await b.close()
    await gw.close()
  } finally {
    await worker.close()
    await removeDir(dir)
  }
})
