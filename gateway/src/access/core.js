/**
 * The one place the gateway touches the access-window core (core-wasm, the same module the Worker and
 * the phones run). Everything else imports from here, so the core's API can move without the rest of
 * the gateway noticing.
 */
import core from '../../../core-wasm/pkg/node.js'

/**
 * Compiled windows, per window object: the replica replaces a record's object when it changes, so
 * identity is a safe cache key. Compiled evaluation costs well under a microsecond; a full `decide`
 * costs about a hundred (it also works out the reason and the next opening).
 * @type {WeakMap<object, import('../../../core-wasm/pkg/index.js').CompiledWindow|null>}
 */
const compiled = new WeakMap()

function compiledOf(window) {
  if (!compiled.has(window)) {
    let c = null
    try {
      c = core.compile(window)
    } catch {
      /* invalid: never opens; decide() explains why */
    }
    compiled.set(window, c)
  }
  return compiled.get(window)
}

/**
 * The core's answer for an open window, per window object and language, reused while it cannot change:
 * the window stays open until the core's `until`, and its reason names only the schedule and that
 * closing time, which is written as weekday + time while it is under a week away (STABLE_TEXT_MS keeps
 * a day's margin for zone offset changes). A full `decide` costs ~25 µs and was the largest single
 * cost of a decision; every request is still checked with the compiled window first.
 * @type {WeakMap<object, Partial<Record<'en'|'es', {from: number, until: number|null, reason: string}>>>}
 */
const openAnswers = new WeakMap()
const STABLE_TEXT_MS = 5 * 86_400_000

/**
 * @param {any} window @param {number} at
 * @throws {Error} with the core's error code when the window is invalid
 */
export function isOpen(window, at) {
  const c = compiledOf(window)
  return c ? c.isOpen(at) : core.isOpen(window, at)
}

/**
 * When `isOpen` next flips (epoch ms), or null; null too for an invalid window.
 * @param {any} window @param {number} at
 */
export function nextChange(window, at) {
  return compiledOf(window)?.nextChange(at).nextChange ?? null
}

/**
 * The stable code of a denial by the core (PROTOCOL.md, "Denial codes"), from the key the core's
 * reason is about: the one that opens soonest, or the first one when none opens again.
 * @param {{window: any}|null} about @param {number} at @param {number|null} nextOpen
 */
function denialCode(about, at, nextOpen) {
  if (!about) return 'no_key'
  const w = about.window
  if (!compiledOf(w)) return 'invalid_key'
  if (w.kind === 'ekey' && w.access === 'oneTime' && w.used) return 'key_used'
  // a full-access key has no dates to be before or after (only a holiday closes it): its copy still carries them
  if (w.kind === 'ekey' && w.access === 'full') return 'outside_schedule'
  const today = w.startDate || w.endDate ? core.formatLocal(at, w.tz).slice(0, 10) : ''
  if (w.startDate && today < w.startDate) return 'not_yet_valid'
  if (nextOpen == null && w.endDate && today > w.endDate) return 'expired'
  return 'outside_schedule'
}

/**
 * The core's decision over a user's keys for one door, in the order given.
 * @param {{id: string, kind: import('../protocol/wire.js').KeyKind, label?: string, window: any}[]} keys
 * @param {number} at
 * @param {{lang?: string}} [opts]
 * @returns {{allowed: boolean, key: {id: string, kind: string}|null, reason: string, code: string|null, nextOpen: number|null}}
 *   code and nextOpen (epoch ms, null when nothing opens within five years) only say something when denied
 */
export function decide(keys, at, opts = {}) {
  const lang = opts.lang === 'es' ? 'es' : 'en'
  // The first open key is the one the core would pick; asking the core about that key alone gives
  // the same decision and reason without evaluating the closed ones' next openings.
  const opener = keys.find((k) => compiledOf(k.window)?.isOpen(at))
  const known = opener && openAnswers.get(opener.window)?.[lang]
  if (known && at >= known.from && (known.until === null || at < known.until)) {
    return { allowed: true, key: { id: opener.id, kind: opener.kind }, reason: known.reason, code: null, nextOpen: null }
  }
  const asked = opener ? [opener] : keys
  // Positions, not ids: e-key and group-key ids live in separate tables and may collide.
  const d = core.decide(
    asked.map((k, i) => ({ id: i, label: k.label ?? k.id, window: k.window })),
    at,
    { lang }
  )
  const key = d.allowed && d.key ? asked[d.key.id] : null
  const reason = String(d.reason ?? '')
  if (opener && d.allowed && (d.until == null || d.until - at < STABLE_TEXT_MS)) {
    openAnswers.set(opener.window, { ...openAnswers.get(opener.window), [lang]: { from: at, until: d.until ?? null, reason } })
  }
  if (d.allowed) return { allowed: true, key: key ? { id: key.id, kind: key.kind } : null, reason, code: null, nextOpen: null }
  const nextOpen = d.nextOpen ?? null
  return { allowed: false, key: null, reason, code: denialCode(d.key ? asked[d.key.id] : null, at, nextOpen), nextOpen }
}
