/**
 * The gateway's synced copy of the console's records, plus the change-feed cursor.
 *
 * Each applied feed page (a whole snapshot counts as one) is one durable line `{cursor, reset,
 * changes}` in replica.log, so a page is applied whole or not at all and the cursor never runs ahead
 * of the data. When the log grows past `compactBytes` the current state becomes replica.snapshot.json
 * and the log starts over.
 *
 * Entity types and shapes are those of docs/gateway-api.md.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AppendLog, replaceFile } from './append-log.js'

export const ENTITY_TYPES = ['company', 'device', 'boardCredential', 'user', 'ekey', 'groupKey', 'scheduledOpen', 'firmware', 'cell']

/** @typedef {import('../protocol/wire.js').FeedChange<any>} Change */

export class Replica {
  /** @type {Map<string, Map<string, any>>} */ tables = new Map(ENTITY_TYPES.map((t) => [t, new Map()]))
  /** @type {string|null} */ cursor = null
  /** @type {Set<(changes: Change[], reset: boolean) => void>} */ #listeners = new Set()
  /** @type {Set<(page: {reset: boolean, changes: Change[]}) => Promise<unknown>>} */ #beforeApply = new Set()

  /** @param {string} dir @param {{compactBytes?: number}} [opts] */
  constructor(dir, { compactBytes = 8 * 1024 * 1024 } = {}) {
    this.snapshotPath = join(dir, 'replica.snapshot.json')
    this.log = new AppendLog(join(dir, 'replica.log'))
    this.compactBytes = compactBytes
    this.index = new Indexes()
  }

  async open() {
    try {
      const snap = JSON.parse(await readFile(this.snapshotPath, 'utf8'))
      this.cursor = snap.cursor
      for (const [type, rows] of Object.entries(snap.tables)) {
        for (const row of rows) this.tables.get(type)?.set(row.id, row)
      }
    } catch (e) {
      if (e.code !== 'ENOENT') throw e
    }
    for (const page of await this.log.open()) this.#applyInMemory(page)
    this.index.rebuild(this.tables)
    return this
  }

  /** @param {(changes: Change[], reset: boolean) => void} fn */
  onChange(fn) {
    this.#listeners.add(fn)
    return () => this.#listeners.delete(fn)
  }

  /**
   * `fn` sees each feed page before it is written, against the copy it will change; what `fn` stores
   * before it resolves is therefore never behind the cursor (a crash in between brings the page again).
   * @param {(page: {reset: boolean, changes: Change[]}) => Promise<unknown>} fn
   */
  beforeApply(fn) {
    this.#beforeApply.add(fn)
  }

  /**
   * Durably applies one page of the change feed and advances the cursor.
   * @param {{cursor: string, reset?: boolean, changes: Change[]}} page
   */
  async applyPage(page) {
    const rec = { cursor: page.cursor, reset: Boolean(page.reset), changes: page.changes }
    for (const fn of this.#beforeApply) await fn(rec)
    await this.log.append(rec)
    this.#applyInMemory(rec)
    this.index.rebuild(this.tables)
    for (const fn of this.#listeners) fn(rec.changes, rec.reset)
    if (this.log.size > this.compactBytes) await this.compact()
  }

  /**
   * Records a fact learned locally before the console confirms it (a one-time key spent, a
   * first-person-in entry), so a gateway restart does not forget it. Visible at once — a second
   * request racing the disk write must already see the key as spent — and durable when resolved.
   * @param {Change} change
   */
  async applyLocal(change) {
    const rec = { cursor: this.cursor, reset: false, changes: [change] }
    this.#applyInMemory(rec)
    this.index.rebuild(this.tables)
    await this.log.append(rec)
    for (const fn of this.#listeners) fn(rec.changes, false)
  }

  #applyInMemory(rec) {
    if (rec.reset) for (const t of this.tables.values()) t.clear()
    for (const c of rec.changes) {
      const table = this.tables.get(c.type)
      if (!table) continue // a type this gateway does not use yet: ignored, not an error
      if (c.op === 'delete') table.delete(c.id)
      else table.set(c.id, mergeLocalFacts(table.get(c.id), { ...c.data, id: c.id }, c.type))
    }
    this.cursor = rec.cursor
  }

  async compact() {
    const tables = Object.fromEntries([...this.tables].map(([t, m]) => [t, [...m.values()]]))
    await replaceFile(this.snapshotPath, JSON.stringify({ cursor: this.cursor, tables }))
    await this.log.rewrite([])
  }

  /** @param {string} type @param {string} id */
  get(type, id) {
    return this.tables.get(type)?.get(id)
  }
  /** @param {string} type */
  all(type) {
    return [...this.tables.get(type).values()]
  }

  close() {
    return this.log.close()
  }
}

/**
 * Facts only ever move forward: a key once used stays used, and a later first entry wins, even if the
 * feed still carries the console's older copy.
 */
function mergeLocalFacts(before, after, type) {
  if (!before) return after
  if (type === 'ekey' && before.window?.used && after.window && !after.window.used) {
    return { ...after, window: { ...after.window, used: true } }
  }
  if (type === 'scheduledOpen' && before.window?.firstEntryAt && after.window) {
    const mine = Date.parse(before.window.firstEntryAt) || before.window.firstEntryAt
    const theirs = Date.parse(after.window.firstEntryAt) || after.window.firstEntryAt || 0
    if (mine > theirs) return { ...after, window: { ...after.window, firstEntryAt: before.window.firstEntryAt } }
  }
  return after
}

/** Lookups the access path needs in O(1). Rebuilt per applied page (pages are small). */
class Indexes {
  /** @param {Map<string, Map<string, any>>} tables */
  rebuild(tables) {
    // Credentials are looked up within the door's company: another company's numbers never collide.
    this.userByPhoneKey = new Map()
    for (const u of tables.get('user').values()) {
      for (const p of u.phoneKeys ?? []) this.userByPhoneKey.set(u.companyId + '\0' + p, u)
    }
    this.keysByFob = new Map()
    for (const type of ['ekey', 'groupKey']) {
      for (const k of tables.get(type).values()) {
        if (!k.fob) continue
        // The key's user says which company the fob belongs to: the same record decisions check.
        const at = tables.get('user').get(k.userId)?.companyId + '\0' + k.fob
        if (!this.keysByFob.has(at)) this.keysByFob.set(at, [])
        this.keysByFob.get(at).push({ type, key: k })
      }
    }
    this.ekeysByDeviceUser = groupBy(tables.get('ekey').values(), (k) => k.deviceId + '\0' + k.userId)
    this.groupKeysByGroupUser = groupBy(tables.get('groupKey').values(), (k) => k.groupId + '\0' + k.userId)
    this.devicesByCompany = groupBy(tables.get('device').values(), (d) => d.companyId)
    this.scheduleByCompany = new Map([...tables.get('scheduledOpen').values()].map((s) => [s.companyId, s]))
    this.activeFirmwareByType = new Map()
    for (const f of tables.get('firmware').values()) if (f.active) this.activeFirmwareByType.set(f.deviceType, f)
  }
}

function groupBy(rows, keyOf) {
  const m = new Map()
  for (const r of rows) {
    const k = keyOf(r)
    if (!m.has(k)) m.set(k, [])
    m.get(k).push(r)
  }
  return m
}
