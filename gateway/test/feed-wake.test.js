import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, startGateway, until } from './support/fixtures.js'

// The gateways here poll their feed every ten minutes: whatever reaches them within the test came by a wake-up.
const NO_POLL = { syncIntervalMs: 600_000 }
const user = (id) => ({ id, companyId: 'ACME', active: true })

/** Resolves once the double has answered no feed read for 300 ms. */
async function settled(worker) {
  for (let seen = -1; seen !== worker.requests.changes;) {
    seen = worker.requests.changes
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
}

test('a wake-up makes the gateway read the feed now; a reconnected channel reads what was missed while it was down', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  const gw = await startGateway(worker, dir, NO_POLL)
  try {
    await until(() => gw.wakeups.connected && worker.wakeChannels.get('main')?.size === 1, { what: 'the wake-up channel' })

    worker.change('user', 'upsert', 'u1', user('u1'))
    assert.equal(worker.wake(), 1)
    await until(() => gw.replica.get('user', 'u1'), { what: 'u1 read after the wake-up' })

    // No read left in flight (the channel's first wake-up may have asked for one more): none can pick up u2 below.
    await settled(worker)

    // The console restarts: the channel drops, a change lands meanwhile and no wake-up is sent for it.
    worker.dropWakeChannels()
    await until(() => !gw.wakeups.connected, { what: 'the gateway to notice the drop' })
    worker.change('user', 'upsert', 'u2', user('u2'))
    await until(() => worker.wakeChannels.get('main')?.size === 1, { what: 'the gateway to reconnect' })
    await until(() => gw.replica.get('user', 'u2'), { what: 'u2 read once the channel is open again' })
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})

test('a wake-up during a read makes another read follow it', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  const gw = await startGateway(worker, dir, NO_POLL)
  try {
    await until(() => gw.wakeups.connected, { what: 'the wake-up channel' })
    worker.feedAnswerDelayMs = 300
    const reads = worker.requests.changes
    worker.change('user', 'upsert', 'u3', user('u3'))
    worker.wake()
    await until(() => worker.requests.changes > reads, { what: 'the first read under way' })
    // u4 lands after that read took its page, and its wake-up arrives while the read is held.
    worker.change('user', 'upsert', 'u4', user('u4'))
    worker.wake()
    await until(() => gw.replica.get('user', 'u4'), { what: 'u4, from the read that follows' })
    assert.ok(gw.replica.get('user', 'u3'))
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})
