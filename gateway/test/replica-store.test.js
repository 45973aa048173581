/** The replica's store on disk: pages whole or not at all, snapshots switched in at once, restarts without a snapshot. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { writeFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { open as openLmdb } from 'lmdb'
import { Replica, ENTITY_TYPES } from '../src/store/replica.js'
import { WorkerContractDouble } from './support/worker-contract-double.js'
import { ALWAYS_OPEN as ALWAYS, SECRET, tempDir, removeDir, provisionBoard, startGateway } from './support/fixtures.js'

/** @param {string} type @param {string} id @param {any} [data] */
const up = (type, id, data = {}) => ({ type, op: /** @type {const} */ ('upsert'), id, data: { id, ...data } })
const users = (prefix, n) => Array.from({ length: n }, (_, i) => up('user', `${prefix}${i}`, { companyId: 'ACME', active: true }))

test('a gateway killed in the middle of a snapshot restarts on the copy it had', async () => {
  const dir = await tempDir('replica-crash-')
  try {
    let replica = await new Replica(dir).open()
    await replica.applyPage({ cursor: '10', reset: true, changes: users('old', 3) })
    await replica.close()

    // A real process writes two pages of a new snapshot and dies before its last page.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { Replica } from './src/store/replica.js'
        const replica = await new Replica(${JSON.stringify(dir)}).open()
        const snapshot = await replica.beginSnapshot()
        for (let p = 0; p < 2; p++) await snapshot.add(Array.from({ length: 500 }, (_, i) => ({ type: 'user', op: 'upsert', id: 'new' + p + '.' + i, data: { companyId: 'ACME' } })))
        process.stdout.write('staged\\n')
        setInterval(() => {}, 1000)`
      ],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] }
    )
    await new Promise((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('staged') && resolve())
      child.once('exit', (code) => reject(new Error(`child exited early: ${code}`)))
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited

    replica = await new Replica(dir).open()
    assert.equal(replica.cursor, '10')
    assert.deepEqual(
      replica
        .all('user')
        .map((u) => u.id)
        .sort(),
      ['old0', 'old1', 'old2']
    )
    // The next snapshot starts clean: nothing of the one cut short comes along.
    const snapshot = await replica.beginSnapshot()
    await snapshot.add([up('user', 'fresh')])
    await snapshot.commit('20')
    await replica.close()
    replica = await new Replica(dir).open()
    assert.deepEqual(
      replica.all('user').map((u) => u.id),
      ['fresh']
    )
    assert.equal(replica.cursor, '20')
    await replica.close()
  } finally {
    await removeDir(dir)
  }
})

test('a snapshot in pages is invisible until its last page is in, then replaces the copy at once', async () => {
  const dir = await tempDir('replica-pages-')
  const replica = await new Replica(dir).open()
  try {
    await replica.applyPage({ cursor: '1', reset: true, changes: [up('user', 'old', { companyId: 'ACME', phoneKeys: ['P-old'] })] })
    const snapshot = await replica.beginSnapshot()
    await snapshot.add([up('user', 'n1', { companyId: 'ACME', phoneKeys: ['P-new'] })])
    await snapshot.add([up('user', 'n2', { companyId: 'ACME' })])
    assert.deepEqual(
      replica.all('user').map((u) => u.id),
      ['old']
    )
    assert.equal(replica.index.userByPhoneKey.get('ACME\0P-new'), undefined)
    assert.equal(replica.cursor, '1')
    await snapshot.commit('9')
    assert.deepEqual(
      replica
        .all('user')
        .map((u) => u.id)
        .sort(),
      ['n1', 'n2']
    )
    assert.equal(replica.index.userByPhoneKey.get('ACME\0P-new')?.id, 'n1')
    assert.equal(replica.index.userByPhoneKey.get('ACME\0P-old'), undefined)
    assert.equal(replica.cursor, '9')
  } finally {
    await replica.close()
    await removeDir(dir)
  }
})

test('the indexes follow each change: a fob key before its user, a user moving to another company', async () => {
  const dir = await tempDir('replica-index-')
  const replica = await new Replica(dir).open()
  const { index } = replica
  try {
    await replica.applyPage({ cursor: '1', changes: [up('ekey', 'k1', { deviceId: 'd1', userId: 'u1', fob: 'F1' })] })
    assert.equal(index.keysByFob.get('ACME\0F1'), undefined)
    await replica.applyPage({ cursor: '2', changes: [up('user', 'u1', { companyId: 'ACME', phoneKeys: ['P1'] })] })
    assert.equal(index.keysByFob.get('ACME\0F1')?.[0].key.id, 'k1', 'filed once its user came')
    await replica.applyPage({ cursor: '3', changes: [up('user', 'u1', { companyId: 'BETA', phoneKeys: ['P1'] })] })
    assert.equal(index.keysByFob.get('ACME\0F1'), undefined)
    assert.equal(index.userByPhoneKey.get('ACME\0P1'), undefined)
    assert.equal(index.keysByFob.get('BETA\0F1')?.[0].key.id, 'k1')
    assert.equal(index.userByPhoneKey.get('BETA\0P1')?.id, 'u1')
    await replica.applyPage({ cursor: '4', changes: [{ type: 'ekey', op: 'delete', id: 'k1' }] })
    assert.equal(index.keysByFob.get('BETA\0F1'), undefined)
    assert.equal(index.ekeysByDeviceUser.get('d1\0u1'), undefined)
  } finally {
    await replica.close()
    await removeDir(dir)
  }
})

test('a page whose write fails leaves neither its records nor its cursor, in memory or on disk', async () => {
  const dir = await tempDir('replica-atomic-')
  let replica = await new Replica(dir).open()
  try {
    await replica.applyPage({ cursor: '1', changes: [up('user', 'a', { companyId: 'ACME' })] })
    const unwritable = {
      type: 'user',
      op: /** @type {const} */ ('upsert'),
      id: 'bad',
      data: {
        get companyId() {
          throw new Error('cannot be stored')
        }
      }
    }
    await assert.rejects(replica.applyPage({ cursor: '2', changes: [up('user', 'b', { companyId: 'ACME' }), up('ekey', 'k', { userId: 'a' }), unwritable] }), /cannot be stored/)
    assert.equal(replica.cursor, '1')
    assert.equal(replica.get('user', 'b'), undefined)
    await replica.close()
    replica = await new Replica(dir).open()
    assert.equal(replica.cursor, '1')
    assert.equal(replica.get('user', 'b'), undefined, 'the page is not half on disk')
    assert.equal(replica.get('ekey', 'k'), undefined)
    assert.equal(replica.get('user', 'a').companyId, 'ACME')
  } finally {
    await replica.close()
    await removeDir(dir)
  }
})

test('local facts survive a restart and a later page with the console older copy', async () => {
  const dir = await tempDir('replica-local-')
  let replica = await new Replica(dir).open()
  try {
    const key = up('ekey', 'k1', { deviceId: 'd1', userId: 'u1', window: { ...ALWAYS, access: 'once', used: false } })
    await replica.applyPage({ cursor: '5', changes: [key] })
    const spent = replica.applyLocal({ ...key, data: { ...key.data, window: { ...key.data.window, used: true } } })
    assert.equal(replica.get('ekey', 'k1').window.used, true, 'visible before the write resolves')
    await spent
    await replica.close()
    replica = await new Replica(dir).open()
    assert.equal(replica.get('ekey', 'k1').window.used, true)
    assert.equal(replica.cursor, '5', 'a local fact does not move the cursor')
    await replica.applyPage({ cursor: '6', changes: [{ ...key, data: { ...key.data, label: 'renamed' } }] })
    await replica.close()
    replica = await new Replica(dir).open()
    assert.equal(replica.get('ekey', 'k1').label, 'renamed')
    assert.equal(replica.get('ekey', 'k1').window.used, true)
    assert.equal(replica.index.ekeysByDeviceUser.get('d1\0u1')?.[0].window.used, true)
  } finally {
    await replica.close()
    await removeDir(dir)
  }
})

test('a copy written before the gateway knew a record type is read again from a snapshot, once', async () => {
  const dir = await tempDir('replica-types-')
  let replica = await new Replica(dir).open()
  try {
    await replica.applyPage({ cursor: '3', reset: true, changes: users('u', 1) })
    await replica.close()
    // What a gateway that did not know visitor passes left: it skipped their records and moved on.
    const env = openLmdb({ path: join(dir, 'replica.mdb'), maxDbs: 8 })
    const unaware = ENTITY_TYPES.filter((t) => t !== 'pass')
    await env.openDB({ name: 'meta' }).put('types', unaware)
    await env.close()

    replica = await new Replica(dir).open()
    assert.equal(replica.cursor, null, 'no cursor: the feed answers with a snapshot')
    assert.equal(replica.all('user').length, 1, 'decisions go on from the copy meanwhile')
    await replica.applyPage({ cursor: '5', reset: true, changes: [...users('u', 1), up('pass', 'v12', { companyId: 'ACME', doors: ['d1'] })] })
    await replica.close()
    replica = await new Replica(dir).open()
    assert.equal(replica.cursor, '5')
    assert.deepEqual(replica.get('pass', 'v12').doors, ['d1'])
  } finally {
    await replica.close()
    await removeDir(dir)
  }
})

test('a replica kept as replica.snapshot.json and replica.log is taken over on first open, local facts included', async () => {
  const dir = await tempDir('replica-migrate-')
  try {
    const tables = {
      user: [
        { id: 'u1', companyId: 'ACME', active: true },
        { id: 'u2', companyId: 'ACME', active: true }
      ],
      ekey: [{ id: 'k1', deviceId: 'd1', userId: 'u1', window: { used: false } }]
    }
    await writeFile(join(dir, 'replica.snapshot.json'), JSON.stringify({ cursor: '40', tables }))
    const lines = [
      { cursor: '41', reset: false, changes: [{ type: 'user', op: 'delete', id: 'u2' }] },
      { cursor: '41', reset: false, changes: [up('ekey', 'k1', { deviceId: 'd1', userId: 'u1', window: { used: true } })] },
      { cursor: '42', reset: false, changes: [up('ekey', 'k1', { deviceId: 'd1', userId: 'u1', window: { used: false }, fob: 'F1' })] }
    ]
    // The last line was torn by a crash: never acknowledged, so not taken.
    await writeFile(join(dir, 'replica.log'), lines.map((l) => JSON.stringify(l) + '\n').join('') + '{"cursor":"43","rese')
    let replica = await new Replica(dir).open()
    assert.equal(replica.cursor, '42')
    assert.deepEqual(
      replica.all('user').map((u) => u.id),
      ['u1']
    )
    assert.equal(replica.get('ekey', 'k1').window.used, true)
    assert.equal(replica.index.keysByFob.get('ACME\0F1')?.[0].key.id, 'k1')
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.startsWith('replica.') && !f.startsWith('replica.mdb')),
      [],
      'the old files are gone'
    )
    await replica.close()
    replica = await new Replica(dir).open()
    assert.equal(replica.cursor, '42')
    assert.equal(replica.get('ekey', 'k1').window.used, true)
    await replica.close()
  } finally {
    await removeDir(dir)
  }
})

test('a restarted gateway opens its copy and resumes at its cursor, asking the feed for no snapshot', async () => {
  const worker = await new WorkerContractDouble({ secret: SECRET }).listen()
  const dir = await tempDir()
  try {
    await provisionBoard(worker, 'rs1')
    for (let i = 0; i < 700; i++) worker.change('user', 'upsert', `u${i}`, { id: `u${i}`, companyId: 'ACME', active: true })
    let gw = await startGateway(worker, dir)
    const cursor = gw.replica.cursor
    await gw.close()
    worker.cursorsSeen.length = 0
    gw = await startGateway(worker, dir)
    assert.equal(gw.replica.all('user').length, 700)
    assert.ok(worker.cursorsSeen.length > 0)
    assert.deepEqual([...new Set(worker.cursorsSeen)], [cursor], 'every request carried the stored cursor: no snapshot')
    await gw.close()
  } finally {
    await worker.close()
    await removeDir(dir)
  }
})
