/**
 * Board clocks and zone data (PROTOCOL.md "status", decision 0092): a real broker and real MQTT boards
 * whose clocks are set off; the console's gateway API played by the contract double.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import core from '../../core-wasm/pkg/node.js'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, until } from './support/fixtures.js'
import { olderZoneData } from '../src/events/board-clocks.js'

const STATUS_MS = 300

test('a board whose clock drifts is flagged within one status interval, sent the time, and reads true again', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  const gw = await startGateway(worker, dir, { boardStatusMs: STATUS_MS })
  try {
    await provisionBoard(worker, 'c1')
    await gw.syncNow()
    const b = await board(gw, 'c1', { tzdata: core.tzdataVersion() }).connect()
    await until(() => worker.clocks.get('c1')?.length === 1, { what: 'the first reading' })
    const [first] = worker.clocks.get('c1')
    assert.ok(Math.abs(first.driftMs) < 2_000, `a true clock reads about 0 (${first.driftMs} ms)`)
    assert.equal(first.tzdata, core.tzdataVersion())
    assert.equal(b.last.get('config').statusMs, STATUS_MS, 'the configuration says how often to report')

    // Three more intervals of a steady clock: nothing new reaches the console.
    await new Promise((resolve) => setTimeout(resolve, 3 * STATUS_MS))
    assert.equal(worker.clocks.get('c1').length, 1, 'a steady clock is reported once per connection')

    // The board's clock slips 45 s ahead while it is connected.
    const slipped = Date.now()
    b.clockOffsetMs = 45_000
    const [time] = await once(b, 'time', { signal: AbortSignal.timeout(STATUS_MS + 1_500) })
    assert.ok(Math.abs(time.at - Date.now()) < 2_000, "the gateway's time")
    await until(() => worker.clocks.get('c1').some((r) => r.driftMs > 30_000), { what: 'the drift at the console', timeoutMs: 3_000 })
    const flagged = worker.clocks.get('c1').find((r) => r.driftMs > 30_000)
    assert.ok(flagged.at - slipped <= STATUS_MS + 1_000, `flagged within one status interval (${flagged.at - slipped} ms)`)
    assert.ok(flagged.driftMs > 43_000 && flagged.driftMs < 47_000, `the drift as measured (${flagged.driftMs} ms)`)

    // The board took the gateway's time: its next status reads true, and the console hears that too.
    assert.ok(Math.abs(b.clockOffsetMs) < 2_000, 'the board set its clock')
    await until(() => Math.abs(worker.clocks.get('c1').at(-1).driftMs) < 2_000, { what: 'the corrected clock at the console', timeoutMs: 3_000 })
    assert.equal(gw.clocks.reading('c1').drifted, false)
    await b.close()
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})

test("a board deciding with zone data older than the core's is flagged; a board that reports no clock is left alone", async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  const gw = await startGateway(worker, dir, { boardStatusMs: STATUS_MS })
  try {
    await provisionBoard(worker, 'c2')
    await provisionBoard(worker, 'c3')
    await gw.syncNow()
    const old = await board(gw, 'c2', { tzdata: '2019c' }).connect()
    await until(() => worker.clocks.get('c2')?.length === 1, { what: 'the reading of c2' })
    assert.equal(worker.clocks.get('c2')[0].tzdata, '2019c')
    assert.deepEqual({ drifted: gw.clocks.reading('c2').drifted, staleZones: gw.clocks.reading('c2').staleZones }, { drifted: false, staleZones: true })
    // A status of the protocol's earlier revisions: no clock, no zone data, nothing to flag or send.
    const quiet = board(gw, 'c3')
    quiet.publishStatus = () => quiet.publish('status', { v: 1, online: true, fw: '1.0.0' }, { qos: 1, retain: true })
    await quiet.connect()
    await new Promise((resolve) => setTimeout(resolve, 2 * STATUS_MS))
    assert.equal(worker.clocks.has('c3'), false)
    assert.equal(quiet.last.has('time'), false)
    await old.close()
    await quiet.close()
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})

test('a status with a clock or zone data that is not one is refused with bad_payload', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  const gw = await startGateway(worker, dir)
  try {
    await provisionBoard(worker, 'c4')
    await gw.syncNow()
    const b = await board(gw, 'c4').connect()
    for (const bad of [{ clock: -5 }, { clock: 'now' }, { tzdata: 'latest' }, { tzdata: '2025b; drop' }]) {
      const error = once(b, 'error', { signal: AbortSignal.timeout(3_000) })
      await b.publish('status', { v: 1, online: true, ...bad }, { qos: 1, retain: true })
      const [e] = await error
      assert.equal(e.code, 'bad_payload', JSON.stringify(bad))
    }
    await b.close()
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})

test('zone data versions compare by year, then by letters', () => {
  assert.equal(olderZoneData('2024a', '2025b'), true)
  assert.equal(olderZoneData('2025a', '2025b'), true)
  assert.equal(olderZoneData('2025z', '2025aa'), true)
  assert.equal(olderZoneData('2025b', '2025b'), false)
  assert.equal(olderZoneData('2026a', '2025b'), false)
})
