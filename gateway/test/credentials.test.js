import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importKeySet, verifyCredential, CLOCK_SKEW_MS } from '../src/access/credential.js'
import { signingKey, jwksOf, sign, seconds } from './support/credentials.js'
import { tempDir, removeDir } from './support/fixtures.js'

const CLI = fileURLToPath(new URL('../sim/board.js', import.meta.url))
const run = promisify(execFile)

const ALL_DAYS = [true, true, true, true, true, true, true]
/** Every day 08:00–17:00 in Madrid, from 2027-03-01 to 2027-04-30: the spring-forward night (Sun 2027-03-28) inside it. */
const MADRID_DAYTIME = {
  kind: 'ekey',
  access: 'custom',
  tz: 'Europe/Madrid',
  startDate: '2027-03-01',
  endDate: '2027-04-30',
  days: ALL_DAYS,
  allDay: false,
  startTime: '08:00',
  endTime: '17:00',
  used: false
}
const DOOR = { id: '41', companyId: 'ACME', groupIds: [] }

const k1 = await signingKey('k2026-11')
const k2 = await signingKey('k2027-03')
const claimsFor = (over = {}) => ({
  jti: 'c_1',
  sub: '7',
  cid: 'ACME',
  key: { id: '12', kind: 'ekey' },
  doors: ['41'],
  win: MADRID_DAYTIME,
  iat: seconds('2027-03-27T00:00:00Z'),
  exp: seconds('2027-03-29T00:00:00Z'),
  ...over
})
const at = (iso) => Date.parse(iso)

async function check(token, iso, ctx = {}) {
  const keys = await importKeySet(ctx.jwks ?? jwksOf(k1))
  const d = await verifyCredential(token, { keys, door: ctx.door ?? DOOR, at: at(iso), revoked: ctx.revoked, spent: ctx.spent })
  return d.reason
}

test('a credential opens inside its window and is refused outside it, in the key zone across the spring-forward change', async () => {
  const token = await sign(k1, claimsFor())
  // Saturday, winter time (UTC+1): 08:30 local is 07:30Z.
  assert.equal(await check(token, '2027-03-27T07:30:00Z'), 'ok')
  assert.equal(await check(token, '2027-03-27T06:30:00Z'), 'outside_schedule') // 07:30 local
  // Sunday, summer time (UTC+2) since 02:00 local: the same window has moved an hour in UTC.
  assert.equal(await check(token, '2027-03-28T06:30:00Z'), 'ok') // 08:30 local; a fixed +1 offset would say 07:30
  assert.equal(await check(token, '2027-03-28T15:30:00Z'), 'outside_schedule') // 17:30 local; a fixed +1 offset would say 16:30
  assert.equal(await check(token, '2027-03-28T14:59:59Z'), 'ok') // 16:59:59 local
  assert.equal(await check(token, '2027-03-28T00:30:00Z'), 'outside_schedule') // the night of the change itself
})

test('tampered, expired, other-company, other-door, unknown-kid, malformed and revoked credentials are refused with their codes', async () => {
  const token = await sign(k1, claimsFor())
  const [h, p, s] = token.split('.')
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), doors: ['41', '99'] })).toString('base64url')
  assert.equal(await check(`${h}.${forged}.${s}`, '2027-03-27T09:00:00Z'), 'bad_signature')
  const sig = Buffer.from(s, 'base64url')
  sig[0] ^= 1
  assert.equal(await check(`${h}.${p}.${sig.toString('base64url')}`, '2027-03-27T09:00:00Z'), 'bad_signature')

  // Expiry with the documented clock-skew allowance, on both sides.
  const exp = at('2027-03-29T00:00:00Z')
  assert.equal(await check(token, new Date(exp + CLOCK_SKEW_MS).toISOString(), { door: DOOR }), 'outside_schedule') // still a credential: 01:02 local is closed
  assert.equal(await check(token, new Date(exp + CLOCK_SKEW_MS + 1).toISOString()), 'credential_expired')
  assert.equal(await check(token, '2027-03-31T09:00:00Z'), 'credential_expired')
  assert.equal(await check(token, new Date(at('2027-03-27T00:00:00Z') - CLOCK_SKEW_MS - 1).toISOString()), 'credential_not_yet_valid')

  assert.equal(await check(await sign(k1, claimsFor({ cid: 'BETA' })), '2027-03-27T09:00:00Z'), 'other_company')
  assert.equal(await check(token, '2027-03-27T09:00:00Z', { door: { id: '41', companyId: 'BETA' } }), 'other_company')
  assert.equal(await check(token, '2027-03-27T09:00:00Z', { door: { id: '42', companyId: 'ACME' } }), 'other_door')
  assert.equal(await check(token, '2027-03-27T09:00:00Z', { jwks: jwksOf(k2) }), 'unknown_kid')
  assert.equal(await check('not.a.credential', '2027-03-27T09:00:00Z'), 'malformed')
  assert.equal(await check(await sign(k1, claimsFor({ key: { id: '12', kind: 'fob' } })), '2027-03-27T09:00:00Z'), 'malformed')

  const revokedKey = (c) => c.key.id === '12'
  assert.equal(await check(token, '2027-03-27T09:00:00Z', { revoked: revokedKey }), 'revoked')
  assert.equal(await check(token, '2027-03-27T09:00:00Z', { revoked: () => false }), 'ok')
})

test('a group credential opens the doors of its group, and follows the group when the door knows its groups', async () => {
  const token = await sign(k1, claimsFor({ key: { id: '30', kind: 'group' }, doors: ['41', '43'], grp: '5' }))
  assert.equal(await check(token, '2027-03-27T09:00:00Z', { door: { id: '43', companyId: 'ACME' } }), 'ok')
  assert.equal(await check(token, '2027-03-27T09:00:00Z', { door: { id: '44', companyId: 'ACME', groupIds: ['5'] } }), 'ok')
  assert.equal(await check(token, '2027-03-27T09:00:00Z', { door: { id: '41', companyId: 'ACME', groupIds: ['6'] } }), 'other_door')
})

test('key rotation: credentials of the previous key stay valid until their own expiry, and stop with it', async () => {
  const old = await sign(k1, claimsFor({ jti: 'c_old' }))
  const fresh = await sign(k2, claimsFor({ jti: 'c_new', exp: seconds('2027-03-30T00:00:00Z') }))
  const both = jwksOf(k2, k1)
  assert.equal(await check(old, '2027-03-28T09:00:00Z', { jwks: both }), 'ok')
  assert.equal(await check(fresh, '2027-03-28T09:00:00Z', { jwks: both }), 'ok')
  assert.equal(await check(old, '2027-03-29T09:00:00Z', { jwks: both }), 'credential_expired')
  assert.equal(await check(fresh, '2027-03-29T09:00:00Z', { jwks: both }), 'ok')
  // Once the retired key leaves the published set (after its last credential expired), its kid is unknown.
  assert.equal(await check(old, '2027-03-28T09:00:00Z', { jwks: jwksOf(k2) }), 'unknown_kid')
})

test('npm run board -- verify: an offline board decides from files alone, and a one-time credential opens once', async () => {
  const dir = await tempDir('cred-cli-')
  try {
    const jwks = join(dir, 'jwks.json')
    await writeFile(jwks, JSON.stringify(jwksOf(k1, k2)))
    const verify = async (token, iso, ...extra) => {
      const { stdout } = await run(process.execPath, [CLI, 'verify', '--jwks', jwks, '--door', '41', '--at', iso, '--credential', token, ...extra])
      const lines = stdout.trim().split('\n')
      assert.equal(lines.length, 1)
      return JSON.parse(lines[0])
    }
    const oneTime = { ...MADRID_DAYTIME, access: 'oneTime' }
    const token = await sign(k2, claimsFor({ jti: 'c_once', key: { id: '13', kind: 'ekey' }, win: oneTime }))
    const spent = join(dir, 'spent.txt')
    assert.deepEqual(await verify(token, '2027-03-28T08:15:00+02:00', '--spent', spent, '--company', 'ACME'), { allowed: true, reason: 'ok' })
    assert.deepEqual(await verify(token, '2027-03-28T08:16:00+02:00', '--spent', spent, '--company', 'ACME'), { allowed: false, reason: 'key_used' })
    // A fresh credential of the same spent key is refused too: the board remembers the key.
    const again = await sign(k2, claimsFor({ jti: 'c_once_2', key: { id: '13', kind: 'ekey' }, win: oneTime }))
    assert.deepEqual(await verify(again, '2027-03-28T09:00:00+02:00', '--spent', spent), { allowed: false, reason: 'key_used' })
    assert.deepEqual(await verify(token, '2027-03-28T07:59:00+02:00'), { allowed: false, reason: 'outside_schedule' })
    assert.deepEqual(await verify(token, '2027-03-28T09:00:00+02:00', '--company', 'BETA'), { allowed: false, reason: 'other_company' })

    // The revocation list as the board configuration carries it (`revoked`), alone or inside the configuration.
    const revoked = join(dir, 'revoked.json')
    const issued = seconds('2027-03-27T00:00:00Z')
    await writeFile(revoked, JSON.stringify([{ sub: '7', before: issued + 1 }]))
    const plain = await sign(k1, claimsFor())
    assert.deepEqual(await verify(plain, '2027-03-28T09:00:00+02:00', '--revoked', revoked), { allowed: false, reason: 'revoked' })
    assert.deepEqual(await verify(plain, '2027-03-28T09:00:00+02:00'), { allowed: true, reason: 'ok' })
    const reissued = await sign(k1, claimsFor({ jti: 'c_2', iat: issued + 1 }))
    assert.deepEqual(await verify(reissued, '2027-03-28T09:00:00+02:00', '--revoked', revoked), { allowed: true, reason: 'ok' }, 'issued after the withdrawal')
    const config = join(dir, 'config.json')
    await writeFile(config, JSON.stringify({ v: 1, companyId: 'ACME', credentialKeys: jwksOf(k1), revoked: [{ key: '12', before: issued + 1 }] }))
    const fromConfig = await run(process.execPath, [CLI, 'verify', '--jwks', config, '--door', '41', '--at', '2027-03-28T09:00:00+02:00', '--credential', plain])
    assert.deepEqual(JSON.parse(fromConfig.stdout), { allowed: false, reason: 'revoked' })
  } finally {
    await removeDir(dir)
  }
})

test('a company that requires biometrics: a credential without the uv claim answers biometric_required, at the verifier and in verify mode', async () => {
  const bare = await sign(k1, claimsFor())
  const verified = await sign(k1, claimsFor({ jti: 'c_uv', uv: seconds('2027-03-27T00:00:00Z') }))
  const door = { ...DOOR, biometricRequired: true }
  assert.equal(await check(bare, '2027-03-28T09:00:00Z', { door }), 'biometric_required')
  assert.equal(await check(verified, '2027-03-28T09:00:00Z', { door }), 'ok')
  assert.equal(await check(bare, '2027-03-28T09:00:00Z'), 'ok', 'a company without the requirement is unchanged')
  // The claim is checked after the door: another door's credential still says other_door.
  assert.equal(await check(await sign(k1, claimsFor({ doors: ['99'] })), '2027-03-28T09:00:00Z', { door }), 'other_door')
  assert.equal(await check(await sign(k1, claimsFor({ uv: 'yes' })), '2027-03-28T09:00:00Z', { door }), 'malformed')

  const dir = await tempDir('cred-bio-')
  try {
    const config = join(dir, 'config.json')
    await writeFile(config, JSON.stringify({ companyId: 'ACME', groupIds: [], biometricRequired: true, credentialKeys: jwksOf(k1) }))
    const jwks = join(dir, 'jwks.json')
    await writeFile(jwks, JSON.stringify(jwksOf(k1)))
    const verify = async (file, token, ...extra) =>
      JSON.parse((await run(process.execPath, [CLI, 'verify', '--jwks', file, '--door', '41', '--at', '2027-03-28T09:00:00Z', '--credential', token, ...extra])).stdout)
    assert.deepEqual(await verify(config, bare), { allowed: false, reason: 'biometric_required' })
    assert.deepEqual(await verify(config, verified), { allowed: true, reason: 'ok' })
    assert.deepEqual(await verify(jwks, bare, '--biometric-required'), { allowed: false, reason: 'biometric_required' })
    assert.deepEqual(await verify(jwks, bare), { allowed: true, reason: 'ok' })
  } finally {
    await removeDir(dir)
  }
})
