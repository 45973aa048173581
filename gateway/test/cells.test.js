/**
 * Two cells, each with its own gateway (decision 0053), against one contract double that serves each
 * cell its own feed: boards are configured with their cell's endpoint, a board of the other cell is
 * redirected and refused, and a company that moves keeps every event while its board follows.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, board, startGateway, until, gatewayStats } from './support/fixtures.js'
import { rawConnect } from './support/raw-connect.js'
import { freePort } from './support/processes.js'
import mqtt from 'mqtt'

const SECRET_B = 'cell-b-gateway-secret'
/** events a board sends while its company moves (the 10,000-event run is bench/cell-move.mjs) */
const EVENTS = 2_000
/** boards of a company that moves with all of them connected, more than the lookups allowed at once (2 here) */
const FLEET = 20
/** events a board sends while its device is transferred to a company of the other cell */
const TRANSFER_EVENTS = 500

let worker, gwA, gwB, dirA, dirB, urlA, urlB

before(async () => {
  worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const [portA, portB] = [await freePort(), await freePort()]
  urlA = `mqtt://127.0.0.1:${portA}`
  urlB = `mqtt://127.0.0.1:${portB}`
  worker.cell('main', { mqttUrl: urlA }).cell('b', { secret: SECRET_B, mqttUrl: urlB })
  worker.companyCells.set('BETA', 'b')
  for (const c of ['ACME', 'BETA', 'MOVER', 'MOVER2', 'FLEET']) worker.change('company', 'upsert', c, { id: c, name: c, active: true })
  await provisionBoard(worker, 'a1', { companyId: 'ACME' })
  await provisionBoard(worker, 'b1', { companyId: 'BETA' })
  await provisionBoard(worker, 'm1', { companyId: 'MOVER' })
  await provisionBoard(worker, 'm2', { companyId: 'MOVER2' })
  await provisionBoard(worker, 't1', { companyId: 'ACME' })
  for (let i = 0; i < FLEET; i++) await provisionBoard(worker, `f${i}`, { companyId: 'FLEET' })
  dirA = await tempDir()
  dirB = await tempDir()
  gwA = await startGateway(worker, dirA, { gatewayId: 'gw-a', mqttPort: portA, placement: { maxInFlight: 2 } })
  // B follows its feed only every minute: a moved board arriving there first makes it catch up
  gwB = await startGateway(worker, dirB, { gatewayId: 'gw-b', mqttPort: portB, gatewaySecret: SECRET_B, syncIntervalMs: 60_000 })
})

after(async () => {
  await gwA?.close()
  await gwB?.close()
  await worker.close()
  await removeDir(dirA)
  await removeDir(dirB)
})

const companiesOf = (gw) => new Set(gw.replica.all('device').map((d) => d.companyId))

test("each cell's gateway holds only its cell's companies, and configures its boards with its own endpoint", async () => {
  assert.deepEqual([...companiesOf(gwA)].sort(), ['ACME', 'FLEET', 'MOVER', 'MOVER2'])
  assert.deepEqual([...companiesOf(gwB)], ['BETA'])
  assert.equal(gwB.replica.get('company', 'ACME'), undefined)
  assert.equal(gwA.replica.get('boardCredential', 'b1'), undefined)
  const a1 = await board(gwA, 'a1').connect()
  const config = await a1.next('config')
  assert.equal(config.cell, 'main')
  assert.equal(config.mqttUrl, urlA)
  assert.equal(config.rev, 3)
  await a1.close()
})

test('a board of the other cell gets only a redirect, is disconnected, and leaves nothing behind', async () => {
  const lookups = worker.requests.cellLookups
  const b1 = board(gwA, 'b1', { followRedirects: false })
  const redirected = new Promise((resolve) => b1.once('redirect', resolve))
  await assert.rejects(b1.connect(), /closed/)
  assert.deepEqual(await redirected, { v: 1, cell: 'b', mqttUrl: urlB })
  assert.equal(b1.last.has('config'), false, 'no configuration of the other cell')
  // its status publish got no PUBACK, its subscriptions and will were not kept
  assert.deepEqual(await gwA.aedes.persistence.subscriptionsByClient({ id: 'b1' }), [])
  const retained = []
  for await (const p of gwA.aedes.persistence.createRetainedStreamCombi(['boards/b1/#'])) retained.push(p.topic)
  assert.deepEqual(retained, [])
  assert.equal(worker.online('b1'), false)

  // the answer is cached: the next attempt does not ask the Worker again
  const again = board(gwA, 'b1', { followRedirects: false })
  await assert.rejects(again.connect(), /closed/)
  assert.equal(worker.requests.cellLookups, lookups + 1)

  // following it, the board lands in its cell with that cell's configuration
  const follows = await board(gwA, 'b1').connect()
  assert.equal(follows.url, urlB)
  assert.equal(follows.moves, 1)
  assert.equal((await follows.next('config')).mqttUrl, urlB)
  await follows.close()
})

test('a board of the other cell gets no PUBACK for what it publishes while it is told where to go', async () => {
  const client = await mqtt.connectAsync(urlA, { clientId: 'b1', username: 'b1', password: 'board-secret', clean: false, reconnectPeriod: 0 })
  const redirect = new Promise((resolve) => client.on('message', (t, p) => resolve([t, JSON.parse(p.toString())])))
  const closed = new Promise((resolve) => client.once('close', () => resolve(undefined)))
  const acked = []
  client.publish('boards/b1/events', JSON.stringify({ v: 1, id: 'not-here', type: 'door.opened', at: Date.now(), data: {} }), { qos: 1 }, (err) => acked.push(err ?? 'PUBACK'))
  assert.deepEqual(await redirect, ['boards/b1/redirect', { v: 1, cell: 'b', mqttUrl: urlB }])
  await closed
  assert.deepEqual(acked, [], 'the event got no PUBACK')
  assert.equal(worker.rows.has('b1/not-here'), false)
  client.end(true)
})

test('a board no cell knows is refused (4); lookups beyond the bound are refused (3) without asking the Worker', async () => {
  assert.equal(await rawConnect({ port: gwA.mqttPort, localAddress: '127.0.0.21', clientId: 'nowhere-1', password: 'x' }), 4)
  let release = () => {}
  worker.cellLookupGate = new Promise((resolve) => (release = () => resolve(undefined)))
  const lookups = worker.requests.cellLookups
  const attempts = [1, 2, 3, 4, 5].map((i) => rawConnect({ port: gwA.mqttPort, localAddress: `127.0.0.${30 + i}`, clientId: `nowhere-x${i}`, password: 'x', timeoutMs: 5000 }))
  // answered while the first two lookups still wait for the Worker
  assert.deepEqual(await Promise.all(attempts.slice(2)), [3, 3, 3], 'two lookups run, the other three are told to come back later')
  release()
  worker.cellLookupGate = null
  assert.deepEqual(await Promise.all(attempts.slice(0, 2)), [4, 4])
  assert.equal(worker.requests.cellLookups, lookups + 2)
})

test(`a company moved to the other cell: its board is redirected, and all ${EVENTS} events sent meanwhile arrive once`, async () => {
  const m1 = await board(gwA, 'm1', { retryMs: 50 }).connect()
  await m1.next('config')
  const ids = Array.from({ length: EVENTS }, (_, i) => `mv-${i}`)
  let next = 0
  let moved = false
  const sender = async () => {
    while (next < ids.length) {
      const id = ids[next++]
      if (next === EVENTS / 4 && !moved) {
        moved = true
        worker.moveCompany('MOVER', 'b')
      }
      await m1.deliver('door.opened', {}, { id })
    }
  }
  await Promise.all(Array.from({ length: 16 }, sender))
  assert.equal(m1.url, urlB, 'the board followed its company')
  assert.equal(m1.moves, 1)
  await until(() => m1.last.get('config')?.mqttUrl === urlB, { what: "the new cell's configuration" })

  await until(() => ids.every((id) => worker.rows.has(`m1/${id}`)), { timeoutMs: 20_000, what: 'every event at the Worker' })
  const byGateway = { 'gw-a': 0, 'gw-b': 0 }
  for (const id of ids) byGateway[worker.rows.get(`m1/${id}`).gatewayId]++
  assert.ok(byGateway['gw-a'] > 0 && byGateway['gw-b'] > 0, `events went through both cells: ${JSON.stringify(byGateway)}`)
  assert.equal(byGateway['gw-a'] + byGateway['gw-b'], EVENTS, 'each id once')
  assert.equal(gwA.queue.length, 0, "the old cell's queue drained")

  // the old cell forgot the board
  await until(async () => (await gwA.aedes.persistence.subscriptionsByClient({ id: 'm1' })).length === 0, { what: 'the session gone from the old cell' })
  const retained = []
  for await (const p of gwA.aedes.persistence.createRetainedStreamCombi(['boards/m1/#'])) retained.push(p.topic)
  assert.deepEqual(retained, [])
  assert.equal(gwA.replica.get('device', 'm1'), undefined)
  const after = Date.now()
  const stats = await gatewayStats(gwA.mqttPort, 'gw-a', (st) => st.at > after)
  assert.equal(stats.cells.cell, 'main')
  assert.equal(stats.cells.redirectedConnected, 1)
  assert.ok(stats.cells.redirectedOnConnect >= 2 && stats.cells.lookupsRefused === 3, JSON.stringify(stats.cells))
  await m1.close()
})

test('a board of a moved company that was offline is redirected when it comes back to its old cell', async () => {
  const m2 = await board(gwA, 'm2').connect()
  await m2.close()
  worker.moveCompany('MOVER2', 'b')
  await gwA.syncNow()
  await gwB.syncNow()
  const back = await board(gwA, 'm2', { retryMs: 50 }).connect()
  assert.equal(back.url, urlB)
  assert.equal((await back.next('config')).cell, 'b')
  await back.close()
})

test(`a company moved with ${FLEET} boards connected: each is redirected while connected, the lookups waiting their turn`, async () => {
  const boards = await Promise.all(Array.from({ length: FLEET }, (_, i) => board(gwA, `f${i}`, { retryMs: 50 }).connect()))
  const redirectedBefore = gwA.departures.redirected
  worker.moveCompany('FLEET', 'b')
  await gwA.syncNow()
  await until(() => boards.every((b) => b.url === urlB && !b.moving), { what: 'every board in its new cell' })
  assert.equal(gwA.departures.redirected - redirectedBefore, FLEET, 'every board was told while connected, none merely dropped')
  assert.ok(boards.every((b) => b.moves === 1))
  await Promise.all(boards.map((b) => b.close()))
})

// The cell a transferred device left still delivers the events its gateway acknowledged before the transfer
// (the Worker serves it there for 24 hours, as for a company that moved: devices.previous_cell), each into the
// log of the company its board time names (decision 0074).
test(`a single device transferred to a company of the other cell: its board is redirected, and all ${TRANSFER_EVENTS} events sent meanwhile arrive once, each in its company's log`, async (t) => {
  const t1 = await board(gwA, 't1', { retryMs: 50 }).connect()
  await t1.next('config')
  const ids = Array.from({ length: TRANSFER_EVENTS }, (_, i) => `tr-${i}`)
  let next = 0
  /** @type {Set<string>|null} the rows stored when the device was transferred */
  let storedAtTransfer = null
  const sender = async () => {
    while (next < ids.length) {
      const id = ids[next++]
      if (next === TRANSFER_EVENTS / 4 && !storedAtTransfer) {
        storedAtTransfer = new Set(worker.rows.keys())
        worker.transferDevice('t1', 'BETA')
      }
      await t1.deliver('door.opened', {}, { id })
    }
  }
  await Promise.all(Array.from({ length: 8 }, sender))
  assert.equal(t1.url, urlB, 'the board followed its device to the other cell')
  assert.equal(t1.moves, 1)
  await until(() => t1.last.get('config')?.companyId === 'BETA', { what: "the new cell's configuration" })

  // every event was acknowledged by one cell: once both queues are empty, the Worker has answered for each
  await until(() => gwA.queue.length === 0 && gwB.queue.length === 0, { timeoutMs: 20_000, what: "both cells' queues drained" })
  assert.deepEqual(
    ids.filter((id) => !worker.rows.has(`t1/${id}`)),
    [],
    'every event at the Worker'
  )
  const rows = ids.map((id) => worker.rows.get(`t1/${id}`))
  const transferredAt = worker.deviceMoves.get('t1').at
  const misfiled = rows.filter((r) => r.companyId !== (r.at < transferredAt ? 'ACME' : 'BETA')).map((r) => r.id)
  assert.deepEqual(misfiled, [], 'events from before the transfer in the log of the company it left, the others in the one it joined')
  const figures = {
    oldCell: rows.filter((r) => r.gatewayId === 'gw-a').length,
    newCell: rows.filter((r) => r.gatewayId === 'gw-b').length,
    // what the grace carries: the old cell's, stored after the transfer
    oldCellAfterTransfer: rows.filter((r) => r.gatewayId === 'gw-a' && !storedAtTransfer?.has(r.id)).length,
    toAcme: rows.filter((r) => r.companyId === 'ACME').length
  }
  assert.ok(figures.oldCellAfterTransfer > 0 && figures.newCell > 0, `events went through both cells: ${JSON.stringify(figures)}`)
  assert.equal(figures.oldCell + figures.newCell, TRANSFER_EVENTS, 'each id once')
  t.diagnostic(JSON.stringify(figures))

  // the old cell forgot the board
  assert.equal(gwA.replica.get('device', 't1'), undefined)
  assert.equal(gwA.replica.get('boardCredential', 't1'), undefined)
  await until(async () => (await gwA.aedes.persistence.subscriptionsByClient({ id: 't1' })).length === 0, { what: 'the session gone from the old cell' })
  const retained = []
  for await (const p of gwA.aedes.persistence.createRetainedStreamCombi(['boards/t1/#'])) retained.push(p.topic)
  assert.deepEqual(retained, [])
  await t1.close()
})

test("a new MQTT endpoint for the cell reaches every connected board's configuration through the feed", async () => {
  const a1 = await board(gwA, 'a1').connect()
  assert.equal((await a1.next('config')).mqttUrl, urlA)
  const moved = `mqtt://cell-a.example.net:${await freePort()}`
  worker.cell('main', { mqttUrl: moved })
  await gwA.syncNow()
  await until(() => a1.last.get('config')?.mqttUrl === moved, { what: 'the configuration naming the new endpoint' })
  assert.equal(a1.last.get('config').cell, 'main')
  // the other cell's boards are not told
  assert.equal(gwB.cell.mqttUrl, urlB)
  worker.cell('main', { mqttUrl: urlA })
  await gwA.syncNow()
  await a1.close()
})
