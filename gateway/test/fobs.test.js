import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { ALWAYS_OPEN as ALWAYS, SECRET, tempDir, removeDir, provisionBoard, board, startGateway } from './support/fixtures.js'

// Fobs are credentials of the keys they were given on, looked up within the door's company.
const GROUP_ALWAYS = { kind: 'group', tz: 'UTC', days: [true, true, true, true, true, true, true], allDay: true, startTime: null, endTime: null }

let worker, gw, dir, a1, a2, b1
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'a1', { companyId: 'ACME', groupIds: ['ga'] })
  await provisionBoard(worker, 'a2', { companyId: 'ACME' })
  await provisionBoard(worker, 'b1', { companyId: 'BETA' })
  worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: true })
  worker.change('company', 'upsert', 'BETA', { id: 'BETA', active: true })
  worker.change('user', 'upsert', 'ann', { id: 'ann', companyId: 'ACME', active: true })
  worker.change('user', 'upsert', 'bob', { id: 'bob', companyId: 'BETA', active: true })
  // Ann's fob rides on her key for a1 only; her key for a2 was given without a fob.
  worker.change('ekey', 'upsert', 'ka1', { id: 'ka1', deviceId: 'a1', userId: 'ann', companyId: 'ACME', fob: '0042', window: ALWAYS })
  worker.change('ekey', 'upsert', 'ka2', { id: 'ka2', deviceId: 'a2', userId: 'ann', companyId: 'ACME', fob: null, window: ALWAYS })
  // BETA gives Bob the same number afterwards: last in the feed, it must not take over ACME's fob.
  worker.change('ekey', 'upsert', 'kb1', { id: 'kb1', deviceId: 'b1', userId: 'bob', companyId: 'BETA', fob: '0042', window: ALWAYS })
  dir = await tempDir()
  gw = await startGateway(worker, dir)
  a1 = await board(gw, 'a1').connect()
  a2 = await board(gw, 'a2').connect()
  b1 = await board(gw, 'b1').connect()
})
after(async () => {
  for (const b of [a1, a2, b1]) await b.close()
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

test("the same fob number in two companies opens each company's own doors for its own holder", async () => {
  const ann = await a1.requestAccess({ type: 'fob', id: '0042' })
  assert.equal(ann.allowed, true, ann.reason)
  assert.equal(ann.key.id, 'ka1')
  const bob = await b1.requestAccess({ type: 'fob', id: '0042' })
  assert.equal(bob.allowed, true, bob.reason)
  assert.equal(bob.key.id, 'kb1')
})

test('a user id or phone key of another company is unknown at this door', async () => {
  const other = await b1.requestAccess({ type: 'user', id: 'ann' })
  assert.equal(other.allowed, false)
  assert.equal(other.reason, 'Unknown credential')
})

test('a fob opens only with the keys it was given on', async () => {
  const res = await a2.requestAccess({ type: 'fob', id: '0042' })
  assert.equal(res.allowed, false)
  // the user id still opens a2 with the key that carries no fob
  assert.equal((await a2.requestAccess({ type: 'user', id: 'ann' })).allowed, true)
})

test('a fob given on a group key opens the doors of that group', async () => {
  worker.change('groupKey', 'upsert', 'gk', { id: 'gk', groupId: 'ga', userId: 'ann', companyId: 'ACME', fob: '0077', window: GROUP_ALWAYS })
  await gw.syncNow()
  const res = await a1.requestAccess({ type: 'fob', id: '0077' })
  assert.equal(res.allowed, true, res.reason)
  assert.equal(res.key.id, 'gk')
  worker.change('groupKey', 'delete', 'gk')
  await gw.syncNow()
  assert.equal((await a1.requestAccess({ type: 'fob', id: '0077' })).allowed, false)
})

test('removing the key that carries a fob revokes the fob at once', async () => {
  worker.change('ekey', 'delete', 'ka1')
  await gw.syncNow()
  const res = await a1.requestAccess({ type: 'fob', id: '0042' })
  assert.equal(res.allowed, false)
  assert.equal(res.reason, 'Unknown credential')
})
