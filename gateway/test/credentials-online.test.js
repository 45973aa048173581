import { test } from 'node:test'
import assert from 'node:assert/strict'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, ALWAYS_OPEN, tempDir, removeDir, provisionBoard, startGateway, board, until } from './support/fixtures.js'
import { signingKey, jwksOf, sign } from './support/credentials.js'

const k1 = await signingKey('k-online-1')
const k2 = await signingKey('k-online-2')

/** Claims for user u1's key on door d1, valid for an hour around now (the gateway decides at its own clock). */
const claims = (over = {}) => {
  const now = Math.floor(Date.now() / 1000)
  return {
    jti: `c_${Math.random().toString(36).slice(2)}`,
    sub: 'u1',
    cid: 'ACME',
    key: { id: 'k1', kind: 'ekey' },
    doors: ['d1'],
    win: ALWAYS_OPEN,
    pid: 'inst-A',
    iat: now - 60,
    exp: now + 3600,
    ...over
  }
}

/**
 * The token with one character of its signature changed. A character inside the signature carries six
 * bits of it; the last one carries only two, and changing the last two could give the same signature back.
 * @param {string} token
 */
const tamperedSignature = (token) => {
  const at = token.length - 10
  return token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1)
}

/**
 * A console double with user u1 (phone inst-A) and key k1 on door d1, a gateway following it and the
 * board d1 connected, its first configuration received. `setup` adds records before the gateway starts.
 * @param {(worker: WorkerContractDouble) => void} [setup]
 */
async function connectedBoard(setup = () => {}) {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.jwks = jwksOf(k1)
  setup(worker)
  await provisionBoard(worker, 'd1')
  worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: ['inst-A'] })
  worker.change('ekey', 'upsert', 'k1', { id: 'k1', deviceId: 'd1', userId: 'u1', window: ALWAYS_OPEN })
  const dir = await tempDir()
  const gw = await startGateway(worker, dir)
  const b = board(gw, 'd1')
  await gw.credentialKeys.refresh()
  await b.connect()
  const config = await b.next('config', { timeoutMs: 5000 })
  const ask = async (token) => b.requestAccess({ type: 'signed', id: token })
  const close = async () => {
    await b.close()
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
  return { worker, gw, b, config, ask, close }
}

test('a connected board forwards a signed credential: the gateway verifies it, decides from its live copy, records it and spends one-time keys', async () => {
  const { worker, gw, b, config, ask, close } = await connectedBoard((w) =>
    w.change('ekey', 'upsert', 'k2', { id: 'k2', deviceId: 'd1', userId: 'u1', window: { ...ALWAYS_OPEN, access: 'oneTime' } })
  )
  try {
    assert.deepEqual(
      config.credentialKeys.keys.map((k) => k.kid),
      ['k-online-1']
    )

    const good = await sign(k1, claims())
    const r = await ask(good)
    assert.equal(r.allowed, true)
    assert.deepEqual(r.key, { id: 'k1', kind: 'ekey' })
    assert.equal((await ask(await sign(k1, claims({ cid: 'BETA' })))).code, 'other_company')
    assert.equal((await ask(await sign(k1, claims({ doors: ['d9'] })))).code, 'other_door')
    assert.equal((await ask(tamperedSignature(good))).code, 'bad_signature')

    // A rotation: the console publishes a new key; a credential naming it makes the gateway fetch at once.
    worker.jwks = jwksOf(k2, k1)
    const rotated = await sign(k2, claims())
    const first = await ask(rotated)
    assert.equal(first.code, 'unknown_kid')
    await gw.credentialKeys.refresh()
    assert.equal((await ask(rotated)).allowed, true)
    assert.equal((await ask(good)).allowed, true, 'the previous key still verifies until it is withdrawn')

    // One-time key: opens once, then the gateway's copy says it is used.
    const once = await sign(k1, claims({ key: { id: 'k2', kind: 'ekey' } }))
    assert.equal((await ask(once)).allowed, true)
    assert.equal((await ask(once)).code, 'key_used')

    // Revocation through the feed: a forgotten phone, then a deleted key.
    worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: [] })
    await gw.syncNow()
    assert.equal((await ask(good)).code, 'revoked')
    worker.change('user', 'upsert', 'u1', { id: 'u1', companyId: 'ACME', active: true, phoneKeys: ['inst-A'] })
    worker.change('ekey', 'delete', 'k1')
    await gw.syncNow()
    assert.equal((await ask(good)).code, 'no_key')

    // Every decision is recorded by the credential's id, never the whole token.
    // What an offline board decided alone is reported as an event once it can.
    await b.sendEvent('access.granted', { credential: { type: 'signed', id: 'c_offline' }, userId: 'u1', keyId: 'k2', keyKind: 'ekey', extra: 'dropped' }, { id: 'off.1' })
    await until(() => worker.rows.has('d1/off.1'), { what: 'offline decision row' })
    assert.deepEqual(worker.rows.get('d1/off.1').data, { credential: { type: 'signed', id: 'c_offline' }, userId: 'u1', keyId: 'k2', keyKind: 'ekey' })

    const signedRows = () => [...worker.rows.values()].filter((e) => e.data?.credential?.type === 'signed')
    await until(() => signedRows().length === 12, { what: 'twelve decision rows' })
    const recorded = signedRows()
    assert.ok(recorded.every((e) => e.data.credential.id.length <= 64))
    assert.ok(recorded.some((e) => e.type === 'access.granted' && e.data.keyId === 'k2' && e.data.keyKind === 'ekey'))
  } finally {
    await close()
  }
})

test('biometric requirement through the feed: the board configuration says so, and the gateway refuses a credential without the uv claim', async () => {
  const { worker, gw, config, ask, close } = await connectedBoard((w) => w.change('company', 'upsert', 'ACME', { id: 'ACME', active: true, biometricRequired: true }))
  try {
    assert.equal(config.biometricRequired, true)

    const bare = await ask(await sign(k1, claims()))
    assert.deepEqual([bare.allowed, bare.code], [false, 'biometric_required'])
    const verified = await ask(await sign(k1, claims({ uv: Math.floor(Date.now() / 1000) - 30 })))
    assert.equal(verified.allowed, true)
    assert.deepEqual(verified.key, { id: 'k1', kind: 'ekey' })

    // The company lifts the requirement: the next sync lets a credential without the claim in.
    worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: true, biometricRequired: false })
    await gw.syncNow()
    assert.equal((await ask(await sign(k1, claims()))).allowed, true)
  } finally {
    await close()
  }
})
