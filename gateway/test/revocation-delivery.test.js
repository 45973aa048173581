/**
 * The revocation list reaches the boards: a withdrawal in the console's feed becomes an entry of the
 * retained board configuration within a sync, and a board that is then cut off from its gateway
 * refuses the withdrawn credential alone (`revoked`) while others still open. Real broker, real MQTT
 * clients, the contract double's feed.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, ALWAYS_OPEN, tempDir, removeDir, provisionBoard, startGateway, board, until } from './support/fixtures.js'
import { signingKey, jwksOf, sign } from './support/credentials.js'
import { createGateway } from '../src/gateway.js'
import { ENTRY_LIFE_S } from '../src/access/revocations.js'

const CLI = fileURLToPath(new URL('../sim/board.js', import.meta.url))
const run = promisify(execFile)
const k1 = await signingKey('k-revoke-1')
const SYNC_MS = 200
const DELAY_MS = 100

test('withdrawals reach the board configuration and an offline board refuses them, re-issued credentials open again, entries survive a restart and expire', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.jwks = jwksOf(k1)
  worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: true })
  await provisionBoard(worker, 'd1')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: ['inst-A'] })
  worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: true, phoneKeys: [] })
  for (const [id, userId] of [
    ['k1', 'u1'],
    ['k3', 'u1'],
    ['k2', 'u2']
  ])
    worker.change('ekey', 'upsert', id, { id, deviceId: 'd1', userId, companyId: 'ACME', window: ALWAYS_OPEN })

  // The gateway's and the board's clock, moved by the test (credentials are issued against it).
  let clock = Date.now()
  const now = () => clock
  const opts = { now, revocationDelayMs: DELAY_MS, syncIntervalMs: SYNC_MS }
  const dir = await tempDir('revoke-')
  let gw = await startGateway(worker, dir, opts)
  const b = board(gw, 'd1')
  const credential = (sub, key, over = {}) => {
    const iat = Math.floor(clock / 1000) - 60
    return sign(k1, {
      jti: `c_${sub}_${key}_${iat}_${Math.random()}`,
      sub,
      cid: 'ACME',
      key: { id: key, kind: 'ekey' },
      doors: ['d1'],
      win: ALWAYS_OPEN,
      iat,
      exp: iat + 3600,
      ...over
    })
  }
  /** Waits for the board's configuration to satisfy `pred`; returns how long it took. */
  const configured = async (pred, what) => {
    const t0 = Date.now()
    await until(() => b.last.get('config') && pred(b.last.get('config').revoked), { what })
    return Date.now() - t0
  }
  const alone = async (token) => (await b.decideOffline(token, clock)).reason
  try {
    await gw.credentialKeys.refresh()
    await b.connect()
    await configured((r) => r.length === 0, 'a first configuration')
    assert.ok(b.last.get('config').credentialKeys.keys.length === 1)
    const u1k1 = await credential('u1', 'k1', { pid: 'inst-A' })
    const u1k3 = await credential('u1', 'k3', { pid: 'inst-A' })
    const u1k3Unbound = await credential('u1', 'k3')
    const u2k2 = await credential('u2', 'k2')
    assert.equal(await alone(u1k1), 'ok')

    // A key deleted: its entry arrives within a sync (and the short gathering delay).
    worker.change('ekey', 'delete', 'k1')
    const took = await configured((r) => r.some((e) => e.key === 'k1'), 'the deleted key in the configuration')
    assert.ok(took < SYNC_MS + DELAY_MS + 1500, `arrived after ${took} ms`)
    b.kill() // the board is cut off from its gateway and decides alone
    assert.equal(await alone(u1k1), 'revoked')
    assert.equal(await alone(u1k3), 'ok', 'another key of the same user still opens')
    assert.equal(await alone(u2k2), 'ok', 'another user still opens')

    // A phone forgotten: credentials bound to it are refused; one not bound to a phone is not.
    await b.connect()
    worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: [] })
    await configured((r) => r.some((e) => e.pid === 'inst-A'), 'the forgotten phone')
    b.kill()
    assert.equal(await alone(u1k3), 'revoked')
    assert.equal(await alone(u1k3Unbound), 'ok')

    // A user deactivated, then re-activated and given a fresh credential later: the fresh one opens.
    await b.connect()
    worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: false, phoneKeys: [] })
    await configured((r) => r.some((e) => e.sub === 'u2'), 'the deactivated user')
    b.kill()
    assert.equal(await alone(u2k2), 'revoked')
    worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: true, phoneKeys: [] })
    await gw.syncNow()
    clock += 10 * 60_000
    const reissued = await credential('u2', 'k2')
    assert.equal(await alone(reissued), 'ok')
    assert.equal(await alone(u2k2), 'revoked', 'what was issued before the withdrawal stays refused offline')

    // The list is on disk: a gateway restarted while the console is unreachable still delivers it.
    await gw.close()
    worker.down = true
    gw = await createGateway({ dataDir: dir, workerUrl: worker.url, gatewaySecret: SECRET, mqttPort: 0, wsPort: null, gatewayId: 'gw-test', ...opts })
    const fresh = board(gw, 'd1', { clean: true })
    await fresh.connect()
    const stored = await fresh.next('config')
    assert.deepEqual(stored.revoked.map((e) => e.key ?? e.pid ?? e.sub).sort(), ['inst-A', 'k1', 'u2'])
    await fresh.close()
    worker.down = false

    // A company deactivated: every credential of it issued before is refused.
    b.url = `mqtt://127.0.0.1:${gw.mqttPort}`
    await b.connect()
    const beforeDeactivation = await credential('u2', 'k2')
    worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: false })
    await configured((r) => r.some((e) => e.cid === 'ACME'), 'the deactivated company')
    b.kill()
    assert.equal(await alone(beforeDeactivation), 'revoked')

    // Entries go once no credential they match can still be accepted: the list is empty again.
    await b.connect()
    clock += (ENTRY_LIFE_S + 240) * 1000 // past the newest entry's `before` (its learning instant + up to 180 s) + its life
    await gw.revocations.prune(clock)
    await configured((r) => r.length === 0, 'an empty list after expiry')
  } finally {
    b.kill()
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})

test('npm run board -- --alone: the simulator decides from its configuration, refuses a revoked credential and reports both decisions', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.jwks = jwksOf(k1)
  await provisionBoard(worker, 'cli-r')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: [] })
  worker.change('user', 'upsert', 'u2', { id: 'u2', companyId: 'ACME', active: true, phoneKeys: [] })
  worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 'cli-r', userId: 'u1', companyId: 'ACME', window: ALWAYS_OPEN })
  worker.change('ekey', 'upsert', 'k2', { id: 'k2', deviceId: 'cli-r', userId: 'u2', companyId: 'ACME', window: ALWAYS_OPEN })
  const dir = await tempDir('revoke-cli-')
  const gw = await startGateway(worker, dir, { revocationDelayMs: DELAY_MS })
  try {
    await gw.credentialKeys.refresh()
    const iat = Math.floor(Date.now() / 1000) - 60
    const claims = (sub, key) => ({ jti: `c_${sub}`, sub, cid: 'ACME', key: { id: key, kind: 'ekey' }, doors: ['cli-r'], win: ALWAYS_OPEN, iat, exp: iat + 3600 })
    const [withdrawn, kept] = [await sign(k1, claims('u1', 'k1')), await sign(k1, claims('u2', 'k2'))]
    worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: false, phoneKeys: [] })
    await gw.syncNow()
    await until(() => gw.revocations.list('ACME').length === 1, { what: 'the entry' })
    const url = `mqtt://127.0.0.1:${gw.mqttPort}`
    const { stdout } = await run(process.execPath, [CLI, '--url', url, '--id', 'cli-r', '--password=board-secret', '--alone', withdrawn, '--alone', kept])
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.deepEqual(
      lines.filter((l) => l.alone).map(({ allowed, reason }) => ({ allowed, reason })),
      [
        { allowed: false, reason: 'revoked' },
        { allowed: true, reason: 'ok' }
      ]
    )
    const reported = () => [...worker.rows.values()].filter((e) => e.deviceId === 'cli-r' && e.data?.credential?.type === 'signed')
    await until(() => reported().length === 2, { what: 'both decisions reported' })
    assert.deepEqual(
      reported()
        .map((e) => [e.type, e.data.userId, e.data.code])
        .sort(),
      [
        ['access.denied', 'u1', 'revoked'],
        ['access.granted', 'u2', 'ok']
      ]
    )
  } finally {
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
})
