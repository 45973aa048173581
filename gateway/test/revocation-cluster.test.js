/**
 * Cluster instances (shared Redis) publish the same revocation list: they follow the same feed and
 * round `before` to the minute, and an instance started with an empty data directory takes in the lists
 * already retained, so what it publishes never drops the others' entries.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, ALWAYS_OPEN, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'
import { startRedis } from './support/processes.js'

test('two instances agree on the list, and a new instance keeps what the others published', async () => {
  const redis = await startRedis()
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'r1')
  await provisionBoard(worker, 'r2')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: [] })
  worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: true, phoneKeys: [] })
  worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 'r1', userId: 'u1', companyId: 'ACME', window: ALWAYS_OPEN })
  // One fixed instant for every instance: the test must not straddle a minute boundary between them.
  const now = () => Date.parse('2026-11-23T16:20:10Z')
  const dirs = [await tempDir(), await tempDir(), await tempDir()]
  const start = (dir, id, feed = worker) => startGateway(feed, dir, { redisUrl: redis.url, gatewayId: id, now, revocationDelayMs: 50 })
  const a = await start(dirs[0], 'gw-a')
  const b = await start(dirs[1], 'gw-b')
  let c, live
  const onB = board(b, 'r1')
  try {
    await onB.connect()
    worker.change('ekey', 'delete', 'k1')
    worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: false, phoneKeys: [] })
    await Promise.all([a.syncNow(), b.syncNow()])
    assert.deepEqual(a.revocations.list('ACME'), b.revocations.list('ACME'))
    assert.equal(a.revocations.list('ACME').length, 2)
    await until(() => onB.last.get('config')?.revoked?.length === 2, { what: 'the list on the board' })
    assert.deepEqual(onB.last.get('config').revoked, a.revocations.list('ACME'))

    // A third instance with nothing on disk: its first snapshot (the live records only, as the console
    // sends it; the double replays its whole log, so a second double holds that state) withdraws nothing
    // it could see, but it adopts the retained lists, so its own publication keeps them.
    live = await new WorkerContractDouble({ secret: SECRET }).listen()
    await provisionBoard(live, 'r1')
    await provisionBoard(live, 'r2')
    live.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: [] })
    live.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: false, phoneKeys: [] })
    c = await start(dirs[2], 'gw-c', live)
    assert.deepEqual(c.revocations.list('ACME'), a.revocations.list('ACME'))
    live.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: false, phoneKeys: [] })
    await c.syncNow()
    await until(() => onB.last.get('config')?.revoked?.length === 3, { what: 'the third instance publication' })
    assert.deepEqual(
      onB.last
        .get('config')
        .revoked.map((e) => e.sub ?? e.key)
        .sort(),
      ['k1', 'u1', 'u2']
    )
    // Let the new instance finish the publications its start began before the teardown closes Redis.
    await new Promise((resolve) => setTimeout(resolve, 500))
  } finally {
    await onB.close()
    await c?.close()
    await b.close()
    await a.close()
    await worker.close()
    await live?.close()
    await redis.stop()
    for (const d of dirs) await removeDir(d)
  }
})
