/**
 * Everything a board publishes lands here (called from authorizePublish, i.e. before aedes sends the
 * PUBACK). The returned promise settles when the message is safely handled: for events that means
 * written to the durable queue, so the PUBACK is the board's proof of storage. Bad payloads are
 * answered on the board's error topic and change nothing; only a storage failure rejects, which
 * closes the connection without PUBACK so the board resends.
 */
import * as validate from './protocol/validate.js'
import { ProtocolError } from './protocol/validate.js'
import { topic } from './protocol/topics.js'
import { decideAccess, decideSigned } from './access/decide.js'
import { checkSignature } from './access/credential.js'
import { gatewayEventId } from './events/ids.js'
import mqttPacket from 'mqtt-packet'

const { writeToStream } = mqttPacket

const RECENT_DECISIONS = 20_000

/**
 * QoS 0 straight onto the board's own connection: answers need no routing (nor, in a cluster, a trip
 * through Redis), and a lost answer is retried by the board. Written at once rather than through
 * aedes' per-packet setImmediate, which saves a turn of the event loop per answer and lets a run of
 * firmware blocks leave in one socket write.
 */
function sendDirect(client, t, payload) {
  if (!client.connected || client.closed || client.conn.destroyed) return
  writeToStream({ cmd: 'publish', topic: t, payload, qos: 0, retain: false, dup: false }, client.conn)
}

export class Inbound {
  /** answers by board + corr, so a retried request gets the same answer and one activity row */
  #recent = new Map()
  /**
   * The same keys in a ring, oldest next to go: evicting through `#recent.keys()` would walk past
   * every deleted slot V8 keeps at the front of the Map, which cost more than the decision itself.
   */
  #ring = new Array(RECENT_DECISIONS)
  #ringAt = 0

  /**
   * @param {object} deps
   * @param {import('./store/replica.js').Replica} deps.replica the console records decisions read
   * @param {import('./events/recorder.js').EventRecorder} deps.events
   * @param {import('./firmware/delivery.js').FirmwareDelivery} deps.firmware
   * @param {Pick<import('./events/board-clocks.js').BoardClocks, 'note'>} deps.clocks reads a status's clock and zone data
   * @param {Pick<import('./access/credential-keys.js').CredentialKeys, 'keys'|'refreshSoon'>} deps.credentialKeys
   * @param {(boardId: string, key: object|null, now: number) => Promise<unknown>} deps.onGranted
   *   spends a one-time key and notes a first person in; synchronous up to its promise
   * @param {(ms: number) => void} deps.decided how long a decision took (src/stats.js)
   * @param {() => number} deps.now the decision clock
   * @param {import('./log.js').Logger} deps.log
   */
  constructor({ replica, events, firmware, clocks, credentialKeys, onGranted, decided, now, log }) {
    this.replica = replica
    this.events = events
    this.firmware = firmware
    this.clocks = clocks
    this.credentialKeys = credentialKeys
    this.onGranted = onGranted
    this.decided = decided
    this.now = now
    this.log = log
  }

  /**
   * @param {import('aedes').Client} client
   * @param {string} boardId
   * @param {string} name topic below boards/{id}/
   * @param {{topic: string, payload: Buffer}} packet
   */
  async handle(client, boardId, name, packet) {
    try {
      const msg = validate.parseJson(packet.payload)
      if (!this.replica.get('device', boardId)) throw new ProtocolError('unknown_board', "this board is not in the gateway's copy of the console records")
      switch (name) {
        case 'access/req':
          return await this.#access(client, boardId, validate.accessRequest(msg))
        case 'events':
          return await this.events.record(boardId, validate.event(msg))
        case 'status': {
          const status = validate.status(msg)
          const setTime = this.clocks.note(boardId, status)
          if (setTime !== null) sendDirect(client, topic(boardId, 'time'), Buffer.from(JSON.stringify({ v: 1, at: setTime })))
          return await this.firmware.noteStatus(boardId, status, client)
        }
        case 'fw/req':
          return this.#blocks(client, boardId, validate.blockRequest(msg))
        case 'fw/progress':
          return this.#progress(boardId, validate.progress(msg))
        case 'fw/result':
          return await this.#result(boardId, validate.result(msg))
        default:
          throw new ProtocolError('unknown_topic', `boards/{id}/${name} is not a topic a board publishes to`)
      }
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e
      this.log.warn('bad message from board', { boardId, topic: packet.topic, code: e.code, error: e.message })
      this.sendError(client, boardId, { code: e.code, message: e.message, topic: packet.topic, corr: e.corr })
    }
  }

  sendError(client, boardId, err) {
    const msg = { v: 1, ...err }
    if (msg.corr === undefined) delete msg.corr
    sendDirect(client, topic(boardId, 'error'), Buffer.from(JSON.stringify(msg)))
  }

  /**
   * The answer goes out at once; the request's PUBACK waits until the decision's activity event is
   * stored. If storing fails the connection closes without PUBACK, the board resends the same `corr`,
   * gets the same answer again and the store is retried, so the decision is recorded exactly once.
   * The record is serialized before the answer is sent: no decision leaves without a record that can
   * be stored. It holds only the request's known fields (validate.accessRequest).
   */
  async #access(client, boardId, req) {
    const t0 = performance.now()
    const key = boardId + '\0' + req.corr
    const res = topic(boardId, 'access/res')
    const earlier = this.#recent.get(key)
    if (earlier) {
      sendDirect(client, res, earlier.payload)
      return this.#persist(boardId, earlier)
    }
    // A signed credential's signature is the one asynchronous check: it runs first, and everything
    // after it (the decision, spending a one-time key) happens with nothing in between.
    const signed = req.credential.type === 'signed' ? await this.#signature(req.credential.id) : null
    const again = this.#recent.get(key)
    if (again) {
      sendDirect(client, res, again.payload)
      return this.#persist(boardId, again)
    }
    const now = this.now()
    let d
    try {
      if (!signed) d = decideAccess(this.replica, boardId, /** @type {any} */ (req.credential), now)
      else if (signed.claims) d = decideSigned(this.replica, boardId, signed.claims, now)
      else d = { allowed: false, key: null, code: signed.reason, reason: 'Credential refused', nextOpen: null, userId: null }
    } catch (e) {
      this.log.error('access decision failed', { boardId, error: e.message })
      d = { allowed: false, key: null, code: 'invalid_key', reason: 'Key data is invalid', nextOpen: null, userId: null }
    }
    const nextOpen = d.allowed ? undefined : d.nextOpen == null ? null : new Date(d.nextOpen).toISOString()
    // the key that opened, or the visitor pass a decision is about (visitor-pass.js), denied too
    const named = d.key ?? d.pass ?? null
    const record = this.events.prepare(boardId, {
      id: gatewayEventId(`acc.${req.corr}`),
      type: d.allowed ? 'access.granted' : 'access.denied',
      at: req.at ?? now,
      data: {
        // A signed credential is recorded by its id (jti), not whole.
        credential: signed ? { type: 'signed', id: signed.claims?.jti ?? 'unverified' } : req.credential,
        userId: d.userId,
        keyId: named?.id ?? null,
        keyKind: named?.kind ?? null,
        ...(d.allowed ? {} : { code: d.code, nextOpen }),
        reason: d.reason,
        corr: req.corr
      }
    })
    const answer = d.allowed
      ? { v: 1, corr: req.corr, allowed: true, key: d.key, reason: d.reason, at: now }
      : { v: 1, corr: req.corr, allowed: false, key: null, code: d.code, reason: d.reason, nextOpen, at: now }
    const entry = {
      // Kept serialized: a retry gets the same bytes, and one buffer per entry is light on the GC.
      payload: Buffer.from(JSON.stringify(answer)),
      granted: d.allowed ? this.onGranted(boardId, d.key, now) : null,
      record,
      storing: null
    }
    this.#remember(key, entry)
    sendDirect(client, res, entry.payload)
    this.decided(performance.now() - t0)
    await this.#persist(boardId, entry)
  }

  /** @param {string} token */
  async #signature(token) {
    const r = await checkSignature(token, this.credentialKeys.keys)
    if (r.reason === 'unknown_kid') this.credentialKeys.refreshSoon()
    return r
  }

  /** Stores a remembered decision's event unless that is done; concurrent attempts share one store. */
  async #persist(boardId, entry) {
    if (!entry.record) return
    entry.storing ??= (async () => {
      const granted = entry.granted
      entry.granted = null // a failed spend is not awaited again on the retry
      await granted
      await this.events.store(entry.record)
      entry.record = null
    })().finally(() => {
      entry.storing = null
    })
    await entry.storing
  }

  #remember(key, entry) {
    const evicted = this.#ring[this.#ringAt]
    if (evicted !== undefined) this.#recent.delete(evicted)
    this.#ring[this.#ringAt] = key
    this.#ringAt = (this.#ringAt + 1) % RECENT_DECISIONS
    this.#recent.set(key, entry)
  }

  #blocks(client, boardId, req) {
    const frames = this.firmware.blocksFor(boardId, req)
    if (!Array.isArray(frames)) throw new ProtocolError(frames.error, frames.message)
    const t = topic(boardId, 'fw/block')
    for (const payload of frames) sendDirect(client, t, payload)
  }

  #progress(boardId, msg) {
    const release = this.firmware.releaseFor(boardId)
    if (!release || release.id !== msg.releaseId) throw new ProtocolError('unknown_release', `release ${msg.releaseId} is not offered to this board`)
    this.firmware.noteProgress(boardId, release, msg.received, msg.blocks)
  }

  async #result(boardId, msg) {
    await this.events.record(boardId, {
      id: msg.id,
      type: 'firmware.result',
      at: Date.now(),
      data: { releaseId: msg.releaseId, ok: msg.ok, ...(msg.error ? { error: msg.error } : {}) }
    })
  }
}
