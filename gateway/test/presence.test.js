/**
 * Board presence reaches the console (decision 0113): a real broker, real MQTT boards, the console's
 * gateway API played by the contract double with the console's presence rules.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, spawnGateway, until } from './support/fixtures.js'

const presenceOf = (worker, id) => [...worker.presence].filter(([key]) => key.startsWith(`${id} `)).map(([, p]) => p)

test('a board that connects is online at the console, and offline once it disconnects', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  const gw = await startGateway(worker, dir)
  try {
    await provisionBoard(worker, 'p1')
    await gw.syncNow()
    assert.equal(worker.online('p1'), false, 'never seen before it connects')
    const b = await board(gw, 'p1').connect()
    await until(() => worker.online('p1'), { what: 'p1 online' })
    const [{ since: connectedAt }] = presenceOf(worker, 'p1')
    await b.close()
    await until(() => !worker.online('p1'), { what: 'p1 offline' })
    assert.ok(presenceOf(worker, 'p1')[0].since >= connectedAt, 'offline since the disconnect')
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})

test('presence waits out a console outage in the queue and arrives in order', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  const gw = await startGateway(worker, dir)
  try {
    await provisionBoard(worker, 'p2')
    await provisionBoard(worker, 'p3')
    await gw.syncNow()
    worker.down = true
    const b2 = await board(gw, 'p2').connect()
    const b3 = await board(gw, 'p3').connect()
    await b3.close()
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.equal(worker.presence.size, 0, 'nothing reached the console while it was down')
    worker.down = false
    await until(() => worker.online('p2') && presenceOf(worker, 'p3').length === 1, { what: 'queued presence delivered', timeoutMs: 20_000 })
    assert.equal(worker.online('p3'), false, 'p3 connected and left during the outage: offline')
    await b2.close()
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})

test('a gateway killed with a board connected reports it offline when it starts again', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  await provisionBoard(worker, 'p4')
  const env = { WORKER_URL: worker.url, DATA_DIR: dir, MQTT_PORT: '0', GATEWAY_ID: 'gw-kill' }
  let gw = await spawnGateway(env)
  let restarted = null
  try {
    const b = board({ mqttPort: gw.mqttPort }, 'p4')
    await until(
      () =>
        b.connect().then(
          () => true,
          () => false
        ),
      { what: 'p4 provisioned', stepMs: 100 }
    )
    await until(() => worker.online('p4'), { what: 'p4 online' })
    gw.proc.kill('SIGKILL')
    await gw.exited
    await b.close()
    assert.equal(worker.online('p4'), true, 'a killed gateway could not say goodbye')
    restarted = await startGateway(worker, dir, { gatewayId: 'gw-kill' })
    await until(() => !worker.online('p4'), { what: 'p4 offline after the restart' })
  } finally {
    if (gw.proc.exitCode === null && gw.proc.signalCode === null) gw.proc.kill('SIGKILL')
    await restarted?.close()
    await worker.close()
    await removeDir(dir)
  }
})
