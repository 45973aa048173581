/**
 * Visitor passes (decision 0119): a guest's signed credential of kind `pass`, decided at the gateway from
 * the live `pass` record, and by a board alone from its claims. Real broker, real MQTT sim boards, the
 * contract double's feed; the board's verify mode as its own process.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { SECRET, tempDir, removeDir, provisionBoard, startGateway, board, until } from './support/fixtures.js'
import { signingKey, jwksOf, sign, seconds } from './support/credentials.js'

const CLI = fileURLToPath(new URL('../sim/board.js', import.meta.url))
const run = promisify(execFile)
const k1 = await signingKey('k-pass-1')

/** A visit on Thursday 2026-12-03, 09:00–17:00 in Madrid (UTC+1 in December). */
const VISIT = {
  kind: 'ekey',
  access: 'custom',
  tz: 'Europe/Madrid',
  startDate: '2026-12-03',
  endDate: '2026-12-03',
  days: [true, true, true, true, true, true, true],
  allDay: false,
  startTime: '09:00',
  endTime: '17:00',
  used: false
}
const ONE_ENTRY = { ...VISIT, access: 'oneTime' }
const INSIDE = Date.parse('2026-12-03T10:00:00+01:00')
const AFTER = Date.parse('2026-12-03T18:00:00+01:00')

/** The feed's `pass` record. */
const passRecord = (id, over = {}) => ({ id, companyId: 'ACME', guest: 'Ana López', hostUserId: '4', doors: ['d1'], groupId: null, window: VISIT, ...over })

/** A pass's credential, issued at 08:00 that day for the rest of it. */
const passClaims = (pass, over = {}) => ({
  jti: `c_${pass.id}_${Math.random().toString(36).slice(2)}`,
  sub: pass.id,
  cid: 'ACME',
  key: { id: pass.id, kind: 'pass' },
  doors: pass.doors,
  ...(pass.groupId ? { grp: pass.groupId } : {}),
  win: pass.window,
  pid: 'inst-guest',
  iat: seconds('2026-12-03T08:00:00+01:00'),
  exp: seconds('2026-12-03T23:00:00+01:00'),
  ...over
})

/**
 * The double with ACME, boards d1 and d2 (d2 in group g3) and the given passes, a gateway on a clock the
 * test moves, and both boards connected with their first configuration.
 * @param {any[]} passes
 */
async function passGateway(passes) {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  worker.jwks = jwksOf(k1)
  worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: true })
  await provisionBoard(worker, 'd1')
  await provisionBoard(worker, 'd2', { groupIds: ['g3'] })
  for (const p of passes) worker.change('pass', 'upsert', p.id, p)
  const clock = { at: INSIDE }
  const dir = await tempDir('pass-')
  const gw = await startGateway(worker, dir, { now: () => clock.at, revocationDelayMs: 50 })
  await gw.credentialKeys.refresh()
  const boards = { d1: board(gw, 'd1'), d2: board(gw, 'd2') }
  /** the gateway's error messages to the boards (a refused message) */
  const errors = []
  for (const b of Object.values(boards)) {
    b.on('error', (e) => errors.push(e))
    await b.connect()
    await b.next('config', { timeoutMs: 5000 })
  }
  /** @param {'d1'|'d2'} at @param {any} pass @param {object} [over] claims to change */
  const ask = async (at, pass, over) => boards[at].requestAccess({ type: 'signed', id: await sign(k1, passClaims(pass, over)) })
  /** the decisions recorded at the console double, and those naming a pass */
  const rows = () => [...worker.rows.values()].filter((e) => e.type.startsWith('access.'))
  const passRows = () => rows().filter((e) => e.data.userId?.startsWith('v'))
  /**
   * What the recorded pass decisions say, in a fixed order: a grant is stored once its spent pass is on disk,
   * so the next decision's record may arrive first.
   * @param {(e: any) => any[]} fields
   */
  const recorded = (fields) => passRows().map(fields).sort()
  const close = async () => {
    for (const b of Object.values(boards)) await b.close()
    await gw.close()
    await worker.close()
    await removeDir(dir)
  }
  return { worker, gw, clock, boards, errors, ask, rows, passRows, recorded, close }
}

test('a connected board: a visit pass opens inside its window only, at the doors of its live record or group, never exempt from a lockdown', async () => {
  const visit = passRecord('v12')
  const groupVisit = passRecord('v14', { doors: [], groupId: 'g3' })
  const { worker, gw, clock, ask, rows, passRows, recorded, close } = await passGateway([visit, groupVisit])
  try {
    const r = await ask('d1', visit)
    assert.deepEqual([r.allowed, r.key], [true, { id: 'v12', kind: 'pass' }])
    clock.at = AFTER
    assert.deepEqual([(await ask('d1', visit)).code], ['outside_schedule'])
    clock.at = INSIDE

    // A group pass opens the group's doors, and nothing else.
    assert.deepEqual((await ask('d2', groupVisit)).key, { id: 'v14', kind: 'pass' })
    assert.equal((await ask('d1', groupVisit, { doors: ['d1'], grp: undefined })).code, 'no_key', 'd1 is not in group g3')

    // The record decides: the host narrows the window, then moves the visit to another door.
    worker.change('pass', 'upsert', 'v12', { ...visit, window: { ...VISIT, startTime: '11:00' } })
    await gw.syncNow()
    assert.equal((await ask('d1', visit)).code, 'outside_schedule', 'the live window, not the credential')
    worker.change('pass', 'upsert', 'v12', { ...visit, doors: ['d2'] })
    await gw.syncNow()
    assert.equal((await ask('d1', visit)).code, 'no_key')
    worker.change('pass', 'upsert', 'v12', visit)

    // A lockdown at d1 refuses the guest even were the pass id listed among the exempt.
    const lockdown = {
      id: 'ACME',
      companyId: 'ACME',
      epoch: 1,
      active: true,
      mode: 'lockdown',
      scope: 'doors',
      scopeIds: ['d1'],
      exemptUserIds: ['v12'],
      startedAt: INSIDE,
      endsAt: null
    }
    worker.change('lockdown', 'upsert', 'ACME', lockdown)
    await gw.syncNow()
    assert.equal((await ask('d1', visit)).code, 'lockdown')
    worker.change('lockdown', 'upsert', 'ACME', { ...lockdown, epoch: 2, active: false })
    await gw.syncNow()
    assert.equal((await ask('d1', visit)).allowed, true)

    worker.change('company', 'upsert', 'ACME', { id: 'ACME', active: false })
    await gw.syncNow()
    assert.equal((await ask('d1', visit)).code, 'company_inactive')

    // Recorded like every decision, the pass standing for both user and key, denied or not; the company's
    // refusal, before the pass is looked at, names nobody, as for every credential.
    await until(() => passRows().length === 8 && rows().some((e) => e.data.code === 'company_inactive'), { what: 'nine decisions recorded' })
    assert.deepEqual(
      recorded((e) => [e.type, e.data.userId, e.data.keyId, e.data.keyKind, e.data.code ?? null]),
      [
        ['access.granted', 'v12', 'v12', 'pass', null],
        ['access.denied', 'v12', 'v12', 'pass', 'outside_schedule'],
        ['access.granted', 'v14', 'v14', 'pass', null],
        ['access.denied', 'v14', 'v14', 'pass', 'no_key'],
        ['access.denied', 'v12', 'v12', 'pass', 'outside_schedule'],
        ['access.denied', 'v12', 'v12', 'pass', 'no_key'],
        ['access.denied', 'v12', 'v12', 'pass', 'lockdown'],
        ['access.granted', 'v12', 'v12', 'pass', null]
      ].sort()
    )
    const inactive = rows().find((e) => e.data.code === 'company_inactive')
    assert.deepEqual([inactive.data.userId, inactive.data.keyId, inactive.data.keyKind], [null, null, null])
  } finally {
    await close()
  }
})

test('a one-entry pass opens once at any board of the gateway, and stays spent while the feed still says unused; an evacuation does not spend it', async () => {
  const once = passRecord('v13', { doors: ['d1', 'd2'], window: ONE_ENTRY })
  const { worker, gw, ask, passRows, recorded, close } = await passGateway([once])
  try {
    // An evacuation opens for anyone: the pass did not open the door and is not spent.
    const evacuation = {
      id: 'ACME',
      companyId: 'ACME',
      epoch: 1,
      active: true,
      mode: 'evacuation',
      scope: 'company',
      scopeIds: [],
      exemptUserIds: [],
      startedAt: INSIDE,
      endsAt: null
    }
    worker.change('lockdown', 'upsert', 'ACME', evacuation)
    await gw.syncNow()
    assert.deepEqual(await ask('d1', once).then((r) => [r.allowed, r.key]), [true, null])
    worker.change('lockdown', 'upsert', 'ACME', { ...evacuation, epoch: 2, active: false })
    await gw.syncNow()
    assert.equal(gw.replica.get('pass', 'v13').window.used, false)

    assert.equal((await ask('d1', once)).allowed, true)
    assert.equal(gw.replica.get('pass', 'v13').window.used, true, 'spent in the copy at once')
    assert.equal((await ask('d1', once)).code, 'key_used', 'a fresh credential of the spent pass')
    assert.equal((await ask('d2', once)).code, 'key_used', 'at the other board')

    // The console has not read the grant yet and sends the pass again, unused: the spent fact stays.
    worker.change('pass', 'upsert', 'v13', { ...once, guest: 'Ana López García' })
    await gw.syncNow()
    assert.equal(gw.replica.get('pass', 'v13').guest, 'Ana López García')
    assert.equal((await ask('d2', once)).code, 'key_used')

    await until(() => passRows().length === 5, { what: 'five pass decisions recorded' })
    assert.deepEqual(
      recorded((e) => [e.deviceId, e.type, e.data.keyId, e.data.keyKind, e.data.code ?? null]),
      [
        ['d1', 'access.granted', null, null, null],
        ['d1', 'access.granted', 'v13', 'pass', null],
        ['d1', 'access.denied', 'v13', 'pass', 'key_used'],
        ['d2', 'access.denied', 'v13', 'pass', 'key_used'],
        ['d2', 'access.denied', 'v13', 'pass', 'key_used']
      ].sort()
    )
  } finally {
    await close()
  }
})

test('a pass deleted from the feed is refused at the gateway and revoked in the board configuration, so a board alone refuses it too', async () => {
  const visit = passRecord('v12')
  const { worker, clock, boards, errors, ask, passRows, close } = await passGateway([visit])
  try {
    const token = await sign(k1, passClaims(visit))
    assert.equal((await boards.d1.decideOffline(token, clock.at)).reason, 'ok')
    assert.equal((await ask('d1', visit)).allowed, true)

    worker.change('pass', 'delete', 'v12')
    await until(() => boards.d1.last.get('config')?.revoked.some((e) => e.key === 'v12'), { what: 'the revoked pass in the configuration' })
    assert.equal((await ask('d1', visit)).code, 'no_key')
    const alone = await boards.d1.decideOffline(token, clock.at)
    assert.equal(alone.reason, 'revoked')

    // What the board decided alone reaches the console as the protocol says, naming the pass.
    const id = await boards.d1.reportOffline(alone, clock.at)
    await until(() => worker.rows.has(`d1/${id}`) || errors.length > 0, { what: 'the offline decision row' })
    assert.deepEqual(errors, [])
    assert.deepEqual(worker.rows.get(`d1/${id}`).data, { credential: { type: 'signed', id: alone.claims.jti }, userId: 'v12', keyId: 'v12', keyKind: 'pass', code: 'revoked' })
    await until(() => passRows().length === 3, { what: 'three pass decisions recorded' })
    const refused = passRows().find((e) => e.data.code === 'no_key')
    assert.deepEqual([refused.data.userId, refused.data.keyId, refused.data.keyKind], ['v12', 'v12', 'pass'])
  } finally {
    await close()
  }
})

test('verify mode: an offline board opens a pass inside its window, and refuses it outside, spent, revoked, at another door and under a lockdown', async () => {
  const dir = await tempDir('pass-cli-')
  try {
    const jwks = join(dir, 'jwks.json')
    await writeFile(jwks, JSON.stringify(jwksOf(k1)))
    const verify = async (token, iso, ...extra) => {
      const { stdout } = await run(process.execPath, [CLI, 'verify', '--jwks', jwks, '--company', 'ACME', '--at', iso, '--credential', token, ...extra])
      return JSON.parse(stdout)
    }
    const inside = '2026-12-03T10:00:00+01:00'
    const visit = await sign(k1, passClaims(passRecord('v12', { doors: ['41'] })))
    assert.deepEqual(await verify(visit, inside, '--door', '41'), { allowed: true, reason: 'ok' })
    assert.deepEqual(await verify(visit, '2026-12-03T18:00:00+01:00', '--door', '41'), { allowed: false, reason: 'outside_schedule' })
    assert.deepEqual(await verify(visit, inside, '--door', '42'), { allowed: false, reason: 'other_door' })

    const revoked = join(dir, 'revoked.json')
    await writeFile(revoked, JSON.stringify([{ key: 'v12', before: seconds('2026-12-03T08:00:00+01:00') + 60 }]))
    assert.deepEqual(await verify(visit, inside, '--door', '41', '--revoked', revoked), { allowed: false, reason: 'revoked' })

    const lockdown = join(dir, 'lockdown.json')
    await writeFile(
      lockdown,
      JSON.stringify({ id: 'ACME', companyId: 'ACME', epoch: 1, active: true, mode: 'lockdown', scope: 'company', scopeIds: [], exemptUserIds: ['v12'], endsAt: null })
    )
    assert.deepEqual(await verify(visit, inside, '--door', '41', '--lockdown', lockdown), { allowed: false, reason: 'lockdown' })

    // A group pass opens a door of its group that was not among its doors at issue.
    const groupVisit = await sign(k1, passClaims(passRecord('v14', { doors: ['41'], groupId: 'g3' })))
    assert.deepEqual(await verify(groupVisit, inside, '--door', '43', '--group', 'g3'), { allowed: true, reason: 'ok' })

    // One entry: the board remembers the credential and the pass, so a fresh credential of it is spent too.
    const spent = join(dir, 'spent.txt')
    const once = passRecord('v13', { doors: ['41'], window: ONE_ENTRY })
    const first = await sign(k1, passClaims(once))
    assert.deepEqual(await verify(first, inside, '--door', '41', '--spent', spent), { allowed: true, reason: 'ok' })
    assert.deepEqual(await verify(first, inside, '--door', '41', '--spent', spent), { allowed: false, reason: 'key_used' })
    assert.deepEqual(await verify(await sign(k1, passClaims(once)), inside, '--door', '41', '--spent', spent), { allowed: false, reason: 'key_used' })
  } finally {
    await removeDir(dir)
  }
})
