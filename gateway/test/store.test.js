import { test } from 'node:test'
import assert from 'node:assert/strict'
import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { EventQueue } from '../src/store/event-queue.js'
import { AppendLog } from '../src/store/append-log.js'
import { tempDir, removeDir } from './support/fixtures.js'

const ev = (i) => ({ id: `d/e${i}`, deviceId: 'd', type: 'sensor', at: 1, receivedAt: 1, data: { i } })

test('a torn last line (crash mid-write) is dropped and the log stays appendable', async () => {
  const dir = await tempDir()
  try {
    const log = new AppendLog(join(dir, 'x.log'))
    await log.open()
    await Promise.all([1, 2, 3].map((n) => log.append({ n })))
    await log.close()
    await appendFile(join(dir, 'x.log'), '{"n":4, "tor')
    const again = new AppendLog(join(dir, 'x.log'))
    assert.deepEqual(await again.open(), [{ n: 1 }, { n: 2 }, { n: 3 }])
    await again.append({ n: 5 })
    await again.close()
    assert.equal(await readFile(join(dir, 'x.log'), 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n{"n":5}\n')
  } finally {
    await removeDir(dir)
  }
})

test('the event queue keeps order and ids across reopen, skips queued duplicates, compacts what was delivered', async () => {
  const dir = await tempDir()
  try {
    let q = await new EventQueue(dir, { compactBytes: 2000 }).open()
    for (let i = 0; i < 100; i++) await q.push(ev(i))
    assert.equal(await q.push(ev(5)), false, 'an id still queued is not stored twice')
    const one = q.peek(1)[0].bytes + 1
    assert.equal(q.peek(100, one * 10).length, 10, 'batches are cut by size')
    assert.equal(q.peek(100, 1).length, 1, 'but always carry at least one event')
    const sizeBefore = q.log.size
    await q.ack(q.peek(60).at(-1).seq)
    assert.ok(q.log.size < sizeBefore / 2, 'delivered events were compacted away')
    await q.close()

    q = await new EventQueue(dir).open()
    assert.equal(q.length, 40)
    assert.deepEqual(JSON.parse(q.peek(1)[0].json), ev(60))
    await q.push(ev(100))
    assert.ok(q.peek(100).at(-1).seq > 100, 'seq numbers never go back')
    await q.ack(q.peek(100).at(-1).seq)
    assert.equal(q.length, 0)
    assert.equal(q.log.size, 0, 'fully delivered: log emptied')
    await q.close()
    q = await new EventQueue(dir).open()
    assert.equal(q.length, 0)
    await q.close()
  } finally {
    await removeDir(dir)
  }
})
