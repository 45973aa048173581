import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, boardHash, deviceRecord, tempDir, removeDir, board, startGateway } from './support/fixtures.js'

// Door alarms (decision 0076): the door's held-open threshold reaches its board in the retained
// configuration, over a real MQTT connection, and a changed threshold is published again.
let worker, gw, dir
const door = (over) => deviceRecord('h1', { name: 'Loading door', ...over })

before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.change('device', 'upsert', 'h1', door({ heldOpenMs: 30_000 }))
  worker.change('boardCredential', 'upsert', 'h1', { deviceId: 'h1', hash: await boardHash() })
  dir = await tempDir()
  gw = await startGateway(worker, dir)
})
after(async () => {
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

test("the board's configuration carries the door's held-open threshold, and its changes", async () => {
  const b = await board(gw, 'h1').connect()
  assert.equal((await b.next('config')).heldOpenMs, 30_000)
  worker.change('device', 'upsert', 'h1', door({ heldOpenMs: 90_000 }))
  let published = b.next('config', { fresh: true })
  await gw.syncNow()
  assert.equal((await published).heldOpenMs, 90_000)
  // No threshold: no held-open alarm, so the field is left out.
  worker.change('device', 'upsert', 'h1', door({}))
  published = b.next('config', { fresh: true })
  await gw.syncNow()
  assert.equal('heldOpenMs' in (await published), false)
  await b.close()
})
