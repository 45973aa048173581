/**
 * A cluster gateway stops cleanly, nothing it was doing rejecting unhandled once its Redis connections
 * are closed: stopped while it is still republishing every board's retained configuration into its
 * cell's Redis (at start, after a snapshot, after a change of the cell's endpoint), and stopped with
 * boards connected, whose wills it publishes as it closes their connections.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, startGateway, spawnGateway, board, until } from './support/fixtures.js'
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

test('a cluster gateway stopped (SIGTERM) with boards connected, each with its retained offline will, exits cleanly', async () => {
  const gwDir = await tempDir()
  const gw = await spawnGateway({ DATA_DIR: gwDir, WORKER_URL: worker.url, MQTT_PORT: '0', REDIS_URL: redis.url, SYNC_INTERVAL_MS: '60000' }, { stderr: 'pipe' })
  let stderr = ''
  gw.proc.stderr.on('data', (chunk) => (stderr += chunk))
  const boards = []
  try {
    for (let i = 0; i < BOARDS; i += 50) {
      const some = Array.from({ length: 50 }, (_, k) => board(gw, `s${i + k}`))
      boards.push(...some)
      await Promise.all(some.map((b) => b.connect()))
    }
    // aedes publishes each board's will as it closes the connections, and closes its Redis emitter right after
    gw.proc.kill('SIGTERM')
    assert.equal(await gw.exited, 0, `the gateway failed on its way out:\n${stderr}`)
    assert.doesNotMatch(stderr, /Connection is closed|"level":"error"/)
  } finally {
    for (const b of boards) b.kill()
    gw.proc.kill('SIGKILL')
    await removeDir(gwDir)
  }
})
