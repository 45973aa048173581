/**
 * Events the Worker rejects do not vanish: they go to the dead-letter file (events/rejected.jsonl) before
 * their batch leaves the queue, survive a SIGKILL, show in the operator's stats, and are offered to the
 * Worker again on a bounded schedule (decision 0106). The Worker end is the contract test double, which
 * rejects entries with the console's rules and words; the poison event is a `command.result` sent to a
 * console from before that type had an activity name.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, spawnGateway, gatewayStats, until } from './support/fixtures.js'
import { EventQueue } from '../src/store/event-queue.js'
import { WorkerClient } from '../src/sync/worker-client.js'
import { Forwarder } from '../src/events/forwarder.js'
import { createLogger } from '../src/log.js'

const NOT_RECORDED = 'event type command.result is not recorded'
const deadLetterPath = (dir) => join(dir, 'events', 'rejected.jsonl')
const deadLetterLines = async (dir) => {
  const text = await readFile(deadLetterPath(dir), 'utf8').catch((e) => (e.code === 'ENOENT' ? '' : Promise.reject(e)))
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
}

/** A console that cannot place `command.result` yet, with board `id` provisioned. */
async function consoleWithoutCommandResults(id) {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.recordedTypes.delete('command.result')
  await provisionBoard(worker, id)
  return worker
}

/** Sends three good events and one poison event while the Worker is down, so they travel in one batch. */
async function sendMixedBatch(worker, b) {
  worker.down = true
  await b.sendEvent('door.opened', {}, { id: 'good-1' })
  await b.sendEvent('command.result', { cmd: 'cmd_8', ok: true }, { id: 'poison-1' })
  await b.sendEvent('door.closed', {}, { id: 'good-2' })
  await b.sendEvent('battery', { percent: 55 }, { id: 'good-3' })
  worker.down = false
}

test('a rejected event goes to the dead-letter file with its reason, the good ones become rows, and a SIGKILL loses nothing', { timeout: 60_000 }, async () => {
  const worker = await consoleWithoutCommandResults('p1')
  const dir = await tempDir('gw-dead-letter-')
  const env = { DATA_DIR: dir, WORKER_URL: worker.url, MQTT_PORT: '0', SYNC_INTERVAL_MS: '200', STATS_INTERVAL_MS: '100', GATEWAY_ID: 'gw-dead' }
  let gw
  try {
    gw = await spawnGateway(env)
    const b = await board(gw, 'p1', { subscribe: [] }).connect()
    const sentAt = Date.now()
    await sendMixedBatch(worker, b)
    await until(() => worker.rows.size === 3, { what: 'the good rows' })
    await until(async () => (await deadLetterLines(dir)).length === 1, { what: 'the dead-letter line' })

    assert.deepEqual([...worker.rows.keys()].sort(), ['p1/good-1', 'p1/good-2', 'p1/good-3'])
    const [line] = await deadLetterLines(dir)
    assert.equal(line.reason, NOT_RECORDED)
    assert.equal(line.attempt, 1)
    assert.ok(line.at >= sentAt && line.at <= Date.now())
    assert.deepEqual(
      { ...line.event, receivedAt: 0, at: 0 },
      { id: 'p1/poison-1', deviceId: 'p1', type: 'command.result', at: 0, receivedAt: 0, gatewayId: 'gw-dead', data: { cmd: 'cmd_8', ok: true } }
    )
    // The Worker stores the rows before its answer reaches the gateway: the batch leaves the queue
    // when the answer is handled, so wait for a report that shows it gone and the rejection counted
    // (the test's timeout bounds it). A clean-clone run once saw a report with the queue empty and the
    // count still 0 (2026-11-27, not reproduced; the count is set before the ack in code).
    const before = await gatewayStats(gw.mqttPort, 'gw-dead', (s) => s.events.queued === 0 && s.events.deadLettered === 1)
    assert.equal(before.events.deadLettered, 1)
    assert.equal(before.events.awaitingRetry, 1)
    await b.close()

    gw.proc.kill('SIGKILL')
    await gw.exited
    gw = await spawnGateway(env)
    // The restarted gateway reads its files back after it starts reporting: wait for a report that
    // counts the dead letter (the test's timeout bounds it), then nothing may be queued again.
    const after = await gatewayStats(gw.mqttPort, 'gw-dead', (s) => s.events.deadLettered === 1)
    assert.equal(after.events.queued, 0)
    const b2 = await board(gw, 'p1', { subscribe: [] }).connect()
    await b2.sendEvent('door.opened', {}, { id: 'good-4' })
    await until(() => worker.rows.has('p1/good-4'), { what: 'a row after the restart' })
    await b2.close()
    assert.equal(worker.rows.size, 4)
    assert.equal((await deadLetterLines(dir)).length, 1, 'nothing sent twice to the dead letter')
  } finally {
    gw?.proc.kill('SIGKILL')
    await gw?.exited
    await worker.close()
    await removeDir(dir)
  }
})

test('a batch whose rejection cannot be written stays in the queue until it can', { timeout: 30_000 }, async () => {
  const worker = await consoleWithoutCommandResults('p2')
  const dir = await tempDir('gw-dead-letter-')
  const gw = await startGateway(worker, dir, { gatewayId: 'gw-dead-2' })
  try {
    const deadLetter = gw.forwarder.deadLetter
    const appendLine = deadLetter.log.appendLine
    let refused = 0
    deadLetter.log.appendLine = () => {
      refused++
      return Promise.reject(new Error('ENOSPC: no space left on device'))
    }
    const b = await board(gw, 'p2', { subscribe: [] }).connect()
    await sendMixedBatch(worker, b)
    await until(() => refused >= 2, { what: 'two attempts to keep the rejection' })
    assert.equal(worker.rows.size, 3, 'the Worker stored the good events')
    assert.equal(gw.queue.length, 4, 'but nothing left the queue')

    deadLetter.log.appendLine = appendLine
    await until(() => gw.queue.length === 0, { what: 'the queue to drain' })
    assert.equal(worker.rows.size, 3, 'the re-sent good events were duplicates')
    assert.ok(worker.duplicates >= 3)
    const lines = await deadLetterLines(dir)
    assert.deepEqual(
      lines.map((l) => [l.event.id, l.reason]),
      [['p2/poison-1', NOT_RECORDED]]
    )
    await b.close()
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})

test('held events are offered again on a bounded schedule: stored once the console knows them, left alone after the last retry', { timeout: 30_000 }, async () => {
  const worker = await consoleWithoutCommandResults('p3')
  const dir = await tempDir('gw-dead-letter-')
  const queue = await new EventQueue(join(dir, 'events')).open()
  const client = new WorkerClient({ url: worker.url, secret: SECRET, gatewayId: 'gw-retry' })
  const log = createLogger('test')
  const forwarder = (retryAfterMs) => new Forwarder({ queue, worker: client, gatewayId: 'gw-retry', log, dataDir: dir, retryAfterMs, idleMs: 20 }).start()
  const event = (id, deviceId, type, data) => ({ id, deviceId, type, at: Date.now(), receivedAt: Date.now(), gatewayId: 'gw-retry', data })
  let f
  try {
    f = forwarder([300, 300])
    await queue.push(event('p3/cmd-1', 'p3', 'command.result', { cmd: 'cmd_1', ok: false, error: 'jammed' }))
    await queue.push(event('ghost/door-1', 'ghost', 'door.opened', {}))
    f.poke()
    await until(async () => (await deadLetterLines(dir)).length === 2, { what: 'both rejections kept' })
    worker.recordedTypes.add('command.result') // the console is upgraded before the first retry

    await until(() => worker.rows.has('p3/cmd-1'), { what: 'the command result stored on its retry' })
    // the line is on disk a moment before the forwarder's own state says so (it waits for the sync)
    await until(async () => (await deadLetterLines(dir)).filter((l) => l.event?.id === 'ghost/door-1').length === 3 && f.deadLetter.awaitingRetry === 0, {
      what: 'the last retry of the unknown device'
    })
    assert.equal(f.deadLetter.held, 1)
    assert.equal(f.deadLetter.awaitingRetry, 0)
    const requests = worker.requests.events
    await new Promise((resolve) => setTimeout(resolve, 1000))
    assert.equal(worker.requests.events, requests, 'no retry after the last one')

    const lines = await deadLetterLines(dir)
    assert.deepEqual(
      lines.filter((l) => l.event?.id === 'ghost/door-1').map((l) => [l.attempt, l.reason]),
      [
        [1, 'unknown device'],
        [2, 'unknown device'],
        [3, 'unknown device']
      ]
    )
    assert.deepEqual(
      lines.filter((l) => l.accepted).map((l) => l.accepted),
      ['p3/cmd-1']
    )
    assert.equal(queue.length, 0)

    // A restart reads the same state back: one event held, none to retry.
    await f.stop()
    f = forwarder([300, 300])
    await until(() => f.deadLetter.held === 1, { what: 'the dead letter read back' })
    assert.equal(f.deadLetter.awaitingRetry, 0)
  } finally {
    await f?.stop()
    await queue.close()
    await worker.close()
    await removeDir(dir)
  }
})

test('a torn last line of the dead-letter file is dropped, the lines before it are kept', async () => {
  const dir = await tempDir('gw-dead-letter-')
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const queue = await new EventQueue(join(dir, 'events')).open()
  const kept = { at: Date.now(), reason: 'unknown device', attempt: 1, event: { id: 'x/1', deviceId: 'x', type: 'door.opened', at: 1, data: {} } }
  await mkdir(join(dir, 'events'), { recursive: true })
  await writeFile(deadLetterPath(dir), JSON.stringify(kept) + '\n{"at":2,"reason":"unkn')
  const f = new Forwarder({ queue, worker: new WorkerClient({ url: worker.url, secret: SECRET, gatewayId: 'g' }), gatewayId: 'g', log: createLogger('test'), dataDir: dir }).start()
  try {
    await until(() => f.deadLetter.held === 1, { what: 'the dead letter opened' })
    assert.deepEqual(await deadLetterLines(dir), [kept])
  } finally {
    await f.stop()
    await queue.close()
    await worker.close()
    await removeDir(dir)
  }
})
