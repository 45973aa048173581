import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import mqtt from 'mqtt'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, boardHash, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'

let worker, gw, dir
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'b1')
  await provisionBoard(worker, 'b2')
  worker.change('device', 'upsert', 'b3', { id: 'b3', companyId: 'ACME', deviceType: 'AB-200', active: false })
  worker.change('boardCredential', 'upsert', 'b3', { deviceId: 'b3', hash: await boardHash() })
  dir = await tempDir()
  gw = await startGateway(worker, dir)
})
after(async () => {
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

/** SUBACK return codes, including refusals (mqtt.js turns a 128 into an error). */
function subscribeCodes(client, topics) {
  return new Promise((resolve) => {
    const onPacket = (p) => {
      if (p.cmd === 'suback') {
        client.off('packetreceive', onPacket)
        resolve(p.granted)
      }
    }
    client.on('packetreceive', onPacket)
    client.subscribe(topics, () => {})
  })
}

const refused = (b) =>
  b.connect().then(
    () => {
      b.close()
      return false
    },
    (e) => e
  )

test('a board with its own credentials connects and gets its retained config', async () => {
  const b1 = await board(gw, 'b1').connect()
  const config = await b1.next('config')
  assert.equal(config.deviceId, 'b1')
  assert.equal(config.v, 1)
  assert.equal(config.rev, 3, 'the protocol revision, so firmware knows which additions it may use')
  await b1.close()
})

test('wrong password, unknown board, mismatched client id and deactivated device are refused', async () => {
  for (const b of [board(gw, 'b1', { password: 'wrong' }), board(gw, 'nobody'), board(gw, 'b3')]) {
    const err = await refused(b)
    assert.ok(err instanceof Error, `${b.id} must be refused`)
    assert.match(err.message, /Bad username or password|Connection refused|closed/i)
  }
  const c = mqtt.connect(`mqtt://127.0.0.1:${gw.mqttPort}`, { clientId: 'b2', username: 'b1', password: 'board-secret', reconnectPeriod: 0 })
  const err = await new Promise((resolve) => {
    c.once('connect', () => resolve(null))
    c.once('error', resolve)
  })
  c.end(true)
  assert.ok(err, 'client id must equal username')
})

test('a board cannot subscribe to another board, $SYS or everything', async () => {
  const b1 = await board(gw, 'b1', { subscribe: [] }).connect()
  const granted = await subscribeCodes(b1.client, {
    'boards/b2/cmd': { qos: 1 },
    'boards/+/cmd': { qos: 1 },
    '#': { qos: 1 },
    '$SYS/#': { qos: 0 },
    'boards/b1/cmd': { qos: 1 }
  })
  assert.deepEqual(granted, [128, 128, 128, 128, 1])
  await b1.close()
})

test('a board cannot read what is sent to another board', async () => {
  const b1 = await board(gw, 'b1').connect()
  const b2 = await board(gw, 'b2').connect()
  const seenByB1 = []
  b1.client.on('message', (t) => {
    if (t.includes('/b2/')) seenByB1.push(t)
  })
  const cmd = b2.next('cmd', { fresh: true })
  await gw.sendCommand('b2', { id: 'c1', cmd: 'ping' })
  assert.equal((await cmd).id, 'c1')
  // b1's own command, sent after: anything of b2's forwarded to b1 would have come first
  const own = b1.next('cmd', { fresh: true })
  await gw.sendCommand('b1', { id: 'c1-own', cmd: 'ping' })
  await own
  assert.deepEqual(seenByB1, [])
  await b1.close()
  await b2.close()
})

test("publishing to another board's topic or a down topic closes the connection and reaches nobody", async () => {
  const b2 = await board(gw, 'b2').connect()
  const b2Got = []
  b2.on('cmd', (m) => b2Got.push(m.id))
  for (const topicOverride of ['boards/b2/cmd', 'boards/b1/access/res', '$SYS/x', 'elsewhere']) {
    const b1 = await board(gw, 'b1', { subscribe: [] }).connect()
    const closed = new Promise((resolve) => b1.client.once('close', () => resolve()))
    b1.publish('x', { v: 1, id: 'c9', cmd: 'unlock' }, { qos: 1, topicOverride }).catch(() => {})
    await closed
    b1.kill()
  }
  // sent after the refused ones: once it is here, they had their turn
  await gw.sendCommand('b2', { id: 'after-refused', cmd: 'ping' })
  await until(() => b2Got.includes('after-refused'), { what: 'the command sent after the refused ones' })
  assert.deepEqual(b2Got, ['after-refused'])
  await b2.close()
})

test('the operator (gateway secret) may send commands; a board may not pose as operator', async () => {
  const b2 = await board(gw, 'b2').connect()
  const op = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, { clientId: 'op1', username: 'operator', password: SECRET, reconnectPeriod: 0 })
  const cmd = b2.next('cmd', { fresh: true })
  await op.publishAsync('boards/b2/cmd', JSON.stringify({ v: 1, id: 'c2', cmd: 'unlock' }), { qos: 1 })
  assert.equal((await cmd).id, 'c2')
  // The operator reads the gateway's figures on $SYS, which boards cannot.
  const stats = new Promise((resolve) => op.once('message', (_t, p) => resolve(JSON.parse(p.toString()))))
  await op.subscribeAsync('$SYS/gw-test/gateway/stats', { qos: 0 })
  const s = await stats
  assert.equal(s.v, 1)
  assert.equal(typeof s.boards, 'number')
  assert.equal(typeof s.events.queued, 'number')
  await op.endAsync()
  const fake = board(gw, 'operator', { password: 'board-secret' })
  assert.ok(await refused(fake))
  await b2.close()
})

test('WebSocket listener serves tools with the same rules', async () => {
  const c = await mqtt.connectAsync(`ws://127.0.0.1:${gw.wsPort}`, { clientId: 'b1', username: 'b1', password: 'board-secret', reconnectPeriod: 0, clean: true })
  const granted = await subscribeCodes(c, { 'boards/b2/#': { qos: 1 }, 'boards/b1/config': { qos: 1 } })
  assert.deepEqual(granted, [128, 1])
  await c.endAsync()
})

/** A valid event, so only the limit under test keeps it out of the queue (JSON allows trailing spaces). */
const eventPayload = (id, bytes = 0) => JSON.stringify({ v: 1, id, type: 'door.opened', at: Date.now(), data: {} }).padEnd(bytes, ' ')

test('a too-deep topic or an oversized payload closes the connection and stores nothing; the gateway keeps serving', async () => {
  const rowsBefore = new Set(worker.rows.keys())
  const cases = [
    ['boards/b1/events/a/b/c/d/e/f/g', eventPayload('too-deep')],
    ['boards/b1/events', eventPayload('too-big', 66_000)],
    ['boards/b1/events', eventPayload('frame-too-big', 8 * 1024 * 1024)]
  ]
  const outcomes = []
  for (const [t, payload] of cases) {
    const b1 = await board(gw, 'b1', { subscribe: [] }).connect()
    outcomes.push(
      await new Promise((resolve) => {
        b1.client.once('close', () => resolve('connection closed'))
        b1.publish('x', payload, { qos: 1, topicOverride: t }).then(
          () => resolve('stored (PUBACK)'),
          () => {}
        )
      })
    )
    b1.kill()
  }
  const b1 = await board(gw, 'b1').connect()
  await until(() => b1.last.has('config'))
  // Events reach the Worker in the order they were stored, so once this one is a row, anything stored before it is too.
  await b1.sendEvent('door.closed', {}, { id: 'after-limits' })
  await until(() => worker.rows.has('b1/after-limits'), { what: 'the event sent after the refused ones' })
  assert.deepEqual(
    [...worker.rows.keys()].filter((id) => !rowsBefore.has(id)),
    ['b1/after-limits'],
    'nothing of the refused messages was stored'
  )
  assert.deepEqual(outcomes, ['connection closed', 'connection closed', 'connection closed'])
  await b1.close()
})

test('MQTT over TLS: the same boards, the same rules', async () => {
  const tlsDir = await tempDir('gw-tls-')
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(tlsDir, 'key.pem'),
        '-out',
        join(tlsDir, 'cert.pem')
      ],
      { stdio: 'ignore' }
    )
    const cert = readFileSync(join(tlsDir, 'cert.pem'))
    const secure = await startGateway(worker, join(tlsDir, 'data'), { tls: { cert, key: readFileSync(join(tlsDir, 'key.pem')), port: 0 }, wsPort: null })
    try {
      const b1 = await board(secure, 'b1', { url: `mqtts://127.0.0.1:${secure.mqttsPort}`, ca: cert }).connect()
      assert.equal((await b1.next('config')).deviceId, 'b1')
      await b1.close()
      assert.ok(await refused(board(secure, 'b1', { url: `mqtts://127.0.0.1:${secure.mqttsPort}`, ca: cert, password: 'wrong' })))
    } finally {
      await secure.close()
    }
  } finally {
    await removeDir(tlsDir)
  }
})
