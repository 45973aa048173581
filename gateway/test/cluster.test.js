/**
 * Two gateway instances sharing Debian's redis-server (mqemitter-redis + aedes-persistence-redis):
 * a board may connect to either, messages cross instances, sessions outlive an instance.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import mqtt from 'mqtt'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, dropConnection, until } from './support/fixtures.js'
import { startRedis } from './support/processes.js'

let redis, worker, a, b, dirA, dirB
const start = (dir, id, mqttPort = 0) => startGateway(worker, dir, { redisUrl: redis.url, gatewayId: id, mqttPort })

before(async () => {
  redis = await startRedis()
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'c1')
  await provisionBoard(worker, 'c2')
  dirA = await tempDir()
  dirB = await tempDir()
  a = await start(dirA, 'gw-a')
  b = await start(dirB, 'gw-b')
})
after(async () => {
  await a?.close()
  await b?.close()
  await worker.close()
  await redis.stop()
  await removeDir(dirA)
  await removeDir(dirB)
})

test('a command published through one instance reaches a board on the other', async () => {
  const c1 = await board(b, 'c1').connect()
  const viaGateway = c1.next('cmd', { fresh: true })
  await a.sendCommand('c1', { id: 'x1', cmd: 'unlock' })
  assert.equal((await viaGateway).id, 'x1')

  const op = await mqtt.connectAsync(`mqtt://127.0.0.1:${a.mqttPort}`, { clientId: 'op', username: 'operator', password: SECRET, reconnectPeriod: 0 })
  const viaOperator = c1.next('cmd', { fresh: true })
  await op.publishAsync('boards/c1/cmd', JSON.stringify({ v: 1, id: 'x2', cmd: 'ping' }), { qos: 1 })
  assert.equal((await viaOperator).id, 'x2')
  await op.endAsync()
  await c1.close()
})

test('retained configuration is the same on both instances', async () => {
  const onA = await board(a, 'c2').connect()
  assert.equal((await onA.next('config')).deviceId, 'c2')
  await onA.close()
  const onB = await board(b, 'c2').connect()
  assert.equal((await onB.next('config')).deviceId, 'c2')
  await onB.close()
})

test('a persistent session survives an instance restart: subscriptions kept, queued commands delivered', async () => {
  // gone without DISCONNECT; the session (clean=false) stays in Redis
  await dropConnection(await board(a, 'c2').connect(), a, 'gw-a')
  const port = a.mqttPort
  await a.close()
  a = null
  await b.sendCommand('c2', { id: 'while-away', cmd: 'unlock' }) // queued for the offline session
  a = await start(dirA, 'gw-a', port)
  const back = board(a, 'c2', { subscribe: [] }) // does not subscribe again: the session must have it
  const cmd = new Promise((resolve) => back.once('cmd', resolve))
  await back.connect()
  assert.equal(back.sessionPresent, true)
  assert.equal((await cmd).id, 'while-away')
  await back.close()
})

test('a queued command past its deadline is withheld by every instance; one within it is delivered', async () => {
  // offline with its session (and cmd subscription) kept in Redis
  await dropConnection(await board(a, 'c1').connect(), a, 'gw-a')
  const op = await mqtt.connectAsync(`mqtt://127.0.0.1:${b.mqttPort}`, { clientId: 'op-deadline', username: 'operator', password: SECRET, reconnectPeriod: 0 })
  const staleExpiresAt = Date.now() + 300
  await op.publishAsync('boards/c1/cmd', JSON.stringify({ v: 1, id: 'stale', cmd: 'unlock', expiresAt: staleExpiresAt }), { qos: 1 })
  await op.publishAsync('boards/c1/cmd', JSON.stringify({ v: 1, id: 'fresh', cmd: 'ping' }), { qos: 1 })
  await op.endAsync()
  await b.sendCommand('c1', { id: 'fresh-2', cmd: 'ping' })
  await until(() => Date.now() > staleExpiresAt, { what: 'the unlock past its deadline' })

  const acceptedBefore = Date.now()
  const back = board(a, 'c1', { subscribe: [] }) // the session in Redis has the subscription
  const got = []
  back.on('cmd', (m) => got.push(m))
  await back.connect()
  await until(() => got.length === 2, { what: 'the commands within their deadline' })
  // sent after those arrived: anything still on its way to the board comes before it
  await b.sendCommand('c1', { id: 'marker', cmd: 'ping' })
  await until(() => got.some((m) => m.id === 'marker'), { what: 'the marker command' })
  assert.deepEqual(
    got.map((m) => m.id),
    ['fresh', 'fresh-2', 'marker'],
    'the stale unlock is not delivered'
  )
  for (const m of got.slice(0, 2)) {
    assert.ok(m.expiresAt > acceptedBefore && m.expiresAt <= acceptedBefore + 5 * 60_000, 'a deadline 5 minutes after acceptance was written in')
  }
  await back.close()
})

test('events from boards on either instance reach the Worker once', async () => {
  const onA = await board(a, 'c1').connect()
  const onB = await board(b, 'c2').connect()
  await onA.sendEvent('tamper', { state: 'opened' }, { id: 'ta-1' })
  await onB.sendEvent('tamper', { state: 'opened' }, { id: 'tb-1' })
  await until(() => worker.rows.has('c1/ta-1') && worker.rows.has('c2/tb-1'), { what: 'rows' })
  assert.equal(worker.rows.get('c1/ta-1').gatewayId, 'gw-a')
  assert.equal(worker.rows.get('c2/tb-1').gatewayId, 'gw-b')
  await onA.close()
  await onB.close()
})
