/**
 * A simulated access board speaking PROTOCOL.md over a real MQTT connection. Used by the `board`
 * CLI, the tests and the benchmark.
 */
import { createHash, randomBytes } from 'node:crypto'
import { EventEmitter, once } from 'node:events'
import mqtt from 'mqtt'
import { decodeBlock } from '../src/firmware/delivery.js'
import { importKeySet, isOneTime, revokedBy, verifyCredential } from '../src/access/credential.js'
import { acceptLockdownState } from '../src/access/lockdown-state.js'

export class SimBoard extends EventEmitter {
  #pendingAccess = new Map()
  /** @type {Promise<never>} rejects when the current connection closes */
  #closed = notConnected()
  /** whether the current connection got through its connect handshake */
  #established = false
  #corr = 0
  #eventSeq = 0
  /** blocks received per index, to prove nothing finished was sent again */
  blockHits = new Map()
  installed = null
  /** @type {Map<string, any>} last retained/down message per topic name */
  last = new Map()
  /**
   * ids of the commands already carried out: QoS 1 may deliver a command again, and a repeated one is
   * acknowledged but not carried out twice (emitted as 'cmd-duplicate', not 'cmd').
   */
  commandIds = new Set()
  /** one-time credentials (`jti`) and keys (`key:<id>`) this board opened for while deciding alone */
  spent = new Set()
  /** the newest lockdown state of its company this board took from a phone (a lockdown record), for deciding alone */
  lockdown = null
  /** @type {{v: 1, cell: string, mqttUrl: string}|null} the last redirect to another cell, until it is followed */
  redirect = null
  /** @type {Promise<void>|null} while the board follows a redirect received when it was connected */
  moving = null
  /** redirects followed */
  moves = 0
  /** @type {NodeJS.Timeout|undefined} repeats the status while connected */
  statusTimer = undefined
  /** events `deliver` sent again because their connection closed before the PUBACK */
  resent = 0

  /**
   * @param {{url: string, id: string, password: string, fw?: string, deviceType?: string, clean?: boolean,
   *   subscribe?: string[], connectTimeoutMs?: number, ca?: string|Buffer, followRedirects?: boolean, retryMs?: number,
   *   clockOffsetMs?: number, tzdata?: string}} opts
   *   clockOffsetMs: how far the board's clock is from the host's (it takes the gateway's time when sent it);
   *   tzdata: the zone data version its status reports (absent: not reported)
   *   ca: trusted certificate for mqtts://; followRedirects: go to the cell a redirect names (PROTOCOL.md,
   *   "Cells and redirects"), retrying every `retryMs` while the new cell answers CONNACK 3
   */
  constructor({
    url,
    id,
    password,
    fw = '1.0.0',
    deviceType,
    clean = false,
    subscribe,
    connectTimeoutMs = 10_000,
    ca,
    followRedirects = true,
    retryMs = 1000,
    clockOffsetMs = 0,
    tzdata
  }) {
    super()
    this.url = url
    this.id = id
    this.password = password
    this.fw = fw
    this.deviceType = deviceType
    this.clean = clean
    this.connectTimeoutMs = connectTimeoutMs
    this.ca = ca
    this.followRedirects = followRedirects
    this.retryMs = retryMs
    this.clockOffsetMs = clockOffsetMs
    this.tzdata = tzdata
    this.subscriptions = subscribe ?? ['access/res', 'config', 'schedule', 'cmd', 'fw/offer', 'fw/block', 'error', 'time'].map((n) => `boards/${id}/${n}`)
    this.bootId = randomBytes(4).toString('hex')
  }

  /**
   * Connects; rejects on a refused CONNACK or a timeout. Told to go to another cell, it goes there
   * (with `followRedirects`).
   */
  async connect() {
    try {
      return await this.#connectOnce()
    } catch (e) {
      if (!this.followRedirects || !this.redirect) throw e
      await this.#follow()
      return this
    }
  }

  /**
   * Connects to the cell the last redirect named, trying again while it answers CONNACK 3 (its copy
   * may not have the board yet); a further redirect is followed too, up to 3 in a row.
   */
  async #follow() {
    for (let hops = 0, tries = 0; ;) {
      if (this.redirect) {
        if (++hops > 3) throw new Error('redirected more than 3 times in a row')
        this.url = this.redirect.mqttUrl
        this.redirect = null
        this.moves++
      }
      try {
        await this.#connectOnce()
        return
      } catch (e) {
        if (this.redirect) continue
        if (e.code !== 3 || ++tries > 50) throw e
        await new Promise((resolve) => setTimeout(resolve, this.retryMs))
      }
    }
  }

  async #connectOnce() {
    this.client?.removeAllListeners()
    this.client?.end(true)
    this.client = mqtt.connect(this.url, {
      clientId: this.id,
      username: this.id,
      password: this.password,
      clean: this.clean,
      reconnectPeriod: 0,
      connectTimeout: this.connectTimeoutMs,
      keepalive: 30,
      ...(this.ca ? { ca: this.ca } : {}),
      will: { topic: `boards/${this.id}/status`, payload: JSON.stringify({ v: 1, online: false }), qos: 1, retain: true }
    })
    const client = this.client
    client.on('message', (t, payload) => this.#onMessage(t, payload))
    client.on('error', (e) => this.emit('mqtt-error', e))
    // redirected while connected: the gateway closes the connection once the redirect is acknowledged
    this.#closed = new Promise((_resolve, reject) =>
      client.once('close', () => {
        reject(new Error('connection closed'))
        if (this.redirect && this.followRedirects && this.client === client && this.#established) {
          this.#established = false
          this.moving = this.#follow().finally(() => (this.moving = null))
          this.moving.catch((e) => this.emit('mqtt-error', e))
        }
      })
    )
    this.#closed.catch(() => {})
    this.#established = false
    await new Promise((resolve, reject) => {
      this.client.once('connect', (connack) => {
        this.sessionPresent = connack.sessionPresent
        resolve()
      })
      this.client.once('error', reject)
      this.client.once('close', () => reject(new Error('connection closed before CONNACK')))
    })
    // Status first, subscriptions after its PUBACK (PROTOCOL.md, "Connection"): by then the gateway
    // has matched its firmware offer to the version reported here.
    // Without reconnects mqtt.js keeps a QoS 1 publish pending forever once the connection is gone:
    // a gateway lost in the middle of the handshake must fail the connect, not hang it.
    const closed = new Promise((resolve, reject) => this.client.once('close', () => reject(new Error('connection closed during the connect handshake'))))
    closed.catch(() => {})
    await Promise.race([this.publishStatus(), closed])
    if (this.subscriptions.length) {
      const granted = await Promise.race([this.client.subscribeAsync(Object.fromEntries(this.subscriptions.map((topic) => [topic, { qos: 1 }]))), closed])
      this.granted = granted
    }
    this.#established = true
    return this
  }

  /**
   * Sends one event until a gateway has stored it (PUBACK), following a redirect on the way: an event
   * whose connection closed before its PUBACK is sent again, with the same id, to the board's new cell.
   */
  async deliver(type, data = {}, { id = `${this.bootId}.${++this.#eventSeq}`, at = Date.now() } = {}) {
    for (;;) {
      if (this.moving) await this.moving
      try {
        await Promise.race([this.publish('events', { v: 1, id, type, at, data }), this.#closed])
        return id
      } catch (e) {
        if (!this.moving && !this.redirect) throw e
        this.resent++
      }
    }
  }

  /** The board's own clock. */
  clock() {
    return Date.now() + this.clockOffsetMs
  }

  publishStatus() {
    const status = {
      v: 1,
      online: true,
      fw: this.fw,
      clock: this.clock(),
      ...(this.tzdata ? { tzdata: this.tzdata } : {}),
      ...(this.deviceType ? { deviceType: this.deviceType } : {})
    }
    return this.publish('status', status, { qos: 1, retain: true })
  }

  /** Sends the status again every `statusMs` of the configuration (PROTOCOL.md, "status"). */
  #statusEvery(ms) {
    clearInterval(this.statusTimer)
    if (!Number.isSafeInteger(ms) || ms <= 0) return
    this.statusTimer = setInterval(() => this.client?.connected && this.publishStatus().catch(() => {}), ms)
    this.statusTimer.unref()
  }

  #onMessage(t, payload) {
    const name = t.slice(`boards/${this.id}/`.length)
    if (name === 'fw/block') return this.emit('block', payload)
    if (name === 'redirect') {
      try {
        this.redirect = JSON.parse(payload.toString())
      } catch {
        return
      }
      return this.emit('redirect', this.redirect)
    }
    let msg = null
    if (payload.length)
      try {
        msg = JSON.parse(payload)
      } catch {
        msg = { unparsable: payload.toString() }
      }
    if (name === 'cmd' && typeof msg?.id === 'string') {
      if (this.commandIds.has(msg.id)) return this.emit('cmd-duplicate', msg)
      this.commandIds.add(msg.id)
    }
    this.last.set(name, msg)
    if (name === 'config') this.#statusEvery(msg?.statusMs)
    // The gateway's time: the board sets its clock to it.
    if (name === 'time' && Number.isSafeInteger(msg?.at)) this.clockOffsetMs = msg.at - Date.now()
    if (name === 'access/res' && this.#pendingAccess.has(msg.corr)) {
      this.#pendingAccess.get(msg.corr)(msg)
      this.#pendingAccess.delete(msg.corr)
    }
    this.emit(name, msg)
    this.emit('message', name, msg)
  }

  /**
   * Publishes a JSON (or raw) payload to one of this board's up topics; resolves on PUBACK for QoS 1.
   * @param {string} name @param {any} msg
   * @param {{qos?: 0|1|2, retain?: boolean, topicOverride?: string}} [opts] topicOverride: any topic (ACL tests)
   */
  publish(name, msg, { qos = 1, retain = false, topicOverride } = {}) {
    const payload = Buffer.isBuffer(msg) || typeof msg === 'string' ? msg : JSON.stringify(msg)
    return this.client.publishAsync(topicOverride ?? `boards/${this.id}/${name}`, payload, { qos, retain })
  }

  /**
   * Asks whether a credential may open now.
   * @param {{type: 'user'|'fob'|'phone'|'signed', id: string}} credential
   * @param {{corr?: string, timeoutMs?: number, qos?: 0|1|2}} [opts]
   * @returns {Promise<{allowed: boolean, key: any, reason: string, corr: string, code?: string|null, nextOpen?: string|null}>}
   */
  requestAccess(credential, { corr = `${this.bootId}-${++this.#corr}`, timeoutMs = 5000, qos = 1 } = {}) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pendingAccess.delete(corr)
        reject(new Error(`access request ${corr} timed out`))
      }, timeoutMs)
      this.#pendingAccess.set(corr, (msg) => {
        clearTimeout(timer)
        resolve(msg)
      })
      this.publish('access/req', { v: 1, corr, credential, at: Date.now() }, { qos }).catch(reject)
    })
  }

  /**
   * Decides a presented credential alone, as a board cut off from its gateway: with the keys, company,
   * biometric requirement and revocation list of the last configuration it received (PROTOCOL.md, "Verification order").
   * @param {string} token @param {number} [at] the board's clock
   * @returns {Promise<import('../src/access/credential.js').CredentialDecision>}
   */
  async decideOffline(token, at = Date.now()) {
    const config = this.last.get('config')
    const d = await verifyCredential(token, {
      keys: await importKeySet(config?.credentialKeys),
      door: { id: this.id, companyId: config?.companyId, groupIds: config?.groupIds, biometricRequired: config?.biometricRequired === true },
      at,
      revoked: revokedBy(config?.revoked),
      lockdown: this.lockdown,
      spent: (c) => this.spent.has(c.jti) || this.spent.has(`key:${c.key.id}`)
    })
    if (d.allowed && d.claims && isOneTime(d.claims)) this.spent.add(d.claims.jti).add(`key:${d.claims.key.id}`)
    return d
  }

  /**
   * Takes a signed lockdown state a phone presents (PROTOCOL.md, "Signed lockdown state") when it is its
   * company's and newer than the one it knows, with the keys of its last configuration.
   * @param {string} token @returns {Promise<string>} `taken`, or why not
   */
  async presentLockdownState(token) {
    const config = this.last.get('config')
    const r = await acceptLockdownState(token, { keys: await importKeySet(config?.credentialKeys), companyId: config?.companyId, known: this.lockdown })
    if (r.state) this.lockdown = r.state
    return r.reason ?? 'taken'
  }

  /**
   * Reports an offline decision once connected, as PROTOCOL.md asks (`access.granted` / `access.denied`);
   * a token whose claims could not be read names nobody and is not reported.
   * @returns {Promise<string|null>} the event id
   */
  async reportOffline(d, at = Date.now()) {
    const c = d.claims
    if (!c) return null
    const data = { credential: { type: 'signed', id: c.jti }, userId: c.sub, keyId: c.key.id, keyKind: c.key.kind, code: d.reason }
    return this.sendEvent(d.allowed ? 'access.granted' : 'access.denied', data, { at })
  }

  /** Sends one event; resolves when the gateway has stored it (PUBACK). */
  sendEvent(type, data = {}, { id = `${this.bootId}.${++this.#eventSeq}`, at = Date.now() } = {}) {
    return this.publish('events', { v: 1, id, type, at, data }).then(() => id)
  }

  /** Waits for the next message on a down topic (or returns the retained one already seen). */
  async next(name, { timeoutMs = 5000, fresh = false } = {}) {
    if (!fresh && this.last.has(name)) return this.last.get(name)
    const [msg] = await once(this, name, { signal: AbortSignal.timeout(timeoutMs) })
    return msg
  }

  /**
   * Downloads the offered firmware with bitmap block requests.
   * @param {{offer: any, parts?: Buffer[], missing?: Uint8Array, max?: number, stopAfterBlocks?: number,
   *   corruptBlock?: number, idleMs?: number}} opts
   *   parts/missing: what an earlier, interrupted call returned, to resume;
   *   stopAfterBlocks: disconnect abruptly after receiving this many blocks (an interruption);
   *   corruptBlock: flip a byte of this block when it arrives.
   * @returns {Promise<{done: boolean, ok?: boolean, error?: string, parts: Buffer[], missing: Uint8Array}>}
   */
  async download({ offer, parts = [], missing, max = 32, stopAfterBlocks = Infinity, corruptBlock = -1, idleMs = 2000 }) {
    missing ??= fullBitmap(offer.blocks)
    let got = 0
    let outstanding = 0
    let lastRequestAt = 0
    const request = () => {
      outstanding = Math.min(max, countBits(missing))
      lastRequestAt = Date.now()
      return this.publish('fw/req', { v: 1, releaseId: offer.releaseId, missing: Buffer.from(missing).toString('base64'), max })
    }
    const finished = new Promise((resolve, reject) => {
      const onBlock = (frame) => {
        const b = decodeBlock(frame)
        if (!b || b.releaseId !== offer.releaseId) return
        this.blockHits.set(b.index, (this.blockHits.get(b.index) ?? 0) + 1)
        if (!(missing[b.index >> 3] & (1 << (b.index & 7)))) return
        let bytes = Buffer.from(b.bytes)
        if (b.index === corruptBlock) bytes[0] ^= 0xff
        parts[b.index] = bytes
        missing[b.index >> 3] &= ~(1 << (b.index & 7))
        got++
        outstanding--
        if (got >= stopAfterBlocks) {
          cleanup()
          this.client.stream.destroy() // abrupt: like power loss or a dropped radio link
          return resolve({ done: false })
        }
        if (countBits(missing) === 0) {
          cleanup()
          return resolve({ done: true })
        }
        if (outstanding <= 0) request().catch(reject)
      }
      const idle = setInterval(() => {
        if (Date.now() - lastRequestAt > idleMs) request().catch(() => {})
      }, idleMs / 2)
      idle.unref() // a download cut short by close() must not keep the process alive
      const cleanup = () => {
        this.off('block', onBlock)
        clearInterval(idle)
      }
      this.on('block', onBlock)
      request().catch((e) => {
        cleanup()
        reject(e)
      })
    })
    const r = await finished
    if (!r.done) return { done: false, parts, missing }
    const image = Buffer.concat(parts)
    const sha = createHash('sha256').update(image).digest('hex')
    const ok = sha === offer.sha256
    const error = ok ? undefined : 'sha256_mismatch'
    if (ok) this.installed = offer.version
    await this.publish('fw/progress', { v: 1, releaseId: offer.releaseId, received: offer.blocks, blocks: offer.blocks }, { qos: 0 })
    await this.publish('fw/result', { v: 1, id: `fwr.${offer.releaseId}.${this.bootId}`, releaseId: offer.releaseId, ok, ...(error ? { error } : {}) })
    if (ok) {
      // A real board restarts into the new image here; it then reports the version it runs.
      this.fw = offer.version
      await this.publishStatus()
    }
    return { done: true, ok, error, parts, missing }
  }

  async close() {
    clearInterval(this.statusTimer)
    if (!this.client) return
    await this.client.endAsync(false).catch(() => {})
  }

  /** Drops the connection without DISCONNECT, so the will fires and the session is kept. */
  kill() {
    clearInterval(this.statusTimer)
    this.client?.stream?.destroy()
    this.client?.end(true)
  }
}

function notConnected() {
  const p = Promise.reject(new Error('not connected'))
  p.catch(() => {})
  return p
}

export function fullBitmap(blocks) {
  const m = new Uint8Array(Math.ceil(blocks / 8))
  for (let i = 0; i < blocks; i++) m[i >> 3] |= 1 << (i & 7)
  return m
}

function countBits(m) {
  let n = 0
  for (const byte of m) for (let b = byte; b; b &= b - 1) n++
  return n
}
