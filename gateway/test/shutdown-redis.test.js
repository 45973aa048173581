/**
 * A cluster gateway stopped while it is still republishing every board's retained configuration into its
 * cell's Redis (at start, after a snapshot, after a change of the cell's endpoint) stops cleanly: nothing
 * it was doing rejects unhandled once its Redis connections are closed.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, startGateway, until } from './support/fixtures.js'
import { startRedis } from './support/processes.js'

const BOARDS = 400
let worker, redis, dir

before(async () => {
  redis = await startRedis()
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.cell('main', { mqttUrl: 'mqtt://127.0.0.1:1883' })
  worker.change('company', 'upsert', 'ACME', { id: 'ACME', name: 'ACME', active: true })
  for (let i = 0; i < BOARDS; i++) await provisionBoard(worker, `s${i}`)
  dir = await tempDir()
})

after(async () => {
  await worker.close()
  await redis.stop()
  await removeDir(dir)
})

test(`a cluster gateway closed while it republishes ${BOARDS} configurations stops cleanly: no unhandled rejection, nothing failing on its way out`, async () => {
  const unhandled = []
  const onUnhandled = (e) => unhandled.push(e)
  process.on('unhandledRejection', onUnhandled)
  // What failed on the way out: the gateway's error lines, and ioredis' "Unhandled error event" (console.error)
  const failures = []
  const { write } = process.stderr
  const consoleError = console.error
  process.stderr.write = (chunk, ...rest) => {
    if (/"level":"error"/.test(String(chunk))) failures.push(String(chunk))
    return write.call(process.stderr, chunk, ...rest)
  }
  console.error = (...args) => {
    failures.push(args.map(String).join(' '))
    consoleError(...args)
  }
  try {
    const gw = await startGateway(worker, dir, { redisUrl: redis.url, syncIntervalMs: 60_000 })
    // A new endpoint for the cell: every board's configuration is published again, one after another.
    const before = gw.cellRedis.published
    worker.cell('main', { mqttUrl: 'mqtt://127.0.0.1:1884' })
    await gw.syncNow()
    await until(() => gw.cellRedis.published > before)
    assert.ok(gw.cellRedis.published - before < BOARDS, 'closed before the republishing ended')
    await gw.close()
    // Whatever was still on its way fails now, or not at all.
    await new Promise((resolve) => setTimeout(resolve, 500))
  } finally {
    process.off('unhandledRejection', onUnhandled)
    process.stderr.write = write
    console.error = consoleError
  }
  assert.deepEqual(
    unhandled.map((e) => e.message),
    []
  )
  assert.deepEqual(failures, [])
})
