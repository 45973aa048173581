/**
 * Synthetic 300-door sites in the feed's shapes (docs/gateway-api.md §1), for bench/replica.mjs: per
 * site a company, 300 devices with board credentials, 1,000 users, 3,000 e-keys, 200 group keys and a
 * scheduled-open. Deterministic, so every process of a run builds the same records.
 */
export const DOORS = 300
export const USERS = 1000
export const EKEYS = 3000
export const GROUP_KEYS = 200
const GROUPS = 10

const week = Array.from({ length: 7 }, (_, d) => ({ openWholeDay: false, openTime: d < 5 ? '08:00' : '', closeTime: d < 5 ? '18:00' : '' }))
const ekeyWindow = {
  kind: 'ekey',
  access: 'custom',
  tz: 'Europe/Berlin',
  startDate: '2026-03-01',
  endDate: '2027-06-30',
  days: [true, true, true, true, true, false, false],
  allDay: false,
  startTime: '08:00',
  endTime: '17:30',
  used: false
}
const groupWindow = { kind: 'group', tz: 'Europe/Berlin', days: [true, true, true, true, true, true, true], allDay: false, startTime: '22:00', endTime: '06:00' }
const hash = (s) => `hmac-sha256$${Buffer.from(`salt-${s}`.padEnd(16, '.')).toString('base64')}$${Buffer.from(`hash-${s}`.padEnd(32, '.')).toString('base64')}`

/** @returns {import('../src/store/replica.js').Change} */
const up = (type, id, data) => ({ type, op: 'upsert', id, data: { id, ...data } })

/** Every record of site `s`, as snapshot changes. @param {number} s */
export function* siteChanges(s) {
  const c = `C${s}`
  yield up('company', c, { active: true })
  for (let d = 0; d < DOORS; d++) {
    const id = `${c}-d${d}`
    yield up('device', id, {
      companyId: c,
      name: `Door ${d}`,
      deviceType: 'AB-200',
      tz: 'Europe/Berlin',
      groupIds: [`${c}-g${d % GROUPS}`],
      active: true,
      scheduleOpen: true,
      unlockMs: 5000
    })
    yield { type: 'boardCredential', op: /** @type {const} */ ('upsert'), id, data: { deviceId: id, hash: hash(id) } }
  }
  for (let u = 0; u < USERS; u++) yield up('user', `${c}-u${u}`, { companyId: c, active: true, lang: 'en', phoneKeys: [`${c}-p${u}`] })
  for (let k = 0; k < EKEYS; k++) {
    const u = k % USERS
    yield up('ekey', `${c}-k${k}`, {
      deviceId: `${c}-d${(k * 7) % DOORS}`,
      userId: `${c}-u${u}`,
      companyId: c,
      label: 'Weekday access',
      fob: u % 3 === 0 ? `F${u}` : null,
      window: ekeyWindow
    })
  }
  for (let g = 0; g < GROUP_KEYS; g++) {
    yield up('groupKey', `${c}-gk${g}`, {
      groupId: `${c}-g${g % GROUPS}`,
      userId: `${c}-u${(g * 13) % USERS}`,
      companyId: c,
      label: 'Night shift',
      fob: null,
      startDate: null,
      window: groupWindow
    })
  }
  yield up('scheduledOpen', `so_${c}`, { companyId: c, window: { kind: 'scheduledOpen', tz: 'Europe/Berlin', fpi: true, firstEntryAt: null, week, exceptions: [] } })
}

/** The snapshot of `sites` sites in pages of `size` changes. @param {number} sites @param {number} size */
export function* snapshotPages(sites, size = 500) {
  let page = []
  for (let s = 0; s < sites; s++) {
    for (const c of siteChanges(s)) {
      page.push(c)
      if (page.length === size) {
        yield page
        page = []
      }
    }
  }
  if (page.length > 0) yield page
}

/**
 * A request a decision answers, for a door of one of `sites` sites: by user id, fob or phone key,
 * most of them for a user with a key at that door. @param {number} sites @param {number} i
 */
export function request(sites, i) {
  const s = (i * 7919) % sites
  const c = `C${s}`
  const k = (i * 104729) % EKEYS
  const u = k % USERS
  const deviceId = `${c}-d${(k * 7) % DOORS}`
  const kind = i % 3
  /** @type {{type: 'user'|'phone'|'fob', id: string}} */
  const credential = kind === 0 ? { type: 'user', id: `${c}-u${u}` } : kind === 1 ? { type: 'phone', id: `${c}-p${u}` } : { type: 'fob', id: `F${u - (u % 3)}` }
  return { deviceId, credential }
}
