import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'

let worker, gw, dir, b1
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'b1')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: ['P-1'] })
  worker.change('ekey', 'upsert', 'k1', {
    id: 'k1',
    deviceId: 'b1',
    userId: 'u1',
    fob: 'F-100',
    window: {
      kind: 'ekey',
      access: 'full',
      tz: 'Europe/Berlin',
      startDate: '2026-01-01',
      endDate: null,
      days: [true, true, true, true, true, true, true],
      allDay: true,
      startTime: null,
      endTime: null,
      used: false
    }
  })
  worker.addFirmware({ id: 'fw1', deviceType: 'AB-200', version: '2.0.0', bytes: Buffer.alloc(10_000, 7) })
  dir = await tempDir()
  gw = await startGateway(worker, dir)
  b1 = await board(gw, 'b1').connect()
  await until(() => b1.last.get('fw/offer')?.releaseId === 'fw1', { what: 'firmware offer' })
})
after(async () => {
  await b1.close()
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

/** Publishes a raw payload and returns the error message the gateway answers with. */
async function errorFor(name, payload) {
  const err = b1.next('error', { fresh: true })
  await b1.publish(name, payload)
  return err
}

const BAD = {
  'access/req': [
    ['not json', 'bad_json'],
    ['[1,2]', 'bad_json'],
    ['{"v":2,"corr":"a","credential":{"type":"user","id":"u1"}}', 'unsupported_version'],
    ['{"v":1,"credential":{"type":"user","id":"u1"}}', 'bad_payload'],
    ['{"v":1,"corr":"a","credential":{"type":"palm","id":"u1"}}', 'bad_payload'],
    ['{"v":1,"corr":"a","credential":{"type":"user","id":""}}', 'bad_payload'],
    ['{"v":1,"corr":"a/b c","credential":{"type":"user","id":"u1"}}', 'bad_payload'],
    ['{"v":1,"corr":"a","credential":{"type":"user","id":"u1"},"at":"yesterday"}', 'bad_payload']
  ],
  events: [
    ['', 'bad_json'],
    ['{"v":1,"type":"door.opened","at":1767340800000}', 'bad_payload'],
    ['{"v":1,"id":"has space","type":"door.opened","at":1767340800000}', 'bad_payload'],
    ['{"v":1,"id":"e1","type":"door.exploded","at":1767340800000}', 'bad_payload'],
    ['{"v":1,"id":"e1","type":"battery","at":1767340800000,"data":{"percent":140}}', 'bad_payload'],
    ['{"v":1,"id":"e1","type":"location","at":1767340800000,"data":{"lat":"north"}}', 'bad_payload'],
    ['{"v":1,"id":"e1","type":"tamper","at":-5}', 'bad_payload'],
    ['{"id":"e1","type":"tamper","at":1767340800000,"data":{"state":"opened"}}', 'unsupported_version']
  ],
  status: [
    ['{"v":1}', 'bad_payload'],
    ['{"v":1,"online":"yes"}', 'bad_payload']
  ],
  'fw/req': [
    ['{"v":1,"releaseId":"fw1"}', 'bad_payload'],
    ['{"v":1,"releaseId":"fw1","missing":"AAAA","max":32}', 'bad_payload'],
    ['{"v":1,"releaseId":"fw1","missing":"/////w==","max":9999}', 'bad_payload'],
    ['{"v":1,"releaseId":"other","missing":"/w==","max":1}', 'unknown_release']
  ],
  'fw/progress': [
    ['{"v":1,"releaseId":"fw1","received":9,"blocks":3}', 'bad_payload'],
    ['{"v":1,"releaseId":"zz","received":1,"blocks":3}', 'unknown_release']
  ],
  'fw/result': [
    ['{"v":1,"releaseId":"fw1","ok":true}', 'bad_payload'],
    ['{"v":1,"id":"r1","releaseId":"fw1","ok":"sure"}', 'bad_payload']
  ]
}

for (const [name, cases] of Object.entries(BAD)) {
  test(`bad ${name} payloads are answered with an error and change nothing`, async () => {
    const queuedBefore = gw.queue.length
    const rowsBefore = worker.rows.size
    const sentBefore = [...gw.firmware.sent.values()].reduce((a, b) => a + b, 0)
    const replicaBefore = JSON.stringify([...gw.replica.tables].map(([t, m]) => [t, [...m.values()]]))
    for (const [payload, code] of cases) {
      const err = await errorFor(name, payload)
      assert.equal(err.v, 1)
      assert.equal(err.code, code, `${payload} → ${err.message}`)
      assert.equal(err.topic, `boards/b1/${name}`)
      assert.ok(err.message.length > 0)
    }
    assert.equal(gw.queue.length, queuedBefore)
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(worker.rows.size, rowsBefore)
    assert.equal(
      [...gw.firmware.sent.values()].reduce((a, b) => a + b, 0),
      sentBefore
    )
    assert.equal(JSON.stringify([...gw.replica.tables].map(([t, m]) => [t, [...m.values()]])), replicaBefore)
    assert.ok(b1.client.connected, 'a bad payload does not cost the connection')
  })
}

test('an error carries the request corr when it could be read', async () => {
  const err = await errorFor('access/req', '{"v":1,"corr":"c-77","credential":{"type":"palm","id":"x"}}')
  assert.equal(err.corr, 'c-77')
})

test('after all that, a good request still works', async () => {
  const res = await b1.requestAccess({ type: 'fob', id: 'F-100' })
  assert.equal(res.allowed, true)
  assert.equal(res.key.id, 'k1')
})

test('a payload nested 20,000 levels deep (under 64 KiB) is refused before anything is answered or stored', async () => {
  const deep = '['.repeat(20_000) + ']'.repeat(20_000)
  let answered = false
  const onAnswer = (m) => {
    if (m?.corr === 'deep-1') answered = true
  }
  b1.on('access/res', onAnswer)
  try {
    const request = `{"v":1,"corr":"deep-1","credential":{"type":"fob","id":"F-100","x":${deep}}}`
    assert.ok(Buffer.byteLength(request) < 65536)
    const err = await errorFor('access/req', request)
    assert.deepEqual({ code: err.code, corr: err.corr }, { code: 'bad_payload', corr: 'deep-1' })
    assert.match(err.message, /deeper than 8 levels/)
    const evErr = await errorFor('events', `{"v":1,"id":"deep-ev","type":"door.opened","at":1767340800000,"data":{"x":${deep}}}`)
    assert.equal(evErr.code, 'bad_payload')
    // (other tests' records may still be on their way; these two must not exist anywhere)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const stored = (id) => gw.queue.peek(1_000_000).some((e) => e.id === id) || worker.rows.has(id)
    assert.equal(stored('b1/gw/acc.deep-1'), false, 'no record of the refused request')
    assert.equal(stored('b1/deep-ev'), false, 'the refused event is not stored')
    assert.equal(answered, false, 'no decision without its record')
    assert.ok(b1.client.connected)
  } finally {
    b1.off('access/res', onAnswer)
  }
})

test("a decision's record keeps only the request's known fields, and the queue keeps flowing", async () => {
  const answer = b1.next('access/res', { fresh: true })
  await b1.publish('access/req', { v: 1, corr: 'extra-1', credential: { type: 'fob', id: 'F-100', pin: '1234', nested: { a: [1, 2] } }, at: 1767340800000, note: 'x' })
  assert.equal((await answer).allowed, true)
  await until(() => worker.rows.has('b1/gw/acc.extra-1'), { what: 'decision row' })
  const row = worker.rows.get('b1/gw/acc.extra-1')
  assert.deepEqual(row.data.credential, { type: 'fob', id: 'F-100' })
  assert.equal(row.at, 1767340800000)
  await until(() => gw.queue.length === 0, { what: 'an empty queue' })
})
