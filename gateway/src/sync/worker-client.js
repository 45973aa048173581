/**
 * HTTP client for the Worker's gateway API (docs/gateway-api.md). Every call carries the gateway
 * secret; every call has a timeout so a hung Worker looks like a down one.
 */
export class WorkerError extends Error {
  constructor(message, status) {
    super(message)
    this.status = status
  }
}

export class WorkerClient {
  /** @param {{url: string, secret: string, gatewayId: string, timeoutMs?: number}} opts */
  constructor({ url, secret, gatewayId, timeoutMs = 15_000 }) {
    this.base = url.replace(/\/+$/, '')
    this.headers = { authorization: `Bearer ${secret}`, 'x-gateway-id': gatewayId }
    this.timeoutMs = timeoutMs
  }

  async #call(path, init = {}) {
    const res = await fetch(this.base + path, {
      ...init,
      headers: { ...this.headers, ...init.headers },
      signal: AbortSignal.timeout(this.timeoutMs)
    })
    if (!res.ok) {
      const body = await res.text().catch(() => '')
      throw new WorkerError(`${init.method ?? 'GET'} ${path}: ${res.status} ${body.slice(0, 200)}`, res.status)
    }
    return res
  }

  /**
   * @param {string|null} cursor
   * @param {number} limit
   * @returns {Promise<import('../protocol/wire.js').FeedPage>}
   */
  async changes(cursor, limit) {
    const q = new URLSearchParams({ limit: String(limit) })
    if (cursor != null) q.set('cursor', cursor)
    return /** @type {Promise<import('../protocol/wire.js').FeedPage>} */ ((await this.#call(`/api/gateway/changes?${q}`)).json())
  }

  /**
   * @param {string} gatewayId
   * @param {string[]} events  each event already serialized as JSON
   * @returns {Promise<import('../protocol/wire.js').EventBatchResult>}
   */
  async postEvents(gatewayId, events) {
    const res = await this.#call('/api/gateway/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"v":1,"gatewayId":${JSON.stringify(gatewayId)},"events":[${events.join(',')}]}`
    })
    return /** @type {Promise<import('../protocol/wire.js').EventBatchResult>} */ (res.json())
  }

  /**
   * Claims the open console commands of the boards connected to this gateway (each is handed out once).
   * @param {string[]} boards
   * @returns {Promise<import('../protocol/wire.js').CommandClaimResult>}
   */
  async claimCommands(boards) {
    const res = await this.#call('/api/gateway/commands/claim', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ v: 1, boards })
    })
    const body = /** @type {any} */ (await res.json())
    if (!body || !Array.isArray(body.commands)) throw new WorkerError('commands/claim: no commands list', 502)
    return body
  }

  /** The credential keys of this gateway's cell (a JWKS: its cell's keys and the untagged ones). @returns {Promise<{keys: any[]}>} */
  async credentialKeys() {
    const jwks = /** @type {any} */ (await (await this.#call('/api/gateway/credential-keys')).json())
    if (!jwks || !Array.isArray(jwks.keys)) throw new WorkerError('credential keys: not a JWKS', 502)
    return jwks
  }

  /**
   * Which cell serves a device (docs/gateway-api.md), null when the console has no such device.
   * @param {string} deviceId @returns {Promise<{cell: string, mqttUrl: string}|null>}
   */
  async deviceCell(deviceId) {
    let body
    try {
      body = /** @type {any} */ (await (await this.#call(`/api/gateway/devices/${encodeURIComponent(deviceId)}/cell`)).json())
    } catch (e) {
      if (e.status === 404) return null
      throw e
    }
    if (typeof body?.cell !== 'string' || typeof body?.mqttUrl !== 'string') throw new WorkerError('device cell: no cell or mqttUrl', 502)
    return { cell: body.cell, mqttUrl: body.mqttUrl }
  }

  /** @param {string} releaseId @returns {Promise<Buffer>} */
  async firmware(releaseId) {
    const res = await this.#call(`/api/gateway/firmware/${encodeURIComponent(releaseId)}`)
    return Buffer.from(await res.arrayBuffer())
  }
}
