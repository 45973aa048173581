/**
 * The one place the gateway touches the access-window core. Everything else imports from here, so
 * the core's API can move without the gateway noticing.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const realCore = new URL('../../../core-wasm/pkg/node.js', import.meta.url)
const mod = existsSync(fileURLToPath(realCore)) ? await import(realCore.href) : await import('./interim-core.js')
const core = mod.default ?? mod

export const coreName = existsSync(fileURLToPath(realCore)) ? 'core-wasm' : 'interim'

/** @param {any} window @param {number} at */
export const isOpen = (window, at) => core.isOpen(window, at)

/**
 * @param {{id: string, kind: 'ekey'|'group', window: any}[]} keys
 * @param {number} at
 * @param {{lang?: string}} [opts]
 * @returns {{allowed: boolean, key: {id: string, kind: string}|null, reason: string}}
 */
export function decide (keys, at, opts = {}) {
  const d = core.decide(keys, at, { lang: opts.lang ?? 'en' })
  return { allowed: Boolean(d.allowed), key: d.key ? { id: d.key.id, kind: d.key.kind } : null, reason: String(d.reason ?? '') }
}
