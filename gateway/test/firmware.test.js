import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes, createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'

const IMAGE = randomBytes(1024 * 1024)
let worker, gw, dir
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'f1')
  await provisionBoard(worker, 'f2')
  await provisionBoard(worker, 'f3', { deviceType: 'AB-300' })
  worker.addFirmware({ id: 'fw-200', deviceType: 'AB-200', version: '2.0.0', bytes: IMAGE })
  // A release whose bytes in storage do not match its recorded hash.
  worker.addFirmware({ id: 'fw-300', deviceType: 'AB-300', version: '3.0.0', bytes: randomBytes(5000), sha256: createHash('sha256').update('something else').digest('hex') })
  dir = await tempDir()
  gw = await startGateway(worker, dir, { firmwareRetryMs: 200 })
})
after(async () => {
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

test('a download interrupted three times completes, and no finished block is ever sent again', async () => {
  let parts = []
  let missing
  let b = await board(gw, 'f1').connect()
  const offer = await until(() => b.last.get('fw/offer'), { what: 'offer' })
  assert.equal(offer.blocks, 256)
  assert.equal(offer.blockSize, 4096)
  const hits = new Map()
  for (const stopAfterBlocks of [40, 70, 55]) {
    const r = await b.download({ offer, parts, missing, stopAfterBlocks })
    assert.equal(r.done, false)
    ;({ parts, missing } = r)
    for (const [i, n] of b.blockHits) hits.set(i, (hits.get(i) ?? 0) + n)
    b.kill()
    b = await board(gw, 'f1').connect() // same session (clean=false): the retained offer is still there
    assert.equal((await b.next('fw/offer')).releaseId, offer.releaseId)
  }
  const r = await b.download({ offer, parts, missing })
  for (const [i, n] of b.blockHits) hits.set(i, (hits.get(i) ?? 0) + n)
  assert.equal(r.done, true)
  assert.equal(r.ok, true)
  assert.equal(b.installed, '2.0.0')
  assert.ok(Buffer.concat(r.parts).equals(IMAGE))
  assert.equal(hits.size, 256, 'every block arrived')
  assert.deepEqual(
    [...hits.values()].filter((n) => n > 1),
    [],
    'no block arrived twice'
  )
  const sent = gw.firmware.sent.get('f1\0fw-200')
  assert.ok(sent >= 256 && sent <= 256 + 3 * 32, `blocks sent ${sent}: at most the ones lost in flight at each cut are sent again`)
  // Installed: the board restarted into 2.0.0 and said so, and the gateway withdrew the offer.
  await until(() => gw.firmware.installedOn('f1') === '2.0.0', { what: 'status after install' })
  assert.equal(await retainedOffer('f1'), null)
  await until(() => worker.rows.get('f1/fwr.fw-200.' + b.bootId), { what: 'result event' })
  assert.equal(worker.rows.get('f1/fwr.fw-200.' + b.bootId).data.ok, true)
  const progress = () => [...worker.rows.values()].filter((e) => e.deviceId === 'f1' && e.type === 'firmware.progress')
  await until(() => progress().some((e) => e.data.percent === 100), { what: '100 % progress event' })
  assert.equal(new Set(progress().map((e) => e.data.attempt)).size, 1, 'a resumed download is one attempt')
  const percents = progress().map((e) => e.data.percent)
  percents.sort((a, c) => a - c)
  assert.equal(percents[0], 0)
  assert.equal(percents.at(-1), 100)
  assert.equal(new Set(percents).size, percents.length, 'one event per 10 % step reached')
  await b.close()
})

/** The retained offer the broker holds for a board (what a subscription would receive), or null. */
async function retainedOffer(boardId) {
  const found = []
  for await (const p of gw.aedes.persistence.createRetainedStreamCombi([`boards/${boardId}/fw/offer`])) found.push(p)
  return found.length && found[0].payload.length ? JSON.parse(found[0].payload) : null
}

test('a board is never offered the version it reports as installed, so it does not install it again', async () => {
  await provisionBoard(worker, 'f5')
  await provisionBoard(worker, 'f6')
  await gw.syncNow()
  // Already on the release: no offer, neither retained nor delivered.
  const current = await board(gw, 'f5', { fw: '2.0.0' }).connect()
  assert.equal(await retainedOffer('f5'), null)
  await until(() => current.last.has('config'), { what: 'config' })
  await current.publishStatus() // a round trip after the retained messages of the subscription
  assert.equal(current.last.get('fw/offer') ?? null, null)
  await current.close()
  // On an older version: offered; once it runs the release, the offer is withdrawn.
  let old = await board(gw, 'f6', { fw: '1.0.0' }).connect()
  const offer = await old.next('fw/offer')
  assert.equal(offer.version, '2.0.0')
  const withdrawn = old.next('fw/offer', { fresh: true, timeoutMs: 10_000 })
  assert.equal((await old.download({ offer })).ok, true)
  assert.equal(await withdrawn, null)
  assert.equal(await retainedOffer('f6'), null)
  old.kill()
  // Back after the restart into the new image, with a new session too: still nothing offered.
  for (const clean of [false, true]) {
    old = await board(gw, 'f6', { fw: '2.0.0', clean }).connect()
    await until(() => old.last.has('config'), { what: 'config' })
    await old.publishStatus()
    assert.equal(old.last.get('fw/offer') ?? null, null, `clean session ${clean}`)
    assert.equal(await retainedOffer('f6'), null)
    await old.close()
  }
  // A board that reports an older version again (a rollback) is offered the release again.
  const rolledBack = await board(gw, 'f6', { fw: '1.9.0' }).connect()
  assert.equal((await rolledBack.next('fw/offer')).version, '2.0.0')
  await rolledBack.close()
})

test('a corrupted block fails the SHA-256 check: the board refuses to install and reports it', async () => {
  const b = await board(gw, 'f2').connect()
  const offer = await until(() => b.last.get('fw/offer'), { what: 'offer' })
  const r = await b.download({ offer, corruptBlock: 17 })
  assert.equal(r.done, true)
  assert.equal(r.ok, false)
  assert.equal(r.error, 'sha256_mismatch')
  assert.equal(b.installed, null)
  const id = 'f2/fwr.fw-200.' + b.bootId
  await until(() => worker.rows.get(id), { what: 'failed result event' })
  assert.deepEqual(worker.rows.get(id).data, { releaseId: 'fw-200', ok: false, error: 'sha256_mismatch' })
  // The board starts over: a second attempt, reported from 0 % again.
  const again = await b.download({ offer })
  assert.equal(again.ok, true)
  await until(() => [...worker.rows.values()].filter((e) => e.deviceId === 'f2' && e.type === 'firmware.progress' && e.data.percent === 100).length === 2, {
    what: 'second attempt reported'
  })
  await b.close()
})

test('an image whose hash does not match its release is refused by the gateway: never cached, never offered', async () => {
  const b = await board(gw, 'f3').connect()
  await until(() => b.last.has('config'))
  await gw.syncNow()
  await new Promise((resolve) => setTimeout(resolve, 300))
  assert.equal(b.last.get('fw/offer') ?? null, null)
  assert.equal(existsSync(join(dir, 'firmware', 'fw-300.bin')), false)
  const err = b.next('error', { fresh: true })
  await b.publish('fw/req', { v: 1, releaseId: 'fw-300', missing: Buffer.alloc(1, 0xff).toString('base64'), max: 4 })
  assert.equal((await err).code, 'unknown_release')
  await b.close()
})

test('an image the Worker cannot serve yet is fetched again later and then offered, without a new change', async () => {
  const bytes = randomBytes(9000)
  worker.addFirmware({ id: 'fw-400', deviceType: 'AB-400', version: '4.0.0', bytes })
  worker.firmware.delete('fw-400') // the record is in the feed, the bytes are not in storage yet
  await provisionBoard(worker, 'f4', { deviceType: 'AB-400' })
  await gw.syncNow()
  const b = await board(gw, 'f4').connect()
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.equal(b.last.get('fw/offer') ?? null, null)
  worker.firmware.set('fw-400', bytes)
  const offer = await until(() => b.last.get('fw/offer'), { what: 'offer after the retry', timeoutMs: 5000 })
  assert.equal(offer.releaseId, 'fw-400')
  await b.close()
})

test('the verified image is cached on disk', () => {
  assert.equal(existsSync(join(dir, 'firmware', 'fw-200.bin')), true)
})
