import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'

const ALL_DAYS = [true, true, true, true, true, true, true]
const ekey = (over) => ({ kind: 'ekey', access: 'full', tz: 'Europe/Berlin', startDate: '2026-01-01', endDate: null, days: ALL_DAYS, allDay: true, startTime: null, endTime: null, used: false, ...over })
const wholeWeek = (row) => Array.from({ length: 7 }, () => row)

let worker, gw, dir, b1
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'b1', { groupIds: ['g1'] })
  await provisionBoard(worker, 'b2')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, fobs: ['F-1'], phoneKeys: ['P-1'] })
  worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: true, fobs: ['F-2'] })
  worker.change('user', 'upsert', 'u3', { id: 'u3', companyId: 'ACME', active: false, fobs: ['F-3'] })
  worker.change('user', 'upsert', 'u4', { id: 'u4', companyId: 'ACME', active: true })
  worker.change('ekey', 'upsert', 'k-full', { id: 'k-full', deviceId: 'b1', userId: 'u1', window: ekey() })
  worker.change('ekey', 'upsert', 'k-expired', { id: 'k-expired', deviceId: 'b1', userId: 'u2', window: ekey({ access: 'custom', endDate: '2026-01-31' }) })
  worker.change('ekey', 'upsert', 'k-once', { id: 'k-once', deviceId: 'b1', userId: 'u4', window: ekey({ access: 'oneTime', startDate: '2020-01-01' }) })
  worker.change('ekey', 'upsert', 'k-u3', { id: 'k-u3', deviceId: 'b1', userId: 'u3', window: ekey() })
  worker.change('groupKey', 'upsert', 'gk-1', { id: 'gk-1', groupId: 'g1', userId: 'u2', window: { kind: 'group', tz: 'UTC', days: ALL_DAYS, allDay: true, startTime: null, endTime: null } })
  // group keys whose assignment starts later, and one that has started
  worker.change('user', 'upsert', 'u5', { id: 'u5', companyId: 'ACME', active: true, fobs: ['F-5'] })
  worker.change('user', 'upsert', 'u6', { id: 'u6', companyId: 'ACME', active: true, fobs: ['F-6'] })
  worker.change('groupKey', 'upsert', 'gk-later', { id: 'gk-later', groupId: 'g1', userId: 'u5', startDate: '2099-01-05', window: { kind: 'group', tz: 'UTC', days: ALL_DAYS, allDay: true, startTime: null, endTime: null } })
  worker.change('groupKey', 'upsert', 'gk-started', { id: 'gk-started', groupId: 'g1', userId: 'u6', startDate: '2020-01-01', window: { kind: 'group', tz: 'UTC', days: ALL_DAYS, allDay: true, startTime: null, endTime: null } })
  // open every day, first person in: locked until the first authorized entry
  worker.change('scheduledOpen', 'upsert', 'so-acme', { id: 'so-acme', companyId: 'ACME', window: { kind: 'scheduledOpen', tz: 'UTC', fpi: true, firstEntryAt: null, week: wholeWeek({ openWholeDay: true, openTime: '', closeTime: '' }), exceptions: [] } })
  dir = await tempDir()
  gw = await startGateway(worker, dir)
  b1 = await board(gw, 'b1').connect()
})
after(async () => {
  await b1.close()
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

test('a group key opens from its assignment\'s start date, not before', async () => {
  const later = await b1.requestAccess({ type: 'fob', id: 'F-5' })
  assert.equal(later.allowed, false)
  assert.match(later.reason, /not valid before 2099-01-05/)
  const started = await b1.requestAccess({ type: 'fob', id: 'F-6' })
  assert.equal(started.allowed, true, started.reason)
  assert.deepEqual({ id: started.key.id, kind: started.key.kind }, { id: 'gk-started', kind: 'group' })
})

test('decisions for user id, fob and phone key, direct and group keys', async () => {
  const cases = [
    [{ type: 'user', id: 'u1' }, true, 'k-full'],
    [{ type: 'fob', id: 'F-1' }, true, 'k-full'],
    [{ type: 'phone', id: 'P-1' }, true, 'k-full'],
    [{ type: 'fob', id: 'F-2' }, true, 'gk-1'], // the expired e-key does not open, the group key does
    [{ type: 'fob', id: 'F-3' }, false, null], // deactivated user
    [{ type: 'fob', id: 'F-unknown' }, false, null]
  ]
  for (const [credential, allowed, keyId] of cases) {
    const res = await b1.requestAccess(credential)
    assert.equal(res.allowed, allowed, `${JSON.stringify(credential)}: ${res.reason}`)
    assert.equal(res.key?.id ?? null, keyId)
    assert.equal(typeof res.reason, 'string')
  }
  const b2 = await board(gw, 'b2').connect()
  assert.equal((await b2.requestAccess({ type: 'user', id: 'u1' })).allowed, false, 'k-full is for b1 only')
  await b2.close()
})

test('a deactivated company denies its users at every door until it is reactivated', async () => {
  worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: false })
  await gw.syncNow()
  for (const credential of [{ type: 'user', id: 'u1' }, { type: 'fob', id: 'F-2' }]) {
    const res = await b1.requestAccess(credential)
    assert.equal(res.allowed, false, JSON.stringify(credential))
    assert.equal(res.reason, 'Company is deactivated')
  }
  worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: true })
  await gw.syncNow()
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u1' })).allowed, true)
})

test('grants and denials become activity events, one per request even when retried', async () => {
  const duplicatesBefore = worker.duplicates
  const first = await b1.requestAccess({ type: 'user', id: 'u1' }, { corr: 'retry-1' })
  const again = await b1.requestAccess({ type: 'user', id: 'u1' }, { corr: 'retry-1' })
  assert.deepEqual(again, first)
  await b1.requestAccess({ type: 'fob', id: 'F-unknown' }, { corr: 'deny-1' })
  await until(() => worker.rows.has('b1/acc.deny-1'), { what: 'denial row' })
  assert.equal(worker.duplicates, duplicatesBefore, 'the retried request was not even sent twice')
  assert.equal(worker.rows.get('b1/acc.retry-1').type, 'access.granted')
  assert.equal(worker.rows.get('b1/acc.retry-1').data.keyId, 'k-full')
  assert.equal(worker.rows.get('b1/acc.deny-1').type, 'access.denied')
})

test('a one-time key opens once', async () => {
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u4' })).allowed, true)
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u4' })).allowed, false)
})

test('board events reach the Worker once, even when the board resends them', async () => {
  const id = await b1.sendEvent('door.opened')
  await b1.sendEvent('door.opened', {}, { id })
  await b1.sendEvent('battery', { percent: 41 }, { id: 'bat-1' })
  await until(() => worker.rows.has(`b1/${id}`) && worker.rows.has('b1/bat-1'), { what: 'event rows' })
  await b1.sendEvent('battery', { percent: 41 }, { id: 'bat-1' }) // after delivery: the Worker de-duplicates
  await until(() => gw.queue.length === 0)
  assert.equal([...worker.rows.keys()].filter((k) => k === `b1/${id}` || k === 'b1/bat-1').length, 2)
  assert.equal(worker.rows.get('b1/bat-1').data.percent, 41)
})

test('scheduled open with first person in: locked until the first grant, then open for every company door', async () => {
  // The first grants above already happened, so start a fresh day: reset firstEntryAt from the console.
  worker.change('scheduledOpen', 'upsert', 'so-acme', { id: 'so-acme', companyId: 'ACME', window: { kind: 'scheduledOpen', tz: 'UTC', fpi: true, firstEntryAt: Date.parse('2020-01-01T00:00:00Z'), week: wholeWeek({ openWholeDay: true, openTime: '', closeTime: '' }), exceptions: [] } })
  gw.replica.tables.get('scheduledOpen').delete('so-acme') // forget the local first entry, as on a new day
  await gw.syncNow()
  const b2 = await board(gw, 'b2').connect()
  await until(() => b2.last.get('schedule')?.open === false, { what: 'locked schedule' })
  assert.equal(b2.last.get('schedule').fpi, true)
  const opened = b2.next('schedule', { fresh: true })
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u1' })).allowed, true)
  const state = await opened
  assert.equal(state.open, true)
  assert.ok(state.firstEntryAt > Date.parse('2026-01-01'))
  await until(() => [...worker.rows.values()].some((r) => r.type === 'schedule.firstEntry'), { what: 'first entry event' })
  // A door opted out of scheduled open gets no schedule at all.
  const cleared = b2.next('schedule', { fresh: true })
  worker.change('device', 'upsert', 'b2', { id: 'b2', companyId: 'ACME', name: 'Door b2', deviceType: 'AB-200', tz: 'Europe/Berlin', groupIds: [], active: true, scheduleOpen: false })
  await gw.syncNow()
  assert.equal(await cleared, null)
  await b2.close()
})

test('a deactivated device is disconnected and refused at the next sync', async () => {
  const b2 = await board(gw, 'b2').connect()
  const closed = new Promise((resolve) => b2.client.once('close', () => resolve()))
  worker.change('device', 'upsert', 'b2', { id: 'b2', companyId: 'ACME', deviceType: 'AB-200', active: false })
  await gw.syncNow()
  await closed
  await assert.rejects(board(gw, 'b2').connect())
})
