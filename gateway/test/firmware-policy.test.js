import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'

// The company's firmware policy at the door (decision 0116): without force, a board is offered its
// type's active release only once an allowed user started it for that board.
let worker, gw, dir
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.change('company', 'upsert', 'OPTIN', { id: 'OPTIN', active: true, biometricRequired: false, forceFirmware: false })
  await provisionBoard(worker, 'p1', { companyId: 'OPTIN' })
  await provisionBoard(worker, 'p2', { companyId: 'OPTIN' })
  worker.addFirmware({ id: 'fw-200', deviceType: 'AB-200', version: '2.0.0', bytes: randomBytes(20_000) })
  dir = await tempDir()
  gw = await startGateway(worker, dir)
})
after(async () => {
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

/** After a status round trip, whatever offer the board holds (null: none). */
async function offerAfterRoundTrip(b) {
  await until(() => b.last.has('config'), { what: 'config' })
  await b.publishStatus()
  return b.last.get('fw/offer') ?? null
}

test('not forced: no offer and no blocks until the update is started for the board, then only that board is offered', async () => {
  const p1 = await board(gw, 'p1', { fw: '1.0.0' }).connect()
  const p2 = await board(gw, 'p2', { fw: '1.0.0' }).connect()
  assert.equal(await offerAfterRoundTrip(p1), null)
  const err = p1.next('error', { fresh: true })
  await p1.publish('fw/req', { v: 1, releaseId: 'fw-200', missing: Buffer.alloc(1, 0xff).toString('base64'), max: 4 })
  assert.equal((await err).code, 'unknown_release')

  // An allowed user starts the update of p1 (the console records the release on the device).
  const offered = p1.next('fw/offer', { fresh: true })
  worker.change('device', 'upsert', 'p1', { ...gw.replica.get('device', 'p1'), firmwareStart: 'fw-200' })
  await gw.syncNow()
  assert.equal((await offered).releaseId, 'fw-200')
  assert.equal((await p1.download({ offer: await offered })).ok, true)
  assert.equal(await offerAfterRoundTrip(p2), null, 'the start was for p1 alone')
  await p1.close()
  await p2.close()
})

test('forced: every board of the company is offered without a start, and the offer goes when force is switched off', async () => {
  const p2 = await board(gw, 'p2', { fw: '1.0.0' }).connect()
  assert.equal(await offerAfterRoundTrip(p2), null)
  const offered = p2.next('fw/offer', { fresh: true })
  worker.change('company', 'upsert', 'OPTIN', { id: 'OPTIN', active: true, biometricRequired: false, forceFirmware: true })
  await gw.syncNow()
  assert.equal((await offered).version, '2.0.0')

  const withdrawn = p2.next('fw/offer', { fresh: true })
  worker.change('company', 'upsert', 'OPTIN', { id: 'OPTIN', active: true, biometricRequired: false, forceFirmware: false })
  await gw.syncNow()
  assert.equal(await withdrawn, null)
  // The image is at hand (p1 downloaded it), yet a withdrawn offer serves no blocks.
  const err = p2.next('error', { fresh: true })
  await p2.publish('fw/req', { v: 1, releaseId: 'fw-200', missing: Buffer.alloc(1, 0xff).toString('base64'), max: 4 })
  assert.equal((await err).code, 'unknown_release')
  await p2.close()
})

test('an offer withdrawn while its image is still being fetched stays withdrawn when the image arrives', async () => {
  worker.addFirmware({ id: 'fw-300', deviceType: 'AB-300', version: '3.0.0', bytes: randomBytes(20_000) })
  await provisionBoard(worker, 'p3', { companyId: 'OPTIN', deviceType: 'AB-300' })
  worker.change('company', 'upsert', 'OPTIN', { id: 'OPTIN', active: true, biometricRequired: false, forceFirmware: true })
  await gw.syncNow()
  let release = () => {}
  worker.firmwareGate = new Promise((resolve) => (release = () => resolve(undefined)))
  const fetches = worker.requests.firmware
  const p3 = await board(gw, 'p3', { fw: '1.0.0' }).connect()
  await until(() => worker.requests.firmware > fetches, { what: 'the image fetch for the offer' })
  // The company stops forcing updates while the console is still sending the image.
  worker.change('company', 'upsert', 'OPTIN', { id: 'OPTIN', active: true, biometricRequired: false, forceFirmware: false })
  await gw.syncNow()
  const offers = []
  p3.on('message', (name, payload) => name === 'fw/offer' && offers.push(payload?.version ?? null))
  release()
  worker.firmwareGate = null
  await until(() => gw.firmware.images.loaded('fw-300'), { what: 'the image' })
  assert.equal(await offerAfterRoundTrip(p3), null)
  assert.deepEqual(offers.filter(Boolean), [], 'the offer decided before the withdrawal went out after it')
  await p3.close()
})
