/**
 * Console commands (decision 0112): the gateway claims the open commands of the boards connected to it
 * and publishes them to `boards/{id}/cmd`; the board's `command.result` comes back through the event
 * queue. Two real gateways share one Worker (the contract double); the board is a real MQTT client.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { tempDir, removeDir, provisionBoard, board, startGateway, until, lockdownRecord } from './support/fixtures.js'

let worker, dirA, dirB, gwA, gwB

before(async () => {
  worker = await new WorkerContractDouble({ secret: 'test-gateway-secret' }).listen()
  for (const id of ['u1', 'u2', 'u3']) await provisionBoard(worker, id)
  dirA = await tempDir('gw-console-a-')
  dirB = await tempDir('gw-console-b-')
  gwA = await startGateway(worker, dirA, { gatewayId: 'gw-a', commandIntervalMs: 100 })
  gwB = await startGateway(worker, dirB, { gatewayId: 'gw-b', commandIntervalMs: 100 })
})
after(async () => {
  await gwA?.close()
  await gwB?.close()
  await worker.close()
  await removeDir(dirA)
  await removeDir(dirB)
})

/**
 * Queues a console command for the connected board `b` and resolves once it arrived: its gateway has
 * claimed again, and published everything it claimed before.
 */
function marker(b, id) {
  const arrived = new Promise((resolve) =>
    b.on('cmd', (m) => {
      if (m.id === id) resolve()
    })
  )
  worker.addCommand(b.id, { id })
  return arrived
}

test('the gateway holding the board delivers an unlock once, with its id and expiry, and the board answer reaches the Worker', async () => {
  const b = board(gwB, 'u1')
  const got = []
  b.on('cmd', (m) => {
    got.push(m)
    b.sendEvent('command.result', { cmd: m.id, ok: true }).catch(() => {})
  })
  b.on('cmd-duplicate', (m) => got.push(m))
  await b.connect()
  const expiresAt = Date.now() + 60_000
  worker.addCommand('u1', { id: 'console.41', expiresAt })

  await until(() => got.length > 0, { what: 'the command at the board' })
  const { expiresAt: published, ...rest } = got[0]
  assert.deepEqual(rest, { v: 1, id: 'console.41', cmd: 'unlock', args: {} })
  assert.ok(Math.abs(published - expiresAt) < 1000, 'the expiry is the remaining life on the gateway clock')
  assert.equal(worker.commands[0].claimedBy, 'gw-b', 'only the gateway with the connection claims it')

  const answer = await until(() => [...worker.rows.values()].find((r) => r.type === 'command.result'), { what: 'the command.result event' })
  assert.equal(answer.deviceId, 'u1')
  assert.deepEqual(answer.data, { cmd: 'console.41', ok: true })
  assert.equal(answer.gatewayId, 'gw-b')

  await marker(b, 'console.41-marker')
  assert.deepEqual(
    got.map((m) => m.id),
    ['console.41', 'console.41-marker'],
    'delivered once'
  )
  await b.close()
})

test('a command for a board connected nowhere is not claimed, and is delivered once the board connects', async () => {
  worker.addCommand('u2', { id: 'console.42' })
  // Both gateways claim again, each for a board of its own.
  const onA = await board(gwA, 'u1').connect()
  const onB = await board(gwB, 'u3').connect()
  await Promise.all([marker(onA, 'console.42-marker-a'), marker(onB, 'console.42-marker-b')])
  await onA.close()
  await onB.close()
  assert.equal(worker.commands.find((c) => c.id === 'console.42').claimedBy, null)

  const b = board(gwA, 'u2')
  const got = []
  b.on('cmd', (m) => got.push(m.id))
  await b.connect()
  await until(() => got.includes('console.42'), { what: 'the command after connecting' })
  assert.equal(worker.commands.find((c) => c.id === 'console.42').claimedBy, 'gw-a')
  await b.close()
})

test('an expired command is never handed out', async () => {
  worker.addCommand('u2', { id: 'console.43', expiresAt: Date.now() - 1 })
  const b = board(gwA, 'u2')
  const got = []
  b.on('cmd', (m) => got.push(m.id))
  await b.connect()
  await marker(b, 'console.43-marker')
  assert.deepEqual(got, ['console.43-marker'])
  await b.close()
})

test('an unlock for a door a lockdown covers never reaches it, also one queued before the lockdown, and is not kept for after it', async () => {
  const lockdown = (epoch, active) => lockdownRecord({ epoch, active, scope: 'doors', scopeIds: ['u3'] })
  // Queued for the board while it is away (the gateway had claimed it), then the lockdown arrives.
  await gwA.sendCommand('u3', { id: 'console.44', cmd: 'unlock', args: {}, expiresAt: Date.now() + 60_000 })
  worker.change('lockdown', 'upsert', 'ACME', lockdown(1, true))
  await gwA.syncNow()
  const b = board(gwA, 'u3')
  const got = []
  b.on('cmd', (m) => got.push(m.id))
  await b.connect()
  worker.addCommand('u3', { id: 'console.45' })
  // Claimed and published after console.45, so by the time it arrives the unlock would have too.
  const other = new Promise((resolve) => b.on('cmd', (m) => m.id === 'console.46' && resolve()))
  worker.addCommand('u3', { id: 'console.46', cmd: 'reboot' })
  await other
  assert.deepEqual(got, ['console.46'], 'no unlock reached the locked-down door; another command did')

  worker.change('lockdown', 'upsert', 'ACME', lockdown(2, false))
  await gwA.syncNow()
  await b.close()
  // A fresh session: the outbox would hand it everything still outstanding.
  const again = board(gwA, 'u3', { clean: true })
  const after = []
  again.on('cmd', (m) => after.push(m.id))
  await again.connect()
  await marker(again, 'console.47')
  assert.deepEqual(after, ['console.47'], 'the unlock withheld during the lockdown was dropped, not delivered after it')
  await again.close()
})
