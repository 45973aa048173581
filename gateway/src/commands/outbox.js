/**
 * The durable outbox for board commands (`boards/{id}/cmd`, QoS 1) in single-instance mode, where
 * aedes keeps sessions in memory and a restart would forget every command queued for an offline board.
 *
 * commands.log holds `add` lines (synced before the publisher's PUBACK) and `done` lines (the board's
 * PUBACK). A command leaves when its board acknowledges it or when it expires; an expired command is
 * never delivered, also not from aedes's own session queue (see `withheld`).
 *
 * Who delivers: aedes, while its session for the board holds a QoS 1 subscription to the cmd topic (it
 * queues for the offline board itself). The outbox delivers only what that session cannot have — the
 * commands accepted before the session subscribed, which after a gateway restart means all of them —
 * when the board subscribes to its cmd topic. Both may deliver a command accepted at the very moment the
 * board subscribes; boards de-duplicate by command id, as they must for any QoS 1 message.
 */
import { join } from 'node:path'
import { AppendLog } from '../store/append-log.js'
import { parseJson } from '../protocol/validate.js'
import { parseTopic, topic } from '../protocol/topics.js'

/** A command without `expiresAt` is kept this long: a stale "unlock" must not open a door later. */
export const COMMAND_TTL_MS = 5 * 60_000
/** `expiresAt` may keep a command at most this long after the gateway accepted it. */
export const COMMAND_MAX_AGE_MS = 24 * 60 * 60_000
/** Outstanding commands per board; one more is refused (not acknowledged to its publisher). */
export const COMMANDS_PER_BOARD = 100
/** How often expired commands are dropped from memory and the file. */
export const SWEEP_MS = 30_000
/** The log is rewritten to the outstanding commands once it grows past this. */
const COMPACT_BYTES = 1024 * 1024

const COMMAND_ID = /^[A-Za-z0-9._:-]{1,64}$/

/**
 * @typedef {{boardId: string, id: string, cmd?: string, at: number, expiresAt: number, payload: string,
 *   stored: Promise<void>}} Command  payload: the bytes published, delivered unchanged
 */

/** @param {Buffer|string} payload @returns {{id: string, cmd?: string, expiresAt?: number}} */
export function parseCommand(payload) {
  const msg = parseJson(Buffer.from(payload))
  if (typeof msg.id !== 'string' || !COMMAND_ID.test(msg.id)) throw new Error('command id must match [A-Za-z0-9._:-]{1,64}')
  if (msg.expiresAt !== undefined && !Number.isSafeInteger(msg.expiresAt)) throw new Error('expiresAt must be epoch milliseconds')
  return { id: msg.id, cmd: typeof msg.cmd === 'string' ? msg.cmd : undefined, expiresAt: msg.expiresAt }
}

/** MQTT 3.1.1 topic filter matching. */
function matches(filter, name) {
  const f = filter.split('/')
  const t = name.split('/')
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false
  }
  return f.length === t.length
}

const addLine = (c) => JSON.stringify({ op: 'add', boardId: c.boardId, id: c.id, cmd: c.cmd, at: c.at, expiresAt: c.expiresAt, payload: c.payload })

export class CommandOutbox {
  /** @type {Map<string, Map<string, Command>>} outstanding commands per board, in acceptance order */
  #boards = new Map()
  #count = 0
  /** boards whose current aedes session holds a QoS 1 cmd subscription, so aedes queues for them */
  #held = new Set()
  #timer = null

  /**
   * @param {string} dir
   * @param {{log: import('../log.js').Logger, ttlMs?: number, maxAgeMs?: number, maxPerBoard?: number, sweepMs?: number}} opts
   */
  constructor(dir, { log, ttlMs = COMMAND_TTL_MS, maxAgeMs = COMMAND_MAX_AGE_MS, maxPerBoard = COMMANDS_PER_BOARD, sweepMs = SWEEP_MS }) {
    this.log = log
    this.ttlMs = ttlMs
    this.maxAgeMs = maxAgeMs
    this.maxPerBoard = maxPerBoard
    this.sweepMs = sweepMs
    this.file = new AppendLog(join(dir, 'commands.log'))
  }

  /** Loads the outstanding commands; expired ones are dropped (and logged) here. */
  async open() {
    const records = await this.file.open()
    for (const r of records) {
      if (r.op === 'add') this.#keep({ ...r, stored: Promise.resolve() })
      else this.#remove(r.boardId, r.id)
    }
    this.#sweep()
    if (records.length > this.#count) await this.file.rewrite(() => this.#lines())
    return this
  }

  /**
   * Follows the broker: sessions that start afresh, cmd subscriptions, and the boards' PUBACKs.
   * @param {import('aedes').Aedes} aedes
   * @param {(client: any) => boolean} isBoard  true for a client authenticated as the board of its id
   */
  attach(aedes, isBoard) {
    aedes.on('connackSent', (connack, client) => {
      if (!connack.sessionPresent && isBoard(client)) this.#held.delete(client.id)
    })
    aedes.on('subscribe', (subs, client) => {
      if (!isBoard(client) || this.#held.has(client.id)) return
      const cmdTopic = topic(client.id, 'cmd')
      if (!subs.some((s) => (s.qos === 1 || s.qos === 2) && matches(s.topic, cmdTopic))) return
      this.#held.add(client.id)
      this.#deliver(client)
    })
    aedes.on('unsubscribe', (filters, client) => {
      if (isBoard(client) && filters.some((f) => matches(f, topic(client.id, 'cmd')))) this.#held.delete(client.id)
    })
    aedes.on('ack', (packet, client) => {
      // packet is undefined for a clean-session client: aedes keeps nothing to acknowledge for it
      if (packet?.cmd !== 'publish' || !isBoard(client)) return
      const t = parseTopic(packet.topic)
      if (t?.name !== 'cmd' || t.boardId !== client.id) return
      let id
      try {
        id = parseCommand(packet.payload).id
      } catch {
        return
      }
      this.drop(client.id, id)
    })
    this.#timer = setInterval(() => this.#expire(), this.sweepMs).unref()
  }

  /**
   * Accepts a command for a board; resolves once it is on disk. Rejects a payload without a usable id,
   * and any command once the board has `maxPerBoard` outstanding. A command already outstanding
   * (a publisher's resend) is kept once. One that has already expired is accepted and dropped.
   * @param {string} boardId @param {Buffer|string} payload
   */
  async add(boardId, payload) {
    const { id, cmd, expiresAt } = parseCommand(payload)
    const pending = this.#boards.get(boardId)
    const existing = pending?.get(id)
    if (existing) return existing.stored
    // Everything up to the append runs synchronously, so two adds of one id cannot both pass.
    const at = Date.now()
    const c = { boardId, id, cmd, at, expiresAt: Math.min(expiresAt ?? at + this.ttlMs, at + this.maxAgeMs), payload: Buffer.from(payload).toString('utf8') }
    if (c.expiresAt <= at) {
      this.log.warn('command expired', { boardId, id, cmd, expiresAt: c.expiresAt })
      return
    }
    this.#expire(boardId)
    if ((this.#boards.get(boardId)?.size ?? 0) >= this.maxPerBoard) {
      throw new Error(`board ${boardId} already has ${this.maxPerBoard} outstanding commands`)
    }
    // Outstanding from now on, before it is durable: a board subscribing meanwhile must get it from
    // one side or the other (see the top of this file).
    c.stored = this.file.appendLine(addLine(c)).catch((e) => {
      this.#remove(boardId, id)
      throw e
    })
    this.#keep(c)
    return c.stored
  }

  /**
   * True for a command that must not reach its board any more: expired, or no longer outstanding
   * (acknowledged, or dropped when it expired). The broker's forward hook asks this for every QoS 1
   * command, including those aedes queued in its own session.
   * @param {string} boardId @param {{topic: string, qos: number, payload: Buffer}} packet
   */
  withheld(boardId, packet) {
    if (packet.qos === 0 || parseTopic(packet.topic)?.name !== 'cmd') return false
    let id
    try {
      id = parseCommand(packet.payload).id
    } catch {
      return false
    }
    const c = this.#boards.get(boardId)?.get(id)
    if (c && c.expiresAt <= Date.now()) this.#expire(boardId)
    return !this.#boards.get(boardId)?.has(id)
  }

  /**
   * Ends an outstanding command: its board acknowledged it, or it must not reach the board any more (an
   * unlock under lockdown, authorize-forward.js). A command not outstanding is left alone.
   * @param {string} boardId @param {string} id
   */
  drop(boardId, id) {
    if (!this.#remove(boardId, id)) return
    this.file
      .append({ op: 'done', boardId, id })
      .then(() => this.#compact())
      .catch((e) => this.log.error('could not record a finished command', { boardId, id, error: e.message }))
  }

  async close() {
    clearInterval(this.#timer)
    await this.file.close()
  }

  /** Publishes the board's outstanding commands into its session, oldest first. */
  #deliver(client) {
    this.#expire(client.id)
    for (const c of this.#boards.get(client.id)?.values() ?? []) {
      client.publish({ cmd: 'publish', topic: topic(c.boardId, 'cmd'), payload: Buffer.from(c.payload), qos: 1, retain: false }, (err) => {
        if (err) this.log.warn('could not deliver a stored command', { boardId: c.boardId, id: c.id, error: err.message })
      })
    }
  }

  #keep(c) {
    let pending = this.#boards.get(c.boardId)
    if (!pending) this.#boards.set(c.boardId, (pending = new Map()))
    if (!pending.has(c.id)) this.#count++
    pending.set(c.id, c)
  }

  #remove(boardId, id) {
    const pending = this.#boards.get(boardId)
    if (!pending?.delete(id)) return false
    this.#count--
    if (pending.size === 0) this.#boards.delete(boardId)
    return true
  }

  /**
   * Drops expired commands (of one board, or all), each with a log line. The file gets no line for
   * them: on reopen they are expired just the same.
   * @returns {boolean} whether any was dropped
   */
  #sweep(boardId) {
    const now = Date.now()
    let dropped = false
    for (const pending of boardId ? [this.#boards.get(boardId) ?? new Map()] : [...this.#boards.values()]) {
      for (const c of [...pending.values()]) {
        if (c.expiresAt > now) continue
        this.log.warn('command expired', { boardId: c.boardId, id: c.id, cmd: c.cmd, expiresAt: c.expiresAt })
        this.#remove(c.boardId, c.id)
        dropped = true
      }
    }
    return dropped
  }

  /** @param {string} [boardId] */
  #expire(boardId) {
    if (this.#sweep(boardId)) this.#compact()
  }

  #lines() {
    return [...this.#boards.values()].flatMap((pending) => [...pending.values()].map(addLine))
  }

  /**
   * Empties the file once nothing is outstanding, else rewrites it once it has grown (commands that
   * only expired leave their lines behind until then).
   */
  #compact() {
    this.file
      .rewrite(() => (this.#count === 0 ? [] : this.file.size > COMPACT_BYTES ? this.#lines() : null))
      .catch((e) => this.log.error('could not compact the command outbox', { error: e.message }))
  }
}
