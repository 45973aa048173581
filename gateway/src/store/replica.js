/**
 * The gateway's synced copy of the console's records, plus the change-feed cursor.
 *
 * On disk it is an LMDB environment (`replica.mdb`, decision 0052) with one entry per record, keyed
 * `[type, id]`, in a database per generation (`records.<n>`), and a `meta` database with the live
 * generation, the cursor and the record types the copy was written knowing. Each feed page is one
 * transaction together with its cursor, so a page is applied whole or not at all and the cursor never
 * runs ahead of the data. Writes go through child transactions: lmdb-js commits what an ordinary
 * transaction's callback wrote before it threw.
 * A snapshot is written page by page into the next generation; one transaction then makes it the live
 * one. Until then the live generation and the decisions read from it stay as they were, and a
 * snapshot cut short is dropped.
 *
 * Decisions read from memory: the records are loaded into Maps record by record at open, and the
 * indexes follow each change (replica-indexes.js).
 *
 * Entity types and shapes are those of docs/gateway-api.md.
 */
import { join } from 'node:path'
import { mkdir } from 'node:fs/promises'
import { open as openLmdb } from 'lmdb'
import { Indexes } from './replica-indexes.js'
import { readJsonReplica, removeJsonReplica } from './replica-json.js'

export const ENTITY_TYPES = ['company', 'device', 'boardCredential', 'user', 'ekey', 'groupKey', 'pass', 'scheduledOpen', 'firmware', 'cell', 'lockdown']

const STRUCTURES = Symbol.for('structures')

/** Records per transaction when a whole copy is written at once (migration). */
const BATCH = 5000

/** @typedef {import('../protocol/wire.js').FeedChange<any>} Change */
/** @typedef {{tables: Map<string, Map<string, any>>, index: Indexes}} Copy */
/** @typedef {{db: import('lmdb').Database, copy: Copy}} Snapshot a snapshot being written into the next generation */

const emptyCopy = () => {
  const tables = new Map(ENTITY_TYPES.map((t) => [t, new Map()]))
  return { tables, index: new Indexes(tables) }
}

export class Replica {
  /** @type {Map<string, Map<string, any>>} */ tables
  /** @type {Indexes} */ index
  /** @type {string|null} */ cursor = null
  /** @type {Set<(changes: Change[], reset: boolean) => void>} */ #listeners = new Set()
  /** @type {Set<(page: {reset: boolean, changes: Change[]}) => Promise<unknown>>} */ #beforeApply = new Set()
  /** @type {import('lmdb').RootDatabase} */ #env
  /** @type {import('lmdb').Database} */ #meta
  /** @type {import('lmdb').Database} the live generation's records */ #records
  #generation = 1
  /** @type {Snapshot|null} */ #staging = null

  /** @param {string} dir */
  constructor(dir) {
    this.dir = dir
    this.path = join(dir, 'replica.mdb')
    ;({ tables: this.tables, index: this.index } = emptyCopy())
  }

  async open() {
    await mkdir(this.dir, { recursive: true })
    // 8 GiB of address space, not of disk: the map grows the file only as records are written.
    this.#env = openLmdb({ path: this.path, mapSize: 8 * 1024 ** 3, maxDbs: 8 })
    this.#meta = this.#env.openDB({ name: 'meta' })
    const generation = this.#meta.get('generation')
    if (generation === undefined) await this.#migrate()
    else this.#generation = generation
    this.cursor = this.#meta.get('cursor') ?? null
    // A copy kept by a gateway that did not know every type yet skipped their records (a pass deleted later
    // would then revoke nothing): with no cursor the feed sends a snapshot, which switches in as usual.
    const known = this.#meta.get('types') ?? []
    if (!ENTITY_TYPES.every((t) => known.includes(t))) this.cursor = null
    this.#records = this.#generationDb(this.#generation)
    // A snapshot cut short, or an old generation whose drop was cut short, is not the copy. (The
    // environment's unnamed database lists its named ones.)
    for (const name of [...this.#env.getKeys()]) {
      const n = /^records\.(\d+)$/.exec(String(name))?.[1]
      if (n && Number(n) !== this.#generation) await this.#generationDb(Number(n)).drop()
    }
    for (const { key, value } of this.#records.getRange()) {
      const type = Array.isArray(key) ? String(key[0]) : null // not an array: the shared structures' entry
      if (!this.tables.has(type)) continue
      this.tables.get(type).set(value.id, value)
      this.index.add(type, value)
    }
    return this
  }

  /** @param {number} n */
  #generationDb(n) {
    // Shared structures: a record's field names are stored once per shape, not in every record.
    return this.#env.openDB({ name: `records.${n}`, sharedStructuresKey: STRUCTURES })
  }

  /** A gateway that kept its copy as replica.snapshot.json and replica.log takes it over once. */
  async #migrate() {
    let copy = null
    let cursor = null
    for await (const page of readJsonReplica(this.dir)) {
      if (page.reset || !copy) copy = emptyCopy()
      for (const c of page.changes) this.#applyTo(copy, c, true)
      cursor = page.cursor
    }
    if (copy) {
      const db = this.#generationDb(1)
      await db.clearAsync()
      /** @type {[any, any][]} */ let batch = []
      for (const [type, table] of copy.tables) {
        for (const rec of table.values()) {
          batch.push([[type, rec.id], rec])
          if (batch.length === BATCH) await this.#env.childTransaction(putAll(db, batch.splice(0)))
        }
      }
      await this.#env.childTransaction(putAll(db, batch))
    }
    await this.#env.childTransaction(() => {
      this.#meta.put('cursor', cursor)
      this.#meta.put('generation', 1)
      this.#meta.put('types', ENTITY_TYPES)
    })
    await this.#env.flushed
    if (copy) await removeJsonReplica(this.dir)
  }

  /** @param {(changes: Change[], reset: boolean) => void} fn `changes` is empty for a reset: the whole copy changed */
  onChange(fn) {
    this.#listeners.add(fn)
    return () => this.#listeners.delete(fn)
  }

  /**
   * `fn` sees each feed page before it is written, against the copy it will change; what `fn` stores
   * before it resolves is therefore never behind the cursor (a crash in between brings the page again).
   * A snapshot's pages come with `reset: true` as they arrive, then, before it replaces the copy, one
   * more with a `delete` for every record of the copy the snapshot does not have.
   * @param {(page: {reset: boolean, changes: Change[]}) => Promise<unknown>} fn
   */
  beforeApply(fn) {
    this.#beforeApply.add(fn)
  }

  /**
   * Durably applies one page of the change feed and advances the cursor. A page with `reset` is a
   * whole snapshot in one page.
   * @param {{cursor: string, reset?: boolean, changes: Change[]}} page
   */
  async applyPage(page) {
    if (page.reset) {
      const snapshot = await this.beginSnapshot()
      await snapshot.add(page.changes)
      return snapshot.commit(page.cursor)
    }
    const rec = { reset: false, changes: page.changes }
    for (const fn of this.#beforeApply) await fn(rec)
    await this.#env.childTransaction(() => {
      for (const c of page.changes) this.#write(this.#records, c, this.#applied(this, c, true))
      this.#meta.put('cursor', page.cursor)
    })
    await this.#env.flushed
    for (const c of page.changes) this.#applyTo(this, c, true)
    this.cursor = page.cursor
    for (const fn of this.#listeners) fn(page.changes, false)
  }

  /**
   * Starts a snapshot that replaces the copy once its last page is in: `add` writes one page to the
   * next generation (the copy decisions read is unchanged), `commit` makes it the copy in one step,
   * with the feed's cursor after it. Starting another drops this one.
   * @returns {Promise<{add: (changes: Change[]) => Promise<void>, commit: (cursor: string) => Promise<void>}>}
   */
  async beginSnapshot() {
    const db = this.#generationDb(this.#generation + 1)
    this.#staging = null
    await db.clearAsync()
    const snapshot = { db, copy: emptyCopy() }
    this.#staging = snapshot
    return { add: (changes) => this.#stage(snapshot, changes), commit: (cursor) => this.#switchTo(snapshot, cursor) }
  }

  /** @param {Snapshot} snapshot */
  #isStaging(snapshot) {
    if (this.#staging !== snapshot) throw new Error('a newer snapshot replaced this one')
  }

  /** @param {Snapshot} snapshot @param {Change[]} changes */
  async #stage(snapshot, changes) {
    this.#isStaging(snapshot)
    await this.#runHooks({ reset: true, changes })
    this.#isStaging(snapshot)
    // Not waited for on disk: the switch's transaction is flushed after these, and until then a
    // crash only loses a snapshot that restarts anyway.
    await this.#env.childTransaction(() => {
      for (const c of changes) this.#write(snapshot.db, c, this.#applied(snapshot.copy, c, false))
    })
    for (const c of changes) this.#applyTo(snapshot.copy, c, false)
  }

  /** @param {Snapshot} snapshot @param {string} cursor */
  async #switchTo(snapshot, cursor) {
    this.#isStaging(snapshot)
    /** @type {Change[]} */ const removed = []
    for (const [type, table] of this.tables) {
      const kept = snapshot.copy.tables.get(type)
      for (const id of table.keys()) if (!kept.has(id)) removed.push({ type, op: 'delete', id })
    }
    await this.#runHooks({ reset: true, changes: removed })
    this.#isStaging(snapshot)
    const generation = this.#generation + 1
    await this.#env.childTransaction(() => {
      this.#meta.put('generation', generation)
      this.#meta.put('cursor', cursor)
      this.#meta.put('types', ENTITY_TYPES)
    })
    await this.#env.flushed
    const old = this.#records
    this.#staging = null
    this.#generation = generation
    this.#records = snapshot.db
    ;({ tables: this.tables, index: this.index } = snapshot.copy)
    this.cursor = cursor
    for (const fn of this.#listeners) fn([], true)
    await old.drop()
  }

  async #runHooks(page) {
    for (const fn of this.#beforeApply) await fn(page)
  }

  /**
   * Records a fact learned locally before the console confirms it (a one-time key spent, a
   * first-person-in entry), so a gateway restart does not forget it. Visible at once — a second
   * request racing the disk write must already see the key as spent — and durable when resolved.
   * @param {Change} change
   */
  async applyLocal(change) {
    this.#applyTo(this, change, true)
    const records = this.#records
    await this.#env.childTransaction(() => this.#write(records, change, this.get(change.type, change.id)))
    await this.#env.flushed
    for (const fn of this.#listeners) fn([change], false)
  }

  /** @param {import('lmdb').Database} db @param {Change} c @param {any} rec the record as it will be, if any */
  #write(db, c, rec) {
    if (!ENTITY_TYPES.includes(c.type)) return // a type this gateway does not use yet: ignored, not an error
    if (rec === undefined) db.remove([c.type, c.id])
    else db.put([c.type, c.id], rec)
  }

  /** The record `c` leaves in `copy` (undefined for a delete), local facts kept when `merge`. */
  #applied(copy, c, merge) {
    if (c.op === 'delete') return undefined
    const after = { ...c.data, id: c.id }
    return merge ? mergeLocalFacts(copy.tables.get(c.type)?.get(c.id), after, c.type) : after
  }

  /** @param {Copy} copy @param {Change} c @param {boolean} merge */
  #applyTo(copy, c, merge) {
    const table = copy.tables.get(c.type)
    if (!table) return
    const before = table.get(c.id)
    const after = this.#applied(copy, c, merge)
    if (before) copy.index.remove(c.type, before)
    if (after === undefined) table.delete(c.id)
    else {
      table.set(c.id, after)
      copy.index.add(c.type, after)
    }
  }

  /** @param {string} type @param {string} id */
  get(type, id) {
    return this.tables.get(type)?.get(id)
  }
  /** @param {string} type */
  all(type) {
    return [...this.tables.get(type).values()]
  }

  async close() {
    this.#staging = null
    await this.#env?.close()
  }
}

/** @param {import('lmdb').Database} db @param {[any, any][]} entries */
const putAll = (db, entries) => () => {
  for (const [key, value] of entries) db.put(key, value)
}

/**
 * Facts only ever move forward: a key or visitor pass once used stays used, and a later first entry wins,
 * even if the feed still carries the console's older copy. A lockdown state with a lower epoch than the one
 * held is older (the epoch rises at every start and end) and is not taken: after a snapshot, what changed
 * while it was paged comes again, so a start the snapshot already saw ended can follow its end, and with a
 * page boundary or the console lost in between it would stay in force (an evacuation: doors held open).
 */
function mergeLocalFacts(before, after, type) {
  if (!before) return after
  if (type === 'lockdown' && after.epoch < before.epoch) return before
  if ((type === 'ekey' || type === 'pass') && before.window?.used && after.window && !after.window.used) {
    return { ...after, window: { ...after.window, used: true } }
  }
  if (type === 'scheduledOpen' && before.window?.firstEntryAt && after.window) {
    const mine = Date.parse(before.window.firstEntryAt) || before.window.firstEntryAt
    const theirs = Date.parse(after.window.firstEntryAt) || after.window.firstEntryAt || 0
    if (mine > theirs) return { ...after, window: { ...after.window, firstEntryAt: before.window.firstEntryAt } }
  }
  return after
}
