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

export class CellRedis {
  published = 0
  skipped = 0

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
   * @param {string} topic @param {Buffer} payload @param {() => Promise<void>} publish
   */
  async publishOnce(topic, payload, publish) {
    const hash = payload.length === 0 ? '' : createHash('sha256').update(payload).digest('base64')
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

  close() {
    return this.db.quit().catch(() => this.db.disconnect())
  }
}
