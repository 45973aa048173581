/**
 * Cells with Redis (decision 0053): two instances of one cell on one Redis publish each retained
 * change once between them, and two cells on one machine, each with its own Redis, share no record.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import mqtt from 'mqtt'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, deviceRecord, board, startGateway, until, dropConnection } from './support/fixtures.js'
import { startRedis, freePort } from './support/processes.js'
import { createGateway, Gateway } from '../src/gateway.js'

const Redis = createRequire(import.meta.url)('ioredis')
const SECRET_B = 'cell-b-gateway-secret'

let worker, redisA, redisB, gw1, gw2, gwB, op
const dirs = []
const dir = async () => {
  const d = await tempDir()
  dirs.push(d)
  return d
}
/** configs published live (not the retained copies a SUBSCRIBE brings), by topic */
const published = new Map()
const markers = new Set()

before(async () => {
  redisA = await startRedis()
  redisB = await startRedis()
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const [portA, portB] = [await freePort(), await freePort()]
  worker.cell('main', { mqttUrl: `mqtt://127.0.0.1:${portA}` }).cell('b', { secret: SECRET_B, mqttUrl: `mqtt://127.0.0.1:${portB}` })
  worker.companyCells.set('BETA', 'b')
  for (const c of ['ACME', 'BETA', 'MOVER']) worker.change('company', 'upsert', c, { id: c, name: c, active: true })
  for (const id of ['r1', 'r2', 'r3']) await provisionBoard(worker, id, { companyId: 'ACME' })
  await provisionBoard(worker, 'q1', { companyId: 'BETA' })
  await provisionBoard(worker, 'm4', { companyId: 'MOVER' })
  gw1 = await startGateway(worker, await dir(), { gatewayId: 'gw-a1', mqttPort: portA, redisUrl: redisA.url })
  op = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw1.mqttPort}`, { clientId: 'op-count', username: 'operator', password: SECRET, reconnectPeriod: 0 })
  op.on('message', (t, payload, packet) => {
    if (t.endsWith('/cmd')) markers.add(JSON.parse(payload.toString()).id)
    else if (!packet.retain) published.set(t, (published.get(t) ?? 0) + 1)
  })
  await op.subscribeAsync({ 'boards/+/config': { qos: 1 }, 'boards/+/cmd': { qos: 1 } })
  gwB = await startGateway(worker, await dir(), { gatewayId: 'gw-b1', mqttPort: portB, redisUrl: redisB.url, gatewaySecret: SECRET_B })
})

after(async () => {
  await op?.endAsync()
  for (const gw of [gw1, gw2, gwB]) await gw?.close()
  await worker.close()
  await redisA.stop()
  await redisB.stop()
  for (const d of dirs) await removeDir(d)
})

/** Observes each instance's retained publishes (the real ones run): topic → attempts, per instance. */
function attemptsOf(gw) {
  const seen = new Map()
  const publishOnce = gw.cellRedis.publishOnce.bind(gw.cellRedis)
  gw.cellRedis.publishOnce = (topic, payload, publish) => publishOnce(topic, payload, publish).finally(() => seen.set(topic, (seen.get(topic) ?? 0) + 1))
  return seen
}

/** The topics an instance claims in its cell's Redis one at a time (src/broker/cell-redis.js), in order. */
function claimsOf(gw) {
  const claims = []
  const claim = gw.cellRedis.db.claimRetained.bind(gw.cellRedis.db)
  gw.cellRedis.db.claimRetained = (key, ...rest) => (claims.push(key), claim(key, ...rest))
  return claims
}

/**
 * Waits until each instance has handled its retained publish of `topics`, then for a marker sent
 * through each: what either published before it has reached the counting client by then.
 */
let markerSeq = 0
async function settled(instances, topics) {
  await until(() => instances.every((seen) => topics.every((t) => seen.has(t))), { what: 'the retained publishes of both instances' })
  const ids = [`mark-${++markerSeq}`, `mark-${++markerSeq}`]
  await gw1.sendCommand('r3', { id: ids[0], cmd: 'ping' })
  await gw2.sendCommand('r3', { id: ids[1], cmd: 'ping' })
  await until(() => ids.every((id) => markers.has(id)), { what: 'the markers' })
}

let seen1, seen2
test('a second instance of the cell starting up publishes no retained configuration the first already published', async () => {
  seen1 = attemptsOf(gw1)
  published.clear()
  gw2 = new Gateway({
    dataDir: await dir(),
    workerUrl: worker.url,
    gatewaySecret: SECRET,
    gatewayId: 'gw-a2',
    mqttPort: 0,
    wsPort: null,
    syncIntervalMs: 200,
    redisUrl: redisA.url
  })
  seen2 = attemptsOf(gw2)
  const claims = claimsOf(gw2)
  // the first instance's first publish of every board runs on after its start: this one starts once it is in Redis
  const inA = new Redis(redisA.url)
  const keys = ['r1', 'r2', 'r3', 'm4'].flatMap((id) => ['config', 'schedule', 'fw/offer'].map((name) => `keyless:retained:boards/${id}/${name}`))
  await until(async () => (await inA.mget(keys)).every((hash) => hash !== null), { what: "the first instance's retained topics in Redis" })
  inA.disconnect()
  await gw2.start()
  await gw2.syncNow() // its first snapshot: every board's retained topics are published, or found published
  await settled([seen2], ['boards/r1/config', 'boards/r2/config', 'boards/r3/config'])
  assert.equal(gw2.cellRedis.published, 0)
  assert.ok(gw2.cellRedis.skipped >= 9, 'config, schedule and firmware offer of three boards, each skipped')
  assert.deepEqual([...published], [])
  // the stored contents were read in bulk: an unchanged topic costs no claim (a Redis command) of its own
  assert.deepEqual(claims, [])
})

test("a change of a board's configuration is published once per cell, not once per instance", async () => {
  published.clear()
  seen1.clear()
  seen2.clear()
  worker.change('device', 'upsert', 'r1', deviceRecord('r1', { name: 'Renamed' }))
  await Promise.all([gw1.syncNow(), gw2.syncNow()])
  await settled([seen1, seen2], ['boards/r1/config'])
  assert.deepEqual([...published], [['boards/r1/config', 1]])
  // and what the board gets is the new one, whichever instance it is on
  const b = await board(gw2, 'r1').connect()
  assert.equal((await b.next('config')).name, 'Renamed')
  await b.close()
})

test('a scheduled-open state computed again by another instance starting later is not published again: it keeps its first `at`', async () => {
  const window = { kind: 'scheduledOpen', tz: 'UTC', fpi: false, firstEntryAt: null, exceptions: [] }
  window.week = Array.from({ length: 7 }, () => ({ openWholeDay: true, openTime: '', closeTime: '' }))
  worker.change('scheduledOpen', 'upsert', 'so-acme', { id: 'so-acme', companyId: 'ACME', window })
  await Promise.all([gw1.syncNow(), gw2.syncNow()])
  const b = await board(gw1, 'r1').connect()
  await until(() => b.last.get('schedule')?.open === true, { what: "r1's scheduled-open state" })
  const first = b.last.get('schedule').at
  await b.close()
  // a third instance: its own clock, no memory of what was published; it computes every board's state anew
  await new Promise((resolve) => setTimeout(resolve, 5))
  const gw3 = new Gateway({
    dataDir: await dir(),
    workerUrl: worker.url,
    gatewaySecret: SECRET,
    gatewayId: 'gw-a3',
    mqttPort: 0,
    wsPort: null,
    syncIntervalMs: 200,
    redisUrl: redisA.url
  })
  try {
    const seen3 = attemptsOf(gw3)
    await gw3.start()
    await gw3.syncNow()
    await until(() => ['r1', 'r2', 'r3'].every((id) => seen3.has(`boards/${id}/schedule`)), { what: "the third instance's scheduled-open states" })
    assert.equal(gw3.cellRedis.published, 0)
    const again = await board(gw3, 'r1').connect()
    assert.equal((await again.next('schedule')).at, first)
    await again.close()
  } finally {
    await gw3.close()
    worker.change('scheduledOpen', 'delete', 'so-acme')
  }
})

test("two cells on one machine share no record: each Redis holds only its own cell's boards", async () => {
  for (const [gw, id] of [
    [gw1, 'r2'],
    [gwB, 'q1']
  ]) {
    const b = await board(gw, id).connect()
    await b.next('config')
    await b.close()
  }
  const inA = new Redis(redisA.url)
  const inB = new Redis(redisB.url)
  try {
    const dump = async (db) => {
      const keys = await db.keys('*')
      const retained = await db.hkeys('retained')
      return { keys: keys.join(' '), retained: retained.join(' '), cell: await db.get('keyless:cell') }
    }
    const a = await dump(inA)
    const b = await dump(inB)
    assert.equal(a.cell, 'main')
    assert.equal(b.cell, 'b')
    assert.match(a.retained, /boards\/r2\/config/)
    assert.match(b.retained, /boards\/q1\/config/)
    for (const id of ['r1', 'r2', 'r3']) assert.doesNotMatch(b.keys + b.retained, new RegExp(`\\b${id}\\b`))
    assert.doesNotMatch(a.keys + a.retained, /\bq1\b/)
  } finally {
    inA.disconnect()
    inB.disconnect()
  }
  assert.equal(gw1.replica.get('device', 'q1'), undefined)
  assert.equal(gwB.replica.get('device', 'r1'), undefined)
})

test("a gateway refuses to start on another cell's Redis", async () => {
  const wrong = await createGateway({
    dataDir: await dir(),
    workerUrl: worker.url,
    gatewaySecret: SECRET_B,
    gatewayId: 'gw-b-wrong',
    mqttPort: 0,
    wsPort: null,
    redisUrl: redisA.url
  })
  try {
    await assert.rejects(wrong.syncNow(), /this Redis belongs to cell "main", this gateway serves cell "b"/)
    assert.equal(wrong.replica.get('device', 'q1'), undefined, 'nothing of the feed applied')
  } finally {
    await wrong.close()
  }
})

test("a board whose company moves leaves nothing in the old cell's Redis: session, queued command, retained topics", async () => {
  const inA = new Redis(redisA.url)
  try {
    // about m4, what the old cell's Redis holds besides the hour-long empty hashes of cleared topics
    const traces = async () => {
      const keys = (await inA.keys('*m4*')).filter((k) => !(k.startsWith('keyless:retained:') && k.includes('/m4/')))
      const retained = (await inA.hkeys('retained')).filter((t) => t.includes('/m4/'))
      const empties = await Promise.all((await inA.keys('keyless:retained:*m4*')).map((k) => inA.get(k)))
      return [...keys, ...retained, ...empties.filter((v) => v !== '')]
    }
    // offline with its session kept, and a command queued for it
    await dropConnection(await board(gw1, 'm4').connect(), gw1, 'gw-a1')
    await gw2.sendCommand('m4', { id: 'queued-before-the-move', cmd: 'ping' })
    assert.ok((await traces()).length > 0, 'the session, its queue and retained topics are in the Redis')

    worker.moveCompany('MOVER', 'b')
    await Promise.all([gw1.syncNow(), gw2.syncNow(), gwB.syncNow()])
    await until(async () => (await traces()).length === 0, { what: "nothing of m4 left in the old cell's Redis" })

    const back = await board(gw2, 'm4', { retryMs: 50 }).connect()
    assert.equal(back.url, `mqtt://127.0.0.1:${gwB.mqttPort}`)
    assert.equal((await back.next('config')).cell, 'b')
    await back.close()
  } finally {
    inA.disconnect()
  }
})
