/**
 * Commands for offline boards outlive the gateway (single-instance mode, no Redis): the gateway runs as
 * a child process and is SIGKILLed while it holds them; the operator and the boards are real MQTT
 * clients. Every board's deliveries are counted at the MQTT level, duplicates included.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import mqtt from 'mqtt'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, spawnGateway, startGateway, dropConnection, until } from './support/fixtures.js'
import { COMMANDS_PER_BOARD } from '../src/commands/outbox.js'

const GATEWAY_ID = 'gw-commands'
let worker, dir, env, gw

before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  for (const id of ['k1', 'k2', 'k3', 'k4', 'k5', 'k6']) await provisionBoard(worker, id)
  dir = await tempDir('gw-commands-')
  env = { DATA_DIR: dir, WORKER_URL: worker.url, MQTT_PORT: '0', SYNC_INTERVAL_MS: '200', GATEWAY_ID }
  gw = await spawnGateway(env)
})
after(async () => {
  gw?.proc.kill('SIGKILL')
  await gw?.exited
  await worker.close()
  await removeDir(dir)
})

async function killAndRestart() {
  gw.proc.kill('SIGKILL')
  await gw.exited
  gw = await spawnGateway({ ...env, MQTT_PORT: String(gw.mqttPort) })
}

const operator = () => mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, { clientId: 'op', username: 'operator', password: SECRET, reconnectPeriod: 0 })

/**
 * Publishes commands as the operator; resolves once the gateway acknowledged every one (PUBACK). A refused
 * command closes the connection, which leaves mqtt.js waiting for ever: that fails here instead.
 */
async function publish(boardId, ...cmds) {
  const op = await operator()
  const closed = new Promise((resolve, reject) => op.once('close', () => reject(new Error(`the gateway closed the operator's connection: a command for ${boardId} was refused`))))
  for (const c of cmds) await Promise.race([op.publishAsync(`boards/${boardId}/cmd`, JSON.stringify({ v: 1, cmd: 'unlock', ...c }), { qos: 1 }), closed])
  closed.catch(() => {})
  await op.endAsync()
}

/** A board that leaves a persistent session behind: connected, subscribed, then gone without DISCONNECT. */
async function leaveSession(id) {
  await dropConnection(await board(gw, id).connect(), gw, GATEWAY_ID)
}

/** Command ids of a board that the outbox file still holds as outstanding (added, not acknowledged). */
async function outstandingOnDisk(boardId) {
  const records = (await readFile(join(dir, 'commands', 'commands.log'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
  const ids = new Set()
  for (const r of records.filter((r) => r.boardId === boardId)) {
    if (r.op === 'add') ids.add(r.id)
    else ids.delete(r.id)
  }
  return ids
}

/** Resolves once the board's PUBACKs for `ids` are on the gateway's disk (they then survive a SIGKILL). */
const acknowledgedOnDisk = (boardId, ids) =>
  until(
    async () => {
      const outstanding = await outstandingOnDisk(boardId)
      return ids.every((id) => !outstanding.has(id))
    },
    { what: `${boardId}'s acknowledgements on disk` }
  )

/**
 * Connects a board and returns the command ids it receives, repeats included. A marker command sent
 * after the board subscribed closes the list: anything the gateway holds for the board arrives first.
 */
async function receive(id, marker, { held = 0 } = {}) {
  const got = []
  const b = board(gw, id)
  b.on('cmd', (m) => got.push(m.id))
  b.on('cmd-duplicate', (m) => got.push(m.id))
  await b.connect()
  if (held > 0) {
    // A board at its limit takes no new command until the gateway has its acknowledgements of the ones it holds.
    await until(() => got.length >= held, { what: `the ${held} held commands` })
    await acknowledgedOnDisk(id, got)
  }
  await publish(id, { id: marker, cmd: 'ping' })
  await until(() => got.includes(marker), { what: `marker ${marker}` })
  // so that the next restart knows they were delivered
  await acknowledgedOnDisk(id, got)
  await b.close()
  return { got, sessionPresent: b.sessionPresent }
}

test('a command for an offline board survives a SIGKILL, arrives once, and not again after the next restart', async () => {
  await leaveSession('k1')
  await publish('k1', { id: 'u-1' })
  await killAndRestart()

  const first = await receive('k1', 'm-1')
  assert.equal(first.sessionPresent, false, 'the restart ended the in-memory session')
  assert.deepEqual(first.got, ['u-1', 'm-1'])

  await killAndRestart()
  assert.deepEqual((await receive('k1', 'm-2')).got, ['m-2'], 'acknowledged commands are not delivered again')
})

test('an expired command is not delivered after a restart; an unexpired one beside it is', async () => {
  await leaveSession('k2')
  const expiresAt = Date.now() + 1000
  await publish('k2', { id: 'e-1', expiresAt }, { id: 'e-keep', cmd: 'lock' })
  await killAndRestart()
  await until(() => Date.now() > expiresAt + 100, { what: 'expiry' })
  assert.deepEqual((await receive('k2', 'm-3')).got, ['e-keep', 'm-3'])
})

test("without a restart the broker's session delivers once, and withholds what expired meanwhile", async () => {
  await leaveSession('k3')
  const lateExpiresAt = Date.now() + 300
  await publish('k3', { id: 'c-1' }, { id: 'c-late', expiresAt: lateExpiresAt }, { id: 'c-stale', expiresAt: Date.now() - 1 })
  await until(() => Date.now() > lateExpiresAt, { what: 'expiry' })
  const r = await receive('k3', 'm-4')
  assert.equal(r.sessionPresent, true)
  assert.deepEqual(r.got, ['c-1', 'm-4'])
})

test('a command for a board that never connected since the restart is delivered when it subscribes', async () => {
  await killAndRestart()
  await publish('k4', { id: 'n-1', cmd: 'reboot' })
  assert.deepEqual((await receive('k4', 'm-5')).got, ['n-1', 'm-5'])
})

test(`at most ${COMMANDS_PER_BOARD} outstanding commands per board: one more is refused without PUBACK`, async () => {
  const op = await operator()
  const ids = Array.from({ length: COMMANDS_PER_BOARD }, (_, i) => `q-${i}`)
  await Promise.all(ids.map((id) => op.publishAsync('boards/k5/cmd', JSON.stringify({ v: 1, id, cmd: 'ping' }), { qos: 1 })))
  const outcome = await new Promise((resolve) => {
    op.once('close', () => resolve('connection closed'))
    op.publish('boards/k5/cmd', JSON.stringify({ v: 1, id: 'q-over', cmd: 'ping' }), { qos: 1 }, (err) => {
      if (!err) resolve('acknowledged')
    })
  })
  assert.equal(outcome, 'connection closed')
  op.end(true)

  await killAndRestart()
  assert.deepEqual((await receive('k5', 'm-6', { held: ids.length })).got, [...ids, 'm-6'])
})

test('gw.sendCommand stores the command too', async () => {
  const own = await tempDir('gw-commands-inproc-')
  let inproc = await startGateway(worker, own)
  try {
    await inproc.sendCommand('k6', { id: 's-1', cmd: 'reboot' })
    await inproc.close()
    inproc = await startGateway(worker, own)
    const got = []
    const b = board(inproc, 'k6')
    b.on('cmd', (m) => got.push(m.id))
    await b.connect()
    await until(() => got.length > 0, { what: 'the stored command' })
    assert.deepEqual(got, ['s-1'])
    await b.close()
  } finally {
    await inproc.close()
    await removeDir(own)
  }
})
