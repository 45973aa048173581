import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { createGateway } from '../src/gateway.js'
import { decideAccess } from '../src/access/decide.js'
import { WorkerError } from '../src/sync/worker-client.js'
import { ALWAYS_OPEN as ALWAYS, SECRET, tempDir, removeDir, provisionBoard, board, startGateway } from './support/fixtures.js'

test('the change feed resumes from the stored cursor, pages through, and restarts from a snapshot on 410', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  try {
    await provisionBoard(worker, 's1')
    for (let i = 0; i < 1200; i++) worker.change('user', 'upsert', `u${i}`, { id: `u${i}`, companyId: 'ACME', active: true })
    let gw = await startGateway(worker, dir)
    assert.equal(gw.replica.all('user').length, 1200, 'three pages of 500 applied')
    assert.equal(gw.replica.cursor, String(worker.changes.length))
    await gw.close()

    // While the gateway is down: a key is added, a user is removed.
    worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 's1', userId: 'u7', fob: 'F7', window: ALWAYS })
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
    worker.change('user', 'upsert', 'u10', { id: 'u10', companyId: 'ACME', active: true })
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

test('a snapshot in several pages replaces the copy at once; one cut short leaves the copy as it was', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  try {
    await provisionBoard(worker, 's3')
    worker.change('user', 'upsert', 'old', { id: 'old', companyId: 'ACME', active: true })
    worker.change('ekey', 'upsert', 'k-old', { id: 'k-old', deviceId: 's3', userId: 'old', fob: 'F-old', window: ALWAYS })
    const gw = await startGateway(worker, dir)
    const opensForOld = () => decideAccess(gw.replica, 's3', { type: 'fob', id: 'F-old' }, Date.now()).allowed
    assert.equal(opensForOld(), true)

    // The snapshot's second page fails, whichever sync (this one or the background loop) gets there.
    let cut = true
    const changes = gw.worker.changes.bind(gw.worker)
    gw.worker.changes = async (cursor, limit) => {
      if (cut && cursor?.startsWith('s')) throw new WorkerError('GET /api/gateway/changes: 503', 503)
      return changes(cursor, limit)
    }
    const applied = []
    gw.replica.onChange((changes, reset) => applied.push({ changes: changes.length, reset }))
    const cursorBefore = gw.replica.cursor
    // History pruned past our cursor: 410, then a snapshot of three pages without 'old'.
    worker.change('user', 'delete', 'old')
    for (let i = 0; i < 1200; i++) worker.change('user', 'upsert', `n${i}`, { id: `n${i}`, companyId: 'ACME', active: true })
    worker.oldestKept = worker.changes.length

    await assert.rejects(gw.syncNow(), /503/)
    assert.deepEqual(applied, [])
    assert.equal(gw.replica.cursor, cursorBefore)
    assert.equal(opensForOld(), true, 'still deciding from the previous copy')

    cut = false
    await gw.syncNow()
    assert.deepEqual(applied, [{ changes: 0, reset: true }], 'all three pages switched in as one reset')
    assert.equal(gw.replica.all('user').length, 1200)
    assert.equal(gw.replica.cursor, String(worker.changes.length))
    assert.equal(opensForOld(), false)
    await gw.close()
  } finally {
    await worker.close()
    await removeDir(dir)
  }
})

test("a deactivated company's users are denied after one sync, and still with the Worker unreachable", async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  try {
    await provisionBoard(worker, 's4')
    worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: true })
    worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true })
    worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 's4', userId: 'u1', fob: 'F1', window: ALWAYS })
    let gw = await startGateway(worker, dir)
    let b = await board(gw, 's4').connect()
    assert.equal((await b.requestAccess({ type: 'fob', id: 'F1' })).allowed, true)

    // Only the company record changes: the user, device and key records still say active.
    worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: false })
    await gw.syncNow()
    const denied = await b.requestAccess({ type: 'fob', id: 'F1' })
    assert.equal(denied.allowed, false)
    assert.equal(denied.reason, 'Company is deactivated')
    await b.close()
    await gw.close()

    worker.down = true
    gw = await createGateway({ dataDir: dir, workerUrl: worker.url, gatewaySecret: SECRET, mqttPort: 0, wsPort: null, gatewayId: 'gw-offline' })
    await assert.rejects(gw.syncNow(), /503/)
    b = await board(gw, 's4').connect()
    assert.equal((await b.requestAccess({ type: 'fob', id: 'F1' })).allowed, false)
    assert.equal((await b.requestAccess({ type: 'user', id: 'u1' })).reason, 'Company is deactivated')
    await b.close()
    await gw.close()
  } finally {
    await worker.close()
    await removeDir(dir)
  }
})
