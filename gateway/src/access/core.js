/**
 * The one place the gateway touches the access-window core (core-wasm, the same module the Worker and
 * the phones run). Everything else imports from here, so the core's API can move without the rest of
 * the gateway noticing.
 */
import core from '../../../core-wasm/pkg/node.js'

/** @param {any} window @param {number} at */
export const isOpen = (window, at) => core.isOpen(window, at)

/**
 * @param {{id: string, kind: 'ekey'|'group', label?: string, window: any}[]} keys
 * @param {number} at
 * @param {{lang?: string}} [opts]
 * @returns {{allowed: boolean, key: {id: string, kind: string}|null, reason: string}}
 */
export function decide (keys, at, opts = {}) {
  // The core identifies keys by whatever id it is given; positions keep e-key and group-key ids,
  // which live in separate tables, from colliding.
  const d = core.decide(keys.map((k, i) => ({ id: i, label: k.label ?? k.id, window: k.window })), at, { lang: opts.lang === 'es' ? 'es' : 'en' })
  const key = d.key ? keys[d.key.id] : null
  return { allowed: Boolean(d.allowed), key: key ? { id: key.id, kind: key.kind } : null, reason: String(d.reason ?? '') }
}

export const tzdataVersion = () => core.tzdataVersion()
