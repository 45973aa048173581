/** The revocation list's logic: what the feed withdraws, the entries it becomes, how they match, expire and fold. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Replica } from '../src/store/replica.js'
import { Revocations, withdrawals, pageWithdrawals, beforeFor, ENTRY_LIFE_S, MAX_CREDENTIAL_LIFE_S } from '../src/access/revocations.js'
import { revokedBy, CLOCK_SKEW_MS } from '../src/access/credential.js'
import { createLogger } from '../src/log.js'
import { tempDir, removeDir } from './support/fixtures.js'

const log = createLogger('test')
const copy = (records) => {
  const m = new Map(records.map((r) => [r.type + '\0' + r.id, r.data]))
  return (type, id) => m.get(type + '\0' + id)
}
const ACME_USER = { type: 'user', id: 'u1', data: { id: 'u1', companyId: 'ACME', active: true, phoneKeys: ['inst-A'] } }
const KEY = { type: 'ekey', id: 'k1', data: { id: 'k1', userId: 'u1', deviceId: 'd1', companyId: 'ACME' } }
const COMPANY = { type: 'company', id: 'ACME', data: { id: 'ACME', active: true } }
const prev = copy([ACME_USER, KEY, COMPANY, { type: 'groupKey', id: 'g1', data: { id: 'g1', userId: 'u1', groupId: '5' } }])

test('each withdrawal of the feed names what it withdraws, in the company that had it', () => {
  const up = (type, id, data) => ({ type, op: /** @type {const} */ ('upsert'), id, data })
  const del = (type, id) => ({ type, op: /** @type {const} */ ('delete'), id })
  assert.deepEqual(withdrawals(prev, [del('ekey', 'k1')]), [{ companyId: 'ACME', field: 'key', id: 'k1' }])
  // A group key without its own company is placed by its user's.
  assert.deepEqual(withdrawals(prev, [del('groupKey', 'g1')]), [{ companyId: 'ACME', field: 'key', id: 'g1' }])
  assert.deepEqual(withdrawals(prev, [up('user', 'u1', { ...ACME_USER.data, active: false })]), [{ companyId: 'ACME', field: 'sub', id: 'u1' }])
  assert.deepEqual(withdrawals(prev, [up('user', 'u1', { ...ACME_USER.data, phoneKeys: [] })]), [{ companyId: 'ACME', field: 'pid', id: 'inst-A' }])
  assert.deepEqual(withdrawals(prev, [up('user', 'u1', { ...ACME_USER.data, phoneKeys: ['inst-B'] })]), [{ companyId: 'ACME', field: 'pid', id: 'inst-A' }])
  assert.deepEqual(withdrawals(prev, [up('company', 'ACME', { id: 'ACME', active: false })]), [{ companyId: 'ACME', field: 'cid', id: 'ACME' }])
  assert.deepEqual(withdrawals(prev, [up('user', 'u1', { ...ACME_USER.data, companyId: 'BETA' })]), [{ companyId: 'ACME', field: 'sub', id: 'u1' }])
  // A deleted user takes its keys along: one entry for the user covers them.
  assert.deepEqual(withdrawals(prev, [del('user', 'u1'), del('ekey', 'k1'), del('groupKey', 'g1')]), [{ companyId: 'ACME', field: 'sub', id: 'u1' }])
  // Nothing is withdrawn by a change that gives, by a record never seen, or by an unchanged one.
  assert.deepEqual(withdrawals(prev, [up('user', 'u1', ACME_USER.data), up('company', 'ACME', { id: 'ACME', active: true })]), [])
  assert.deepEqual(withdrawals(prev, [del('ekey', 'k-unknown'), up('user', 'u9', { id: 'u9', companyId: 'ACME', active: false })]), [])
  // Within one page the second change is judged against the first.
  assert.deepEqual(withdrawals(prev, [up('user', 'u1', { ...ACME_USER.data, active: false }), up('user', 'u1', { ...ACME_USER.data, active: false })]), [
    { companyId: 'ACME', field: 'sub', id: 'u1' }
  ])
})

test('a snapshot withdraws what the copy had and the snapshot no longer has', async () => {
  const dir = await tempDir('revoke-unit-')
  const replica = await new Replica(dir).open()
  const upserts = (records) => records.map((r) => ({ ...r, op: /** @type {const} */ ('upsert') }))
  /** @type {any[]} */ let withdrawn = []
  replica.beforeApply(async (page) => withdrawn.push(...pageWithdrawals(replica, page)))
  try {
    await replica.applyPage({ cursor: '1', reset: true, changes: upserts([COMPANY, ACME_USER, KEY]) })
    withdrawn = []
    await replica.applyPage({ cursor: '2', reset: true, changes: upserts([COMPANY, ACME_USER]) })
    assert.deepEqual(withdrawn, [{ companyId: 'ACME', field: 'key', id: 'k1' }])
    withdrawn = []
    // In pages: judged as a whole, so the user's entry covers its key.
    const snapshot = await replica.beginSnapshot()
    await snapshot.add(upserts([COMPANY]))
    assert.deepEqual(withdrawn, [], 'nothing is missing before the last page is in')
    await snapshot.commit('3')
    assert.deepEqual(withdrawn, [{ companyId: 'ACME', field: 'sub', id: 'u1' }])
  } finally {
    await replica.close()
    await removeDir(dir)
  }
})

test('before: past the learning instant plus the skew allowance, on a whole minute, so instances agree', () => {
  const now = Date.parse('2026-11-23T16:20:17.400Z')
  const b = beforeFor(now)
  assert.equal(b % 60, 0)
  assert.ok(b > now / 1000 + CLOCK_SKEW_MS / 1000)
  assert.ok(b <= now / 1000 + CLOCK_SKEW_MS / 1000 + 60)
  assert.equal(beforeFor(now + 20_000), b, 'a second instance learning 20 s later in the same minute publishes the same entry')
})

test('an entry refuses what was issued before it and nothing issued after; unknown shapes are skipped', () => {
  const claims = (over) => ({ jti: 'c', sub: 'u1', cid: 'ACME', key: { id: 'k1', kind: 'ekey' }, iat: 1000, exp: 2000, ...over })
  const list = [
    { sub: 'u1', before: 1500 },
    { key: 'k2', before: 1500 },
    { pid: 'inst-A', before: 1500 },
    { cid: 'BETA', before: 1500 },
    { sub: 'u2', key: 'k1', before: 9999 },
    { sub: 'u3' }
  ]
  const revoked = revokedBy(list)
  assert.equal(revoked(claims({})), true)
  assert.equal(revoked(claims({ iat: 1500 })), false, 're-issued at or after before: opens again')
  assert.equal(revoked(claims({ sub: 'u2' })), false, 'an entry naming two fields is no entry')
  assert.equal(revoked(claims({ sub: 'u3' })), false)
  assert.equal(revoked(claims({ sub: 'u9', key: { id: 'k2', kind: 'group' } })), true)
  assert.equal(revoked(claims({ sub: 'u9', pid: 'inst-A' })), true)
  assert.equal(revoked(claims({ sub: 'u9' })), false)
  assert.equal(revoked(claims({ sub: 'u9', cid: 'BETA' })), true)
  assert.equal(revokedBy(undefined)(claims({})), false)
  assert.equal(revokedBy({ sub: 'u1', before: 1500 })(claims({})), false, 'not a list')
})

test('the list: later entries move forward, expire once no credential can match, persist, and fold past the limit', async () => {
  const dir = await tempDir('revoke-unit-')
  try {
    const t0 = Date.parse('2026-11-23T16:20:00Z')
    const heard = []
    const list = await new Revocations({ dir, log, max: 3 }).open()
    list.onChange((ids) => heard.push(ids))
    assert.deepEqual(await list.add([{ companyId: 'ACME', field: 'sub', id: 'u1' }], t0), ['ACME'])
    assert.deepEqual(list.list('ACME'), [{ sub: 'u1', before: beforeFor(t0) }])
    assert.deepEqual(list.list('BETA'), [])
    assert.deepEqual(await list.add([{ companyId: 'ACME', field: 'sub', id: 'u1' }], t0), [], 'the same withdrawal again changes nothing')
    await list.add([{ companyId: 'ACME', field: 'sub', id: 'u1' }], t0 + 3600_000)
    assert.deepEqual(list.list('ACME'), [{ sub: 'u1', before: beforeFor(t0 + 3600_000) }], 'a later withdrawal of the same user moves its entry forward')
    assert.equal(list.merge('ACME', [{ sub: 'u1', before: beforeFor(t0) }, { key: 'k1', before: beforeFor(t0) }, { bogus: 1 }]), true)
    assert.deepEqual(list.list('ACME').length, 2, 'an older published entry does not move it back; the new one is taken in')
    assert.deepEqual(heard, [['ACME'], ['ACME']])

    const reopened = await new Revocations({ dir, log, max: 3 }).open()
    assert.deepEqual(reopened.list('ACME'), [{ sub: 'u1', before: beforeFor(t0 + 3600_000) }], 'a merge is stored only when saved; the added entries are')

    // Expiry: kept while a credential issued just before `before` (life 24 h) could still pass a board's allowance.
    const b = beforeFor(t0 + 3600_000)
    assert.equal(ENTRY_LIFE_S, MAX_CREDENTIAL_LIFE_S + 240)
    assert.deepEqual(await reopened.prune((b + ENTRY_LIFE_S - 1) * 1000), [])
    assert.deepEqual(await reopened.prune((b + ENTRY_LIFE_S) * 1000), ['ACME'])
    assert.deepEqual(reopened.list('ACME'), [])
    assert.deepEqual((await new Revocations({ dir, log }).open()).list('ACME'), [], 'the pruned list is what is stored')

    // Past the limit the oldest entries fold into one company-wide entry: fail closed, never open.
    const full = new Revocations({ dir, log, max: 3 })
    for (let i = 0; i < 5; i++) await full.add([{ companyId: 'ACME', field: 'key', id: `k${i}` }], t0 + i * 60_000)
    const entries = full.list('ACME')
    assert.equal(entries.length, 3)
    assert.deepEqual(
      entries.find((e) => e.cid),
      { cid: 'ACME', before: beforeFor(t0 + 2 * 60_000) }
    )
    const revoked = revokedBy(entries)
    const claimsOf = (key, iat) => /** @type {any} */ ({ sub: 'u', cid: 'ACME', key: { id: key, kind: 'ekey' }, iat })
    const iat = beforeFor(t0 + 2 * 60_000) - 1
    assert.equal(revoked(claimsOf('k0', iat)), true, 'a folded key stays refused')
    assert.equal(revoked(claimsOf('k4', beforeFor(t0 + 4 * 60_000) - 1)), true)
    assert.equal(revoked(claimsOf('k9', beforeFor(t0 + 2 * 60_000))), false, 'credentials issued after the fold still open')

    // Long ids fill the byte budget before the count: the list stays within it.
    const long = new Revocations({ dir, log, maxBytes: 400 })
    for (let i = 0; i < 6; i++) await long.add([{ companyId: 'ACME', field: 'pid', id: `${i}`.padEnd(128, 'x') }], t0 + i * 60_000)
    const kept = long.list('ACME')
    assert.ok(JSON.stringify(kept).length <= 400, `${JSON.stringify(kept).length} bytes`)
    assert.ok(kept.some((e) => e.cid === 'ACME') && kept.some((e) => e.pid?.startsWith('5')))
  } finally {
    await removeDir(dir)
  }
})
