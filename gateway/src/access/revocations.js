/**
 * The revocation list a board uses while it decides alone (PROTOCOL.md, "Revocation list"). The gateway
 * derives it from the change feed it already follows: whatever a page withdraws since the copy it replaces
 * (a key or visitor pass deleted, a user deleted or deactivated, a company deactivated, a phone
 * forgotten) becomes an entry of that company, `{"sub"|"key"|"pid"|"cid": id, "before": epoch s}`:
 * credentials naming that id and issued before `before` are refused. A credential issued later (a user
 * re-activated and given a fresh one) opens again.
 *
 * `before` is the gateway's clock when it learned the withdrawal, plus the clock-skew allowance (the
 * console that signed may run that far ahead), rounded up to the next minute so that the instances of a
 * cluster, which follow the same feed, publish the same entries. An entry is dropped once no credential
 * it could match can still be accepted: `before` + the longest credential life + twice the allowance.
 * The list is kept in `revocations.json` in the data directory, written before the feed page it comes
 * from is applied, so a crash in between derives it again rather than losing it.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { replaceFile } from '../store/append-log.js'
import { CLOCK_SKEW_MS } from './credential.js'

/** The longest life the console gives a credential (decision 0028: at most 24 h). */
export const MAX_CREDENTIAL_LIFE_S = 24 * 3600
const SKEW_S = CLOCK_SKEW_MS / 1000
/** How long after its `before` an entry can still match a credential some board accepts. */
export const ENTRY_LIFE_S = MAX_CREDENTIAL_LIFE_S + 2 * SKEW_S
/**
 * Entries per company, and bytes of its list as JSON (ids run up to 128 characters): past either, the
 * oldest are folded into one company-wide entry (fail closed). The configuration stays under 64 KiB.
 */
export const MAX_REVOCATIONS = 1000
export const MAX_REVOCATION_BYTES = 48 * 1024
const sizeOf = (e) => JSON.stringify(e).length + 1
/** What an entry names, in the order the output lists them: user, key, phone installation, company. */
export const FIELDS = /** @type {const} */ (['sub', 'key', 'pid', 'cid'])

/**
 * @typedef {'sub'|'key'|'pid'|'cid'} Field
 * @typedef {{companyId: string, field: Field, id: string}} Withdrawal
 * @typedef {{sub?: string, key?: string, pid?: string, cid?: string, before: number}} Entry  exactly one id field
 * @typedef {import('../store/replica.js').Change} Change
 */

/** `before` for a withdrawal learned at `nowMs` (gateway clock). */
export const beforeFor = (nowMs) => (Math.floor((Math.floor(nowMs / 1000) + SKEW_S) / 60) + 1) * 60

/**
 * What a page of the feed withdraws, judged against the copy it is applied to. Only transitions the
 * gateway saw count: a record it never had (a first snapshot) withdraws nothing.
 * @param {(type: string, id: string) => any} prev  the record before the page, or undefined
 * @param {Change[]} changes  a snapshot's changes plus a `delete` for each record it no longer has
 * @returns {Withdrawal[]}
 */
export function withdrawals(prev, changes) {
  /** @type {Map<string, any>} the state as the page goes along: a record may come twice */
  const seen = new Map()
  const get = (type, id) => (seen.has(type + '\0' + id) ? seen.get(type + '\0' + id) : prev(type, id))
  /** @type {Withdrawal[]} */ const out = []
  /** @type {{companyId: string, id: string, userId: string}[]} */ const keys = []
  for (const c of changes) {
    const before = get(c.type, c.id)
    const after = c.op === 'delete' ? undefined : { ...c.data, id: c.id }
    seen.set(c.type + '\0' + c.id, after)
    if (!before) continue
    if (c.type === 'company') {
      if (before.active !== false && (!after || after.active === false)) out.push({ companyId: c.id, field: 'cid', id: c.id })
    } else if (c.type === 'user') {
      const gone = !after || after.companyId !== before.companyId || (before.active !== false && after.active === false)
      if (gone) out.push({ companyId: before.companyId, field: 'sub', id: c.id })
      else {
        const kept = new Set(after.phoneKeys ?? [])
        for (const p of before.phoneKeys ?? []) if (!kept.has(p)) out.push({ companyId: before.companyId, field: 'pid', id: p })
      }
    } else if ((c.type === 'ekey' || c.type === 'groupKey') && !after) {
      const companyId = before.companyId ?? get('user', before.userId)?.companyId ?? prev('user', before.userId)?.companyId
      if (companyId) keys.push({ companyId, id: c.id, userId: before.userId })
    } else if (c.type === 'pass' && !after) {
      // A revoked visitor pass: its credentials name it as `key.id` (and `sub`); it belongs to no user.
      out.push({ companyId: before.companyId, field: 'key', id: c.id })
    }
  }
  // A deleted user's keys go with it: the user's entry already covers them.
  const subs = new Set(out.filter((w) => w.field === 'sub').map((w) => w.companyId + '\0' + w.id))
  for (const k of keys) if (!subs.has(k.companyId + '\0' + k.userId)) out.push({ companyId: k.companyId, field: 'key', id: k.id })
  return out
}

/** The field an entry names and its id. @param {Entry} e @returns {[Field, string]|null} */
export function subjectOf(e) {
  const fields = FIELDS.filter((f) => e && typeof e[f] === 'string')
  return fields.length === 1 && Number.isSafeInteger(e.before) ? [fields[0], e[fields[0]]] : null
}

const order = (a, b) => a.before - b.before || FIELDS.indexOf(subjectOf(a)[0]) - FIELDS.indexOf(subjectOf(b)[0]) || (subjectOf(a)[1] < subjectOf(b)[1] ? -1 : 1)

/** Per company, the entries a board of it receives. */
export class Revocations {
  /** @type {Map<string, Map<string, Entry>>} company → `field:id` → entry */ byCompany = new Map()
  /** @type {Set<(companyIds: string[]) => void>} */ #listeners = new Set()
  #saving = Promise.resolve()
  /** @type {Map<string, number>} company → bytes of its list as JSON, kept as entries come and go */ #bytes = new Map()

  /** @param {{dir: string, log: import('../log.js').Logger, max?: number, maxBytes?: number}} opts */
  constructor({ dir, log, max = MAX_REVOCATIONS, maxBytes = MAX_REVOCATION_BYTES }) {
    this.path = join(dir, 'revocations.json')
    this.log = log
    this.max = max
    this.maxBytes = maxBytes
  }

  async open() {
    try {
      const stored = JSON.parse(await readFile(this.path, 'utf8'))
      for (const [companyId, entries] of Object.entries(stored.companies ?? {})) this.merge(companyId, entries)
    } catch (e) {
      if (e.code !== 'ENOENT') this.log.warn('stored revocations unreadable', { error: e.message })
    }
    return this
  }

  /** @param {(companyIds: string[]) => void} fn called with the companies whose list changed */
  onChange(fn) {
    this.#listeners.add(fn)
  }

  /** The list of a company, oldest first (the same order on every instance). @param {string} companyId @returns {Entry[]} */
  list(companyId) {
    return [...(this.byCompany.get(companyId)?.values() ?? [])].sort(order)
  }

  /**
   * Records withdrawals learned at `nowMs` and stores the list; listeners hear of it once it is on disk.
   * @param {Withdrawal[]} found @param {number} nowMs
   */
  async add(found, nowMs) {
    const before = beforeFor(nowMs)
    const changed = new Set()
    for (const w of found) if (this.#put(w.companyId, { [w.field]: w.id, before })) changed.add(w.companyId)
    for (const c of changed) this.#fold(c)
    return this.#commit(changed)
  }

  /**
   * Takes in entries another instance published (a board's retained configuration) or the stored file:
   * the later `before` of the same subject wins.
   * @param {string} companyId @param {unknown} entries
   * @returns {boolean} whether anything changed
   */
  merge(companyId, entries) {
    let changed = false
    for (const e of Array.isArray(entries) ? entries : []) {
      const s = subjectOf(e)
      if (s) changed = this.#put(companyId, { [s[0]]: s[1], before: e.before }) || changed
    }
    if (changed) this.#fold(companyId)
    return changed
  }

  /** Drops the entries that can no longer match a credential anyone accepts, and stores the rest. */
  async prune(nowMs) {
    const changed = new Set()
    for (const [companyId, entries] of this.byCompany) {
      for (const [k, e] of entries) {
        if (e.before + ENTRY_LIFE_S > nowMs / 1000) continue
        this.#remove(companyId, entries, k)
        changed.add(companyId)
      }
      if (entries.size === 0) {
        this.byCompany.delete(companyId)
        this.#bytes.delete(companyId)
      }
    }
    return this.#commit(changed)
  }

  /** Writes the file and tells the listeners, when something changed. */
  async #commit(changed) {
    if (changed.size === 0) return []
    await this.save()
    const ids = [...changed]
    for (const fn of this.#listeners) fn(ids)
    return ids
  }

  /** Writes the current lists; writes queue up, so two never race on the same file. */
  save() {
    const write = () => replaceFile(this.path, JSON.stringify({ v: 1, companies: Object.fromEntries([...this.byCompany.keys()].map((c) => [c, this.list(c)])) }))
    const saved = this.#saving.then(write, write)
    this.#saving = saved.catch(() => {})
    return saved
  }

  /** Adds or moves forward one entry (the caller folds once it added all). @returns {boolean} */
  #put(companyId, entry) {
    const [field, id] = subjectOf(entry)
    const k = field + ':' + id
    if (!this.byCompany.has(companyId)) this.byCompany.set(companyId, new Map())
    const entries = this.byCompany.get(companyId)
    const had = entries.get(k)
    if (had && had.before >= entry.before) return false
    if (had) this.#remove(companyId, entries, k)
    entries.set(k, entry)
    this.#bytes.set(companyId, (this.#bytes.get(companyId) ?? 0) + sizeOf(entry))
    return true
  }

  #remove(companyId, entries, k) {
    this.#bytes.set(companyId, this.#bytes.get(companyId) - sizeOf(entries.get(k)))
    entries.delete(k)
  }

  /**
   * Past the limit, the oldest entries become one `cid` entry: every credential of the company issued
   * before the latest of them is refused offline until its phone fetches a fresh one. A board never
   * opens for a withdrawn credential because its list ran out of room.
   */
  #fold(companyId) {
    const entries = this.byCompany.get(companyId)
    if (entries.size <= this.max && this.#bytes.get(companyId) <= this.maxBytes) return
    const at = 'cid:' + companyId
    const cid = { cid: companyId, before: entries.get(at)?.before ?? 0 }
    if (entries.has(at)) this.#remove(companyId, entries, at)
    // room for the company-wide entry itself, with a before of full length
    const room = this.maxBytes - sizeOf({ ...cid, before: 2 ** 31 })
    for (const e of [...entries.values()].sort(order)) {
      if (entries.size < this.max && this.#bytes.get(companyId) <= room) break
      this.#remove(companyId, entries, subjectOf(e).join(':'))
      cid.before = Math.max(cid.before, e.before)
    }
    entries.set(at, cid)
    this.#bytes.set(companyId, this.#bytes.get(companyId) + sizeOf(cid))
    this.log.warn('revocation list full: oldest entries folded into a company-wide one', { companyId, before: cid.before })
  }
}

/**
 * The withdrawals of a feed page about to be applied to `replica`. The records of the copy that a
 * snapshot no longer has come as deletes, in the last page the replica hands over before the switch.
 * @param {import('../store/replica.js').Replica} replica @param {{changes: Change[]}} page
 */
export function pageWithdrawals(replica, { changes }) {
  return withdrawals((type, id) => replica.get(type, id), changes)
}
