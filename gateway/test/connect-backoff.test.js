import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, deviceRecord, startGateway, spawnGateway, board } from './support/fixtures.js'
import { rawConnect } from './support/raw-connect.js'
import { hashSecret, verifySecret } from '../src/password.js'

// The back-off runs on this clock, so the test moves time instead of waiting for it.
let now = Date.parse('2026-11-23T12:00:00Z')
const clock = () => now
const later = (ms) => {
  now += ms
}

let worker, gw, dir
before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  for (const id of ['g1', 'g2', 'v', 'w']) await provisionBoard(worker, id)
  for (let i = 1; i <= 12; i++) await provisionBoard(worker, `x${i}`)
  // a board provisioned before hmac-sha256: its PBKDF2 hash keeps working
  worker.change('device', 'upsert', 'old', deviceRecord('old', { name: 'Old door', tz: 'UTC' }))
  worker.change('boardCredential', 'upsert', 'old', { deviceId: 'old', hash: await hashSecret('old-secret', { algorithm: 'pbkdf2-sha256', iterations: 1000 }) })
  dir = await tempDir()
  gw = await startGateway(worker, dir, { clock })
})
after(async () => {
  await gw.close()
  await worker.close()
  await removeDir(dir)
})

const attempt = (localAddress, clientId, password = 'board-secret') => rawConnect({ port: gw.mqttPort, localAddress, clientId, password })

test("the console's hmac-sha256 format verifies (shared vector), and so does an older PBKDF2 hash", async () => {
  // the vector of app/utils/board-secret.test.ts
  const vector = 'hmac-sha256$AAECAwQFBgcICQoLDA0ODw==$z6niL/MiHqujjV3CHonKMh98/g2v8fUtHTo7qAzmNV8='
  assert.equal(await verifySecret('Board#Demo2026', vector), true)
  assert.equal(await verifySecret('Board#Demo2026 ', vector), false)
  assert.match(gw.replica.get('boardCredential', 'g1').hash, /^hmac-sha256\$/)
  assert.equal(await attempt('127.0.0.1', 'g1'), 0)
  assert.equal(await attempt('127.0.0.1', 'old', 'old-secret'), 0)
  assert.equal(await attempt('127.0.0.1', 'old', 'wrong'), 4)
  const b = await board(gw, 'old', { password: 'old-secret' }).connect()
  await b.close()
})

test('an address that keeps failing is refused, then let in again after a wait that doubles; other addresses are unaffected', async () => {
  // 10 failures are free (NAT: many boards may share an address), the 11th starts the back-off
  for (let i = 1; i <= 11; i++) assert.equal(await attempt('127.0.0.2', `x${i}`, 'guess'), 4, `failure ${i}`)
  assert.equal(await attempt('127.0.0.2', 'g2'), 3, 'refused without checking, even with the right secret')
  assert.equal(await attempt('127.0.0.1', 'g1'), 0, 'a good board from another address connects at once')
  later(999)
  assert.equal(await attempt('127.0.0.2', 'g2'), 3)
  later(1)
  assert.equal(await attempt('127.0.0.2', 'g2'), 0, 'after 1 s')
  assert.equal(await attempt('127.0.0.2', 'x12', 'guess'), 4)
  later(1_999)
  assert.equal(await attempt('127.0.0.2', 'g2'), 3, 'the next wait is 2 s')
  later(1)
  assert.equal(await attempt('127.0.0.2', 'g2'), 0)
  later(15 * 60_000 + 1) // forgotten after 15 minutes without failures
  for (let i = 1; i <= 10; i++) assert.equal(await attempt('127.0.0.2', `x${i}`, 'guess'), 4)
  assert.equal(await attempt('127.0.0.2', 'g2'), 0, 'ten fresh failures are free again')
})

test('a board id that keeps failing is refused from every address for a while; its next success clears it', async () => {
  later(15 * 60_000 + 1)
  // five failures are free; they come from different addresses, so no address is blocked
  for (let i = 3; i <= 8; i++) assert.equal(await attempt(`127.0.0.${i}`, 'v', 'guess'), 4)
  assert.equal(await attempt('127.0.0.9', 'v'), 3, 'the right secret waits too')
  assert.equal(await attempt('127.0.0.9', 'w'), 0, 'another board from the same address is unaffected')
  later(1_000)
  assert.equal(await attempt('127.0.0.9', 'v'), 0)
  // cleared by the success: five failures are free again
  for (let i = 3; i <= 7; i++) assert.equal(await attempt(`127.0.0.${i}`, 'v', 'guess'), 4)
  assert.equal(await attempt('127.0.0.9', 'v'), 0)
  assert.ok(gw.backoff.refused >= 4)
})

/** The warnings a gateway process logs from its start to a clean stop, so none can arrive later. */
async function warningsOfARun(env) {
  const own = await tempDir('gw-backoff-run-')
  try {
    const child = await spawnGateway({ DATA_DIR: own, WORKER_URL: worker.url, MQTT_PORT: '0', LOG_LEVEL: 'warn', ...env }, { stderr: 'pipe' })
    let log = ''
    child.proc.stderr.on('data', (d) => (log += d))
    const closed = once(child.proc, 'close') // after its output ended, unlike 'exit'
    child.proc.kill('SIGTERM')
    await closed
    return log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((l) => l.level === 'warn')
      .map((l) => l.msg)
  } finally {
    await removeDir(own)
  }
}

test('CONNECT_BACKOFF=off is warned about at startup; with the back-off on there is no such warning', async () => {
  const backoffWarning = (msgs) => msgs.filter((m) => /back-off is off/.test(m))
  assert.equal(backoffWarning(await warningsOfARun({ CONNECT_BACKOFF: 'off' })).length, 1)
  assert.deepEqual(backoffWarning(await warningsOfARun({})), [])
})
