/**
 * What the instances of one cell settle between them in their Redis (decision 0053), besides what
 * aedes keeps there:
 *
 * - Which cell the Redis belongs to (`keyless:cell`). One Redis per cell: aedes-persistence-redis
 *   uses fixed key names and mqemitter-redis publishes on the MQTT topic as its channel, which no
 *   database number separates, so two cells sharing one server would mix sessions and deliveries.
 *   An instance refuses a Redis that names another cell.
 * - Which content each retained topic has (`keyless:retained:{topic}`, a SHA-256): an instance
 *   publishes a retained message only if it swaps the stored hash for a new one, so each change is
 *   published once per cell, not once per instance. A cleared topic keeps an empty hash for an hour,
 *   so the other instances' clears of it are skipped too.
 */
import { createRequire } from 'node:module'
import { createHash } from 'node:crypto'

const require = createRequire(import.meta.url)

const CELL_KEY = 'keyless:cell'
const retainedKey = (topic) => `keyless:retained:${topic}`
const CLEARED_TTL_S = 3600

// 1 when this caller swapped the hash and must publish, 0 when the topic already has this content
const CLAIM = `local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then return 0 end
if ARGV[1] == '' then redis.call('SET', KEYS[1], '', 'EX', ARGV[2]) else redis.call('SET', KEYS[1], ARGV[1]) end
return 1`
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`

/** Keys per MGET when the stored hashes of many topics are read at once. */
const MGET_KEYS = 1000

export class CellRedis {
  published = 0
  skipped = 0
  /** @type {Map<string, string>|null} stored hashes read in bulk, each used once (`withStoredHashes`) */ #read = null

  /** @param {string} url */
  constructor(url) {
    const { Redis } = require('ioredis')
    this.db = new Redis(url, { maxRetriesPerRequest: 3 })
    this.db.defineCommand('claimRetained', { numberOfKeys: 1, lua: CLAIM })
    this.db.defineCommand('releaseRetained', { numberOfKeys: 1, lua: RELEASE })
  }

  /**
   * Binds this Redis to `cell`, or fails if it is bound to another.
   * @param {string} cell
   */
  async claimCell(cell) {
    await this.db.set(CELL_KEY, cell, 'NX')
    const owner = await this.db.get(CELL_KEY)
    if (owner !== cell) throw new Error(`this Redis belongs to cell "${owner}", this gateway serves cell "${cell}": each cell needs its own Redis`)
  }

  /**
   * Publishes a retained message unless another instance already published the same content.
   * @param {string} topic @param {Buffer} content what the message says (empty: the topic is cleared)
   * @param {() => Promise<void>} publish
   */
  async publishOnce(topic, content, publish) {
    const hash = content.length === 0 ? '' : createHash('sha256').update(content).digest('base64')
    const stored = this.#read?.get(topic)
    this.#read?.delete(topic)
    if (stored === hash) {
      this.skipped++
      return
    }
    if (!(await /** @type {any} */ (this.db).claimRetained(retainedKey(topic), hash, CLEARED_TTL_S))) {
      this.skipped++
      return
    }
    try {
      await publish()
      this.published++
    } catch (e) {
      // not published after all: the next instance with this content must not skip it
      await /** @type {any} */ (this.db).releaseRetained(retainedKey(topic), hash).catch(() => {})
      throw e
    }
  }

  /**
   * Runs `work`, which publishes many retained topics again (every board's, at start or after a reset),
   * with the stored hashes of `topics` read first, 1,000 to a command: a topic whose content is unchanged
   * is then skipped without a claim of its own. A claim per topic was a Redis command and a socket write
   * each, most of a restart's CPU with 30,000 boards. A hash another instance replaces after the read
   * only means this one leaves that instance's content, as a claim that came after it would have done;
   * the instances follow the same feed and meet on its latest content.
   * @template T @param {string[]} topics @param {() => Promise<T>} work @returns {Promise<T>}
   */
  async withStoredHashes(topics, work) {
    const read = new Map()
    for (let i = 0; i < topics.length; i += MGET_KEYS) {
      const chunk = topics.slice(i, i + MGET_KEYS)
      const hashes = await this.db.mget(chunk.map(retainedKey))
      chunk.forEach((topic, k) => hashes[k] !== null && read.set(topic, hashes[k]))
    }
    this.#read = read
    try {
      return await work()
    } finally {
      if (this.#read === read) this.#read = null
    }
  }

  close() {
    return this.db.quit().catch(() => this.db.disconnect())
  }
}
