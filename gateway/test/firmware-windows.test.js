import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'

// A company's install window and its opting out of staged rollouts (decision 0094), decided at the
// gateway in the door's own zone (Europe/Berlin here) on an injected clock: forced offers go out only
// inside the window, DST included; a started update is not held back; a company sitting rollouts out
// keeps the active release until the day after its date.
let worker, gw, dir
let clock = Date.parse('2026-03-28T12:00:00Z') // 13:00 in Berlin (CET), outside 01:00–05:00
const WINDOW = { start: '01:00', end: '05:00' }

before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.change('company', 'upsert', 'WIN', { id: 'WIN', active: true, forceFirmware: true, firmwareWindow: WINDOW })
  worker.change('company', 'upsert', 'DEF', { id: 'DEF', active: true, forceFirmware: true, rolloutDeferredUntil: '2026-04-01' })
  await provisionBoard(worker, 'w1', { companyId: 'WIN', deviceType: 'AB-300' })
  await provisionBoard(worker, 'w2', { companyId: 'WIN', deviceType: 'AB-300' })
  await provisionBoard(worker, 'd1', { companyId: 'DEF', deviceType: 'AB-400' })
  worker.addFirmware({ id: 'fw-300', deviceType: 'AB-300', version: '3.0.0', bytes: randomBytes(9_000) })
  worker.addFirmware({ id: 'fw-400', deviceType: 'AB-400', version: '1.0.0', bytes: randomBytes(9_000) })
  // A rollout of 4.1.0 to every AB-400 board at once (one wave, open and running).
  const bytes = randomBytes(9_000)
  worker.addFirmware({ id: 'fw-410', deviceType: 'AB-400', version: '4.1.0', bytes, active: false })
  worker.change('firmware', 'upsert', 'fw-410', { ...worker.changes.at(-1).data, rollout: { id: '9', state: 'running', wave: 0, waves: [100], canary: [] } })
  dir = await tempDir()
  gw = await startGateway(worker, dir, { now: () => clock, firmwareWindowCheckMs: 3_600_000 })
})
after(async () => {
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

/** The board's offer once its status has been answered (null: none). */
async function offerOf(b) {
  await until(() => b.last.has('config'), { what: 'config' })
  await b.publishStatus()
  return b.last.get('fw/offer') ?? null
}

test('forced offers wait for the install window in the door zone, and the window follows the DST change', async () => {
  const w1 = await board(gw, 'w1', { fw: '2.0.0' }).connect()
  assert.equal(await offerOf(w1), null, '13:00 local is outside 01:00–05:00')

  clock = Date.parse('2026-03-29T00:30:00Z') // 01:30 CET: inside
  const offered = w1.next('fw/offer', { fresh: true })
  await gw.firmware.recheck()
  assert.equal((await offered).version, '3.0.0')

  // 03:30 UTC is 05:30 in Berlin after the change to CEST (04:30 in winter time): outside, so withdrawn.
  clock = Date.parse('2026-03-29T03:30:00Z')
  const withdrawn = w1.next('fw/offer', { fresh: true })
  await gw.firmware.recheck()
  assert.equal(await withdrawn, null)
  await w1.close()
})

test('an update a user started is not held back by the window', async () => {
  clock = Date.parse('2026-03-30T10:00:00Z')
  const w2 = await board(gw, 'w2', { fw: '2.0.0' }).connect()
  assert.equal(await offerOf(w2), null)
  const offered = w2.next('fw/offer', { fresh: true })
  worker.change('device', 'upsert', 'w2', { ...gw.replica.get('device', 'w2'), firmwareStart: 'fw-300' })
  await gw.syncNow()
  assert.equal((await offered).version, '3.0.0')
  await w2.close()
})

test('a company that sits rollouts out keeps the active release through its date, then joins the wave', async () => {
  clock = Date.parse('2026-04-01T21:30:00Z') // 23:30 on 1 April in Berlin: still the date
  const d1 = await board(gw, 'd1', { fw: '1.0.0' }).connect()
  assert.equal(await offerOf(d1), null, 'runs the active release, and is in no wave yet')

  clock = Date.parse('2026-04-01T22:30:00Z') // 00:30 on 2 April in Berlin
  const offered = d1.next('fw/offer', { fresh: true })
  await gw.firmware.recheck()
  assert.equal((await offered).version, '4.1.0')
  await d1.close()
})
