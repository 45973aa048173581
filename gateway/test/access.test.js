import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, deviceRecord, board, startGateway, until } from './support/fixtures.js'
import { decide } from '../src/access/core.js'

const ALL_DAYS = [true, true, true, true, true, true, true]
const ekey = (over) => ({
  kind: 'ekey',
  access: 'full',
  tz: 'Europe/Berlin',
  startDate: '2026-01-01',
  endDate: null,
  days: ALL_DAYS,
  allDay: true,
  startTime: null,
  endTime: null,
  used: false,
  ...over
})
const wholeWeek = (row) => Array.from({ length: 7 }, () => row)
/** The gateway's clock in this file: Monday 2026-11-23, 17:20 in Madrid. Nothing here reads the real time. */
const NOW = Date.parse('2026-11-23T16:20:00Z')
/** A calendar date a month away (UTC): a key starting then is not valid yet. */
const IN_30_DAYS = new Date(NOW + 30 * 86_400_000).toISOString().slice(0, 10)

let worker, gw, dir, b1
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'b1', { groupIds: ['g1'] })
  await provisionBoard(worker, 'b2')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: ['P-1'] })
  worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: true })
  worker.change('user', 'upsert', 'u3', { id: 'u3', companyId: 'ACME', active: false })
  worker.change('user', 'upsert', 'u4', { id: 'u4', companyId: 'ACME', active: true })
  worker.change('ekey', 'upsert', 'k-full', { id: 'k-full', deviceId: 'b1', userId: 'u1', fob: 'F-1', window: ekey() })
  worker.change('ekey', 'upsert', 'k-expired', { id: 'k-expired', deviceId: 'b1', userId: 'u2', fob: 'F-2', window: ekey({ access: 'custom', endDate: '2026-01-31' }) })
  worker.change('ekey', 'upsert', 'k-once', { id: 'k-once', deviceId: 'b1', userId: 'u4', window: ekey({ access: 'oneTime', startDate: '2020-01-01' }) })
  worker.change('ekey', 'upsert', 'k-u3', { id: 'k-u3', deviceId: 'b1', userId: 'u3', fob: 'F-3', window: ekey() })
  worker.change('groupKey', 'upsert', 'gk-1', {
    id: 'gk-1',
    groupId: 'g1',
    userId: 'u2',
    fob: 'F-2',
    window: { kind: 'group', tz: 'UTC', days: ALL_DAYS, allDay: true, startTime: null, endTime: null }
  })
  // group keys whose assignment starts later, and one that has started
  worker.change('user', 'upsert', 'u5', { id: 'u5', companyId: 'ACME', active: true })
  worker.change('user', 'upsert', 'u6', { id: 'u6', companyId: 'ACME', active: true })
  worker.change('groupKey', 'upsert', 'gk-later', {
    id: 'gk-later',
    groupId: 'g1',
    userId: 'u5',
    fob: 'F-5',
    startDate: '2099-01-05',
    window: { kind: 'group', tz: 'UTC', days: ALL_DAYS, allDay: true, startTime: null, endTime: null }
  })
  worker.change('groupKey', 'upsert', 'gk-started', {
    id: 'gk-started',
    groupId: 'g1',
    userId: 'u6',
    fob: 'F-6',
    startDate: '2020-01-01',
    window: { kind: 'group', tz: 'UTC', days: ALL_DAYS, allDay: true, startTime: null, endTime: null }
  })
  worker.change('user', 'upsert', 'u7', { id: 'u7', companyId: 'ACME', active: true })
  worker.change('groupKey', 'upsert', 'gk-soon', {
    id: 'gk-soon',
    groupId: 'g1',
    userId: 'u7',
    fob: 'F-7',
    startDate: IN_30_DAYS,
    window: { kind: 'group', tz: 'UTC', days: ALL_DAYS, allDay: true, startTime: null, endTime: null }
  })
  // open every day, first person in: locked until the first authorized entry
  worker.change('scheduledOpen', 'upsert', 'so-acme', {
    id: 'so-acme',
    companyId: 'ACME',
    window: { kind: 'scheduledOpen', tz: 'UTC', fpi: true, firstEntryAt: null, week: wholeWeek({ openWholeDay: true, openTime: '', closeTime: '' }), exceptions: [] }
  })
  dir = await tempDir()
  gw = await startGateway(worker, dir, { now: () => NOW })
  b1 = await board(gw, 'b1').connect()
})
after(async () => {
  await b1.close()
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

test("a group key opens from its assignment's start date, not before", async () => {
  const later = await b1.requestAccess({ type: 'fob', id: 'F-5' })
  assert.equal(later.allowed, false)
  assert.match(later.reason, /not valid before 2099-01-05/)
  assert.equal(later.code, 'not_yet_valid')
  assert.equal(later.nextOpen, null, 'nothing opens within the next five years')
  const soon = await b1.requestAccess({ type: 'fob', id: 'F-7' })
  assert.equal(soon.code, 'not_yet_valid')
  assert.equal(soon.nextOpen, `${IN_30_DAYS}T00:00:00.000Z`, 'the instant it next opens, beside the sentence')
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
    [{ type: 'fob', id: 'F-3' }, false, null, 'user_inactive'],
    [{ type: 'fob', id: 'F-unknown' }, false, null, 'unknown_credential']
  ]
  for (const [credential, allowed, keyId, code] of cases) {
    const res = await b1.requestAccess(credential)
    assert.equal(res.allowed, allowed, `${JSON.stringify(credential)}: ${res.reason}`)
    assert.equal(res.key?.id ?? null, keyId)
    assert.equal(typeof res.reason, 'string')
    if (allowed) assert.equal(res.code, undefined)
    else assert.deepEqual({ code: res.code, nextOpen: res.nextOpen }, { code, nextOpen: null })
  }
  const b2 = await board(gw, 'b2').connect()
  const elsewhere = await b2.requestAccess({ type: 'user', id: 'u1' })
  assert.equal(elsewhere.allowed, false, 'k-full is for b1 only')
  assert.deepEqual({ code: elsewhere.code, reason: elsewhere.reason }, { code: 'no_key', reason: 'no key for this door' })
  await b2.close()
})

test("denials by the core carry a stable code and the instant the user's soonest key next opens", () => {
  const at = Date.parse('2026-03-14T16:00:00Z') // a Saturday, 17:00 in Berlin
  const weekdays = ekey({ access: 'custom', days: [true, true, true, true, true, false, false], allDay: false, startTime: '08:00', endTime: '17:30' })
  const outside = decide([{ id: 'k', kind: 'ekey', window: weekdays }], at)
  assert.deepEqual(
    { allowed: outside.allowed, code: outside.code, nextOpen: outside.nextOpen },
    { allowed: false, code: 'outside_schedule', nextOpen: Date.parse('2026-03-16T07:00:00Z') }
  )
  assert.match(outside.reason, /next opens Mon 08:00/)
  const cases = [
    [ekey({ access: 'custom', endDate: '2026-01-31' }), 'expired'],
    [ekey({ access: 'oneTime', used: true }), 'key_used'],
    [ekey({ access: 'custom', startDate: '2026-04-01' }), 'not_yet_valid'],
    [ekey({ tz: 'Mars/Olympus' }), 'invalid_key']
  ]
  for (const [window, code] of cases) assert.equal(decide([{ id: 'k', kind: 'ekey', window }], at).code, code, JSON.stringify(window))
  assert.equal(decide([], at).code, 'no_key')
  assert.equal(decide([{ id: 'k', kind: 'ekey', window: ekey() }], at).code, null)
})

test('a deactivated company denies its users at every door until it is reactivated', async () => {
  worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: false })
  await gw.syncNow()
  for (const credential of [
    { type: 'user', id: 'u1' },
    { type: 'fob', id: 'F-2' }
  ]) {
    const res = await b1.requestAccess(credential)
    assert.equal(res.allowed, false, JSON.stringify(credential))
    assert.equal(res.reason, 'Company is deactivated')
    assert.equal(res.code, 'company_inactive')
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
  await until(() => worker.rows.has('b1/gw/acc.deny-1'), { what: 'denial row' })
  assert.equal(worker.duplicates, duplicatesBefore, 'the retried request was not even sent twice')
  assert.equal(worker.rows.get('b1/gw/acc.retry-1').type, 'access.granted')
  assert.equal(worker.rows.get('b1/gw/acc.retry-1').data.keyId, 'k-full')
  assert.equal(worker.rows.get('b1/gw/acc.deny-1').type, 'access.denied')
})

test('a one-time key opens once', async () => {
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u4' })).allowed, true)
  const spent = await b1.requestAccess({ type: 'user', id: 'u4' })
  assert.deepEqual({ allowed: spent.allowed, code: spent.code, nextOpen: spent.nextOpen }, { allowed: false, code: 'key_used', nextOpen: null })
})

test("a board event whose id looks like a gateway record's is kept, and hides no decision", async () => {
  // the board's event first, then a decision whose gateway record would once have had the same id
  await b1.sendEvent('door.opened', {}, { id: 'acc.ns-1' })
  await b1.requestAccess({ type: 'user', id: 'u1' }, { corr: 'ns-1' })
  // the decision first, then the board's event
  await b1.requestAccess({ type: 'fob', id: 'F-unknown' }, { corr: 'ns-2' })
  await b1.sendEvent('door.closed', {}, { id: 'acc.ns-2' })
  // ids shaped like firmware progress and first-person-in records
  await b1.sendEvent('door.opened', {}, { id: 'fwp.fw-1.1.10' })
  await b1.sendEvent('door.opened', {}, { id: 'fpi.so-acme.1' })
  const expected = {
    'b1/acc.ns-1': 'door.opened',
    'b1/gw/acc.ns-1': 'access.granted',
    'b1/gw/acc.ns-2': 'access.denied',
    'b1/acc.ns-2': 'door.closed',
    'b1/fwp.fw-1.1.10': 'door.opened',
    'b1/fpi.so-acme.1': 'door.opened'
  }
  await until(() => Object.keys(expected).every((id) => worker.rows.has(id)), { what: 'all six rows' })
  for (const [id, type] of Object.entries(expected)) assert.equal(worker.rows.get(id).type, type, id)
  assert.equal(worker.rows.get('b1/gw/acc.ns-2').data.code, 'unknown_credential')
})

test('contact and measurement sensor events and panic buttons are told apart, and only known data fields are stored', async () => {
  await b1.sendEvent('sensor.contact', { input: 2, state: 'open', extra: 'dropped' }, { id: 'sen-1' })
  await b1.sendEvent('sensor.measurement', { name: 'temp', value: 21.5, unit: 'C' }, { id: 'sen-2' })
  await b1.sendEvent('sensor', { name: 'humidity', value: 40 }, { id: 'sen-3' }) // version 1's form: a measurement
  await b1.sendEvent('door.heldOpen', { durationMs: 30_000, note: { deep: [1] } }, { id: 'sen-4' })
  await b1.sendEvent('panic.pressed', { input: 1, colour: 'red' }, { id: 'sen-6' }) // a wired panic button
  await until(() => ['sen-1', 'sen-2', 'sen-3', 'sen-4', 'sen-6'].every((id) => worker.rows.has(`b1/${id}`)), { what: 'sensor rows' })
  const row = (id) => {
    const r = worker.rows.get(`b1/${id}`)
    return { type: r.type, data: r.data }
  }
  assert.deepEqual(row('sen-1'), { type: 'sensor.contact', data: { input: 2, state: 'open' } })
  assert.deepEqual(row('sen-2'), { type: 'sensor.measurement', data: { name: 'temp', value: 21.5, unit: 'C' } })
  assert.deepEqual(row('sen-3'), { type: 'sensor.measurement', data: { name: 'humidity', value: 40 } })
  assert.deepEqual(row('sen-4'), { type: 'door.heldOpen', data: { durationMs: 30_000 } })
  assert.deepEqual(row('sen-6'), { type: 'panic.pressed', data: { input: 1 } })
  const err = b1.next('error', { fresh: true })
  await b1.sendEvent('sensor.contact', { input: 1, state: 21.5 }, { id: 'sen-5' })
  assert.equal((await err).code, 'bad_payload')
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
  worker.change('scheduledOpen', 'upsert', 'so-acme', {
    id: 'so-acme',
    companyId: 'ACME',
    window: {
      kind: 'scheduledOpen',
      tz: 'UTC',
      fpi: true,
      firstEntryAt: Date.parse('2020-01-01T00:00:00Z'),
      week: wholeWeek({ openWholeDay: true, openTime: '', closeTime: '' }),
      exceptions: []
    }
  })
  gw.replica.tables.get('scheduledOpen').delete('so-acme') // forget the local first entry, as on a new day
  await gw.syncNow()
  const b2 = await board(gw, 'b2').connect()
  await until(() => b2.last.get('schedule')?.open === false, { what: 'locked schedule' })
  assert.equal(b2.last.get('schedule').fpi, true)
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u1' })).allowed, true)
  // (the locked state may arrive twice, from the kept session and from the new subscription)
  const state = await until(() => b2.last.get('schedule')?.open === true && b2.last.get('schedule'), { what: 'open schedule' })
  assert.equal(state.open, true)
  assert.equal(state.firstEntryAt, NOW) // the first grant's instant, from the gateway's clock
  await until(() => [...worker.rows.values()].some((r) => r.type === 'schedule.firstEntry'), { what: 'first entry event' })
  // A door opted out of scheduled open gets no schedule at all.
  const cleared = b2.next('schedule', { fresh: true })
  worker.change('device', 'upsert', 'b2', deviceRecord('b2', { scheduleOpen: false }))
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
