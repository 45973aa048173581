/**
 * The console's credential keys for this gateway's cell (a JWKS, `GET /api/gateway/credential-keys`),
 * kept on disk so a gateway that restarts while the console is unreachable still verifies credentials,
 * and handed to boards in their configuration (`credentialKeys`) so they verify with no network.
 * Refreshed every `intervalMs`, and at once (at most every `minGapMs`) when a credential names a key
 * id this gateway does not know yet: a rotation reaches it within seconds of the first such credential.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { replaceFile } from '../store/append-log.js'
import { importKeySet } from './credential.js'

export class CredentialKeys {
  /** @type {Map<string, import('./credential.js').VerifyKey>} */ keys = new Map()
  /** @type {{keys: any[]}} */ jwks = { keys: [] }
  #raw = ''
  #timer = null
  #lastFetch = 0
  /** @type {Set<() => void>} */ #listeners = new Set()

  /**
   * @param {{dir: string, worker: import('../sync/worker-client.js').WorkerClient, log: import('../log.js').Logger,
   *   intervalMs?: number, minGapMs?: number}} opts
   */
  constructor({ dir, worker, log, intervalMs = 60_000, minGapMs = 10_000 }) {
    this.path = join(dir, 'credential-keys.json')
    this.worker = worker
    this.log = log
    this.intervalMs = intervalMs
    this.minGapMs = minGapMs
  }

  async open() {
    try {
      await this.#use(await readFile(this.path, 'utf8'))
    } catch (e) {
      if (e.code !== 'ENOENT') this.log.warn('stored credential keys unreadable', { error: e.message })
    }
    return this
  }

  /** @param {() => void} fn called when the key set changed */
  onChange(fn) {
    this.#listeners.add(fn)
  }

  start() {
    const tick = () => this.refresh().catch((e) => this.log.warn('credential keys unavailable', { error: e.message }))
    tick()
    this.#timer = setInterval(tick, this.intervalMs)
    this.#timer.unref?.()
    return this
  }

  stop() {
    clearInterval(this.#timer)
  }

  /** Fetches the published keys; stores and applies them when they changed. */
  async refresh() {
    this.#lastFetch = Date.now()
    const raw = JSON.stringify(await this.worker.credentialKeys())
    if (raw === this.#raw) return
    await this.#use(raw)
    await replaceFile(this.path, raw)
    this.log.info('credential keys updated', { kids: [...this.keys.keys()] })
    for (const fn of this.#listeners) fn()
  }

  /** A credential named an unknown key id: fetch again unless that was just done. */
  refreshSoon() {
    if (Date.now() - this.#lastFetch < this.minGapMs) return
    this.refresh().catch((e) => this.log.warn('credential keys unavailable', { error: e.message }))
  }

  async #use(raw) {
    const jwks = JSON.parse(raw)
    this.keys = await importKeySet(jwks)
    this.jwks = { keys: (jwks.keys ?? []).filter((k) => this.keys.has(k.kid)) }
    this.#raw = raw
  }
}
