/**
 * A lockdown ends the scheduled-open hold-open, an evacuation holds its doors open, and entries during
 * either do not count as the day's first person in (decision 0087). Real gateway, real MQTT boards; the
 * console is the contract double. The gateway's clock runs from a fixed instant, so nothing here depends on
 * when it runs, while a lockdown's automatic end still arrives in real time.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, deviceRecord, board, startGateway, until, lockdownRecord } from './support/fixtures.js'

const ALL_DAYS = [true, true, true, true, true, true, true]
/** Monday 2026-11-23, 17:20 in Madrid when the file starts; the clock then runs. */
const T0 = Date.now()
const clock = () => Date.parse('2026-11-23T16:20:00Z') + (Date.now() - T0)
const ekey = { kind: 'ekey', access: 'full', tz: 'UTC', startDate: '2026-01-01', endDate: null, days: ALL_DAYS, allDay: true, startTime: null, endTime: null, used: false }
/** Open all day, every day; with first person in when `fpi`. */
const hours = (fpi) => ({
  id: 'so-acme',
  companyId: 'ACME',
  window: {
    kind: 'scheduledOpen',
    tz: 'UTC',
    fpi,
    firstEntryAt: null,
    week: Array.from({ length: 7 }, () => ({ openWholeDay: true, openTime: '', closeTime: '' })),
    exceptions: []
  }
})
let epoch = 0
const lockdown = (over) => lockdownRecord({ epoch: ++epoch, exemptUserIds: ['u1'], startedAt: clock(), ...over })

let worker, gw, dir, b1, b2
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'b1', { groupIds: ['g1'] })
  await provisionBoard(worker, 'b2')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true })
  worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: true })
  worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 'b1', userId: 'u1', window: ekey })
  worker.change('ekey', 'upsert', 'k2', { id: 'k2', deviceId: 'b1', userId: 'u2', window: ekey })
  worker.change('scheduledOpen', 'upsert', 'so-acme', hours(false))
  dir = await tempDir()
  gw = await startGateway(worker, dir, { now: clock })
  b1 = await board(gw, 'b1').connect()
  b2 = await board(gw, 'b2').connect()
})
after(async () => {
  await b1.close()
  await b2.close()
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

const schedule = (b) => b.last.get('schedule')
const firstEntries = () => [...worker.rows.values()].filter((r) => r.type === 'schedule.firstEntry').length

test('a lockdown locks doors the hours hold open; its end gives them back to the hours', async () => {
  await until(() => schedule(b1)?.open === true && schedule(b2)?.open === true, { what: 'both doors held open by the hours' })
  assert.equal(schedule(b1).lockdown, undefined)

  worker.change('lockdown', 'upsert', 'ACME', lockdown())
  await gw.syncNow()
  await until(() => schedule(b1)?.open === false && schedule(b2)?.open === false, { what: 'both doors locked by the lockdown' })
  assert.deepEqual(schedule(b1).lockdown, { mode: 'lockdown', endsAt: null })
  assert.equal(schedule(b1).window.kind, 'scheduledOpen') // the hours still travel, for after the end
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u2' })).code, 'lockdown')
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u1' })).allowed, true)

  worker.change('lockdown', 'upsert', 'ACME', lockdown({ active: false }))
  await gw.syncNow()
  await until(() => schedule(b1)?.open === true && schedule(b2)?.open === true, { what: 'both doors held open again' })
  assert.equal(schedule(b1).lockdown, undefined)
})

test("an exempt entry during a lockdown is not the day's first person in", async () => {
  worker.change('scheduledOpen', 'upsert', 'so-acme', hours(true))
  await gw.syncNow()
  await until(() => schedule(b1)?.open === false && schedule(b1)?.fpi === true, { what: 'doors waiting for the first person in' })
  worker.change('lockdown', 'upsert', 'ACME', lockdown({ scope: 'groups', scopeIds: ['g1'] }))
  await gw.syncNow()
  await until(() => schedule(b1)?.lockdown?.mode === 'lockdown', { what: 'b1 under the lockdown' })
  const before = firstEntries()
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u1' })).allowed, true) // a first responder
  worker.change('lockdown', 'upsert', 'ACME', lockdown({ active: false }))
  await gw.syncNow()
  await until(() => schedule(b1) && schedule(b1).lockdown === undefined, { what: 'the lockdown over at b1' })
  assert.equal(schedule(b1).open, false, 'the doors still wait for staff')
  assert.equal(schedule(b1).firstEntryAt, null)
  assert.equal(firstEntries(), before)
  // The first entry after the end opens the company's doors as usual.
  assert.equal((await b1.requestAccess({ type: 'user', id: 'u2' })).allowed, true)
  await until(() => schedule(b2)?.open === true, { what: 'doors open after the first person in' })
})

test('an evacuation holds its doors open, also a door without hours, until its automatic end on the gateway clock', async () => {
  // b2 leaves the hours: it has no scheduled-open state at all.
  worker.change('device', 'upsert', 'b2', deviceRecord('b2', { scheduleOpen: false }))
  await gw.syncNow()
  await until(() => schedule(b2) === null, { what: 'b2 without hours' })

  worker.change('lockdown', 'upsert', 'ACME', lockdown({ mode: 'evacuation', scope: 'doors', scopeIds: ['b2'], endsAt: clock() + 1500 }))
  await gw.syncNow()
  await until(() => schedule(b2)?.open === true, { what: 'b2 held open by the evacuation' })
  assert.equal(schedule(b2).lockdown.mode, 'evacuation')
  assert.equal(schedule(b2).window, null)
  assert.equal(schedule(b1).lockdown, undefined, 'b1 is not in its scope')
  // No console: the gateway ends it at `endsAt` on its own clock, well before its 15 s re-evaluation.
  await until(() => schedule(b2) === null, { what: 'b2 back to no hold-open after the automatic end', timeoutMs: 5000 })
})
