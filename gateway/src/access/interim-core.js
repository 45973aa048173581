/**
 * Interim stand-in for core-wasm, used only while core-wasm/pkg/node.js is not built yet.
 * Same API subset (isOpen, compile, decide) and the DESIGN §4.1 wall-clock rule, computed with Intl.
 * It validates nothing; the real core reports invalid windows.
 */
const formatters = new Map()

/** Local wall-clock parts of an instant in a zone. */
function local (at, tz) {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short' })
    formatters.set(tz, f)
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]))
  const date = `${p.year}-${p.month}-${p.day}`
  return { date, minutes: Number(p.hour) * 60 + Number(p.minute), weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(p.weekday) }
}

const toMinutes = (hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
const prevDate = (date) => new Date(Date.parse(date + 'T00:00:00Z') - 86400000).toISOString().slice(0, 10)
const toMs = (at) => typeof at === 'number' ? at : Date.parse(at)

function dayAllowed (w, date, weekday) {
  if (!w.days?.[weekday]) return false
  if (w.startDate && date < w.startDate) return false
  if (w.endDate && date > w.endDate) return false
  return true
}

function recurringOpen (w, at) {
  if (w.kind === 'ekey' && w.access === 'full') return true
  if (w.kind === 'ekey' && w.access === 'oneTime' && w.used) return false
  if (w.kind === 'alert' && w.schedule === 'any') return true
  const l = local(at, w.tz)
  if (w.allDay) return dayAllowed(w, l.date, l.weekday)
  const a = toMinutes(w.startTime)
  const b = toMinutes(w.endTime)
  if (a < b) return dayAllowed(w, l.date, l.weekday) && l.minutes >= a && l.minutes < b
  if (l.minutes >= a && dayAllowed(w, l.date, l.weekday)) return true
  return l.minutes < b && dayAllowed(w, prevDate(l.date), (l.weekday + 6) % 7)
}

function scheduledOpen (w, at) {
  const l = local(at, w.tz)
  const rule = w.exceptions?.find((e) => e.date === l.date) ?? w.week?.[l.weekday]
  if (!rule?.openWholeDay) return false
  const whole = !rule.openTime && !rule.closeTime
  const open = whole ? 0 : toMinutes(rule.openTime)
  if (!whole && (l.minutes < open || l.minutes >= toMinutes(rule.closeTime))) return false
  if (!w.fpi) return true
  if (w.firstEntryAt == null) return false
  const first = toMs(w.firstEntryAt)
  if (first > at) return false
  const lf = local(first, w.tz)
  return lf.date === l.date && lf.minutes >= open
}

/** @param {any} window @param {number|string} at */
export function isOpen (window, at) {
  const ms = toMs(at)
  return window.kind === 'scheduledOpen' ? scheduledOpen(window, ms) : recurringOpen(window, ms)
}

/** @param {any} window */
export function compile (window) {
  return { isOpen: (at) => isOpen(window, at) }
}

/**
 * @param {{id: string, window: any}[]} keys
 * @param {number|string} at
 */
export function decide (keys, at) {
  const key = keys.find((k) => isOpen(k.window, at))
  if (key) return { allowed: true, key, reason: 'Key is valid now' }
  return { allowed: false, key: null, reason: keys.length ? 'No key is valid at this time' : 'No key for this door' }
}
