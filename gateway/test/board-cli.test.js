import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, startGateway } from './support/fixtures.js'

const CLI = fileURLToPath(new URL('../sim/board.js', import.meta.url))
const run = promisify(execFile)

test('npm run board: access, events and an interrupted firmware download from the command line', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  await provisionBoard(worker, 'cli-1')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true })
  worker.change('ekey', 'upsert', 'k1', {
    id: 'k1',
    deviceId: 'cli-1',
    userId: 'u1',
    fob: 'F-1',
    window: {
      kind: 'ekey',
      access: 'full',
      tz: 'UTC',
      startDate: '2026-01-01',
      endDate: null,
      days: [true, true, true, true, true, true, true],
      allDay: true,
      startTime: null,
      endTime: null,
      used: false
    }
  })
  worker.addFirmware({ id: 'fw-cli', deviceType: 'AB-200', version: '2.1.0', bytes: randomBytes(100_000) })
  const dir = await tempDir()
  const gw = await startGateway(worker, dir)
  try {
    const { stdout } = await run(process.execPath, [
      CLI,
      '--url',
      `mqtt://127.0.0.1:${gw.mqttPort}`,
      '--id',
      'cli-1',
      '--password',
      'board-secret',
      '--access',
      'fob:F-1',
      '--access',
      'fob:nope',
      '--event',
      'door.opened',
      '--event',
      'battery:{"percent":40}',
      '--events',
      '20',
      '--firmware',
      '--interrupt',
      '5,7'
    ])
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.equal(lines.find((l) => l.access === 'fob:F-1').allowed, true)
    assert.equal(lines.find((l) => l.access === 'fob:nope').allowed, false)
    assert.equal(lines.filter((l) => l.stored).length, 2)
    assert.equal(lines.find((l) => l.events).events, 20)
    assert.equal(lines.filter((l) => l.interruptedAfterBlocks).length, 2)
    assert.equal(lines.at(-1).ok, true)
    const help = await run(process.execPath, [CLI, '--help'])
    assert.match(help.stdout, /--interrupt/)
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})
