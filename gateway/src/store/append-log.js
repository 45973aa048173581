/**
 * A crash-safe append-only JSON-lines file with group commit: every append resolves only after its
 * line is on disk (fdatasync), and appends that arrive while a sync is running share the next one.
 * With `syncIntervalMs`, syncs start at most that often: under steady load many appends share one
 * fdatasync (each costs 0.1–0.2 ms of CPU on the development machine), while an append after a quiet
 * spell is still synced at once.
 * A torn last line (the process died mid-write) is dropped on open: nobody was told it was stored.
 */
import { open, readFile, rename, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

export class AppendLog {
  /** @type {import('node:fs/promises').FileHandle} */ #fh
  /** @type {{line: string, resolve: () => void, reject: (e: Error) => void}[]} */ #pending = []
  /** @type {Promise<void>|null} the running flush or rewrite */ #busy = null
  #size = 0
  #lastSyncAt = -Infinity

  /** @param {string} path @param {{syncIntervalMs?: number}} [opts] */
  constructor(path, { syncIntervalMs = 0 } = {}) {
    this.path = path
    this.syncIntervalMs = syncIntervalMs
  }

  /**
   * Opens the file and returns the records already in it, in order.
   * @returns {Promise<any[]>}
   */
  async open() {
    await mkdir(dirname(this.path), { recursive: true })
    let text = ''
    try {
      text = await readFile(this.path, 'utf8')
    } catch (e) {
      if (e.code !== 'ENOENT') throw e
    }
    const records = []
    let good = 0
    for (let start = 0; start < text.length;) {
      const end = text.indexOf('\n', start)
      if (end < 0) break
      try {
        records.push(JSON.parse(text.slice(start, end)))
      } catch {
        break
      }
      start = end + 1
      good = start
    }
    this.#fh = await open(this.path, 'a+')
    if (Buffer.byteLength(text.slice(0, good)) !== Buffer.byteLength(text)) {
      await this.#fh.truncate(Buffer.byteLength(text.slice(0, good)))
      await this.#fh.datasync()
    }
    this.#size = Buffer.byteLength(text.slice(0, good))
    return records
  }

  get size() {
    return this.#size
  }

  /** @param {any} record @returns {Promise<void>} resolves once durable */
  append(record) {
    return this.appendLine(JSON.stringify(record))
  }

  /** @param {string} json one record already serialized (no newline) @returns {Promise<void>} */
  appendLine(json) {
    return new Promise((resolve, reject) => {
      this.#pending.push({ line: json + '\n', resolve, reject })
      this.#busy ??= this.#flush()
    })
  }

  async #flush() {
    while (this.#pending.length > 0) {
      const wait = this.#lastSyncAt + this.syncIntervalMs - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      this.#lastSyncAt = performance.now()
      const batch = this.#pending
      this.#pending = []
      try {
        const text = batch.map((p) => p.line).join('')
        await this.#fh.write(text)
        await this.#fh.datasync()
        this.#size += Buffer.byteLength(text)
        for (const p of batch) p.resolve()
      } catch (e) {
        for (const p of batch) p.reject(e)
      }
    }
    this.#busy = null
  }

  /**
   * Atomically replaces the whole file with these serialized records (compaction): written beside,
   * synced, renamed. Appends wait meanwhile. A function is called once no write is running, so it sees
   * every record already on disk; returning null skips the rewrite.
   * An empty list truncates in place without a sync: callers pass one only when every record is safe
   * elsewhere (delivered, or in a synced snapshot), so a crash that undoes it brings back only records
   * that are harmless to read again.
   * @param {string[] | (() => string[] | null)} linesOrFn
   */
  async rewrite(linesOrFn) {
    // checked and taken with no await in between, so no flush can start in the gap
    while (this.#busy) await this.#busy.catch(() => {})
    const lines = typeof linesOrFn === 'function' ? linesOrFn() : linesOrFn
    if (!lines) return
    this.#busy = this.#replace(lines)
    try {
      await this.#busy
    } finally {
      this.#busy = this.#pending.length > 0 ? this.#flush() : null
    }
  }

  async #replace(lines) {
    if (lines.length === 0) {
      await this.#fh.truncate(0)
      this.#size = 0
      return
    }
    const tmp = this.path + '.tmp'
    const text = lines.map((l) => l + '\n').join('')
    await writeDurably(tmp, text)
    await this.#fh.close()
    await rename(tmp, this.path)
    await syncDir(dirname(this.path))
    this.#fh = await open(this.path, 'a+')
    this.#size = Buffer.byteLength(text)
  }

  async close() {
    while (this.#busy) await this.#busy.catch(() => {})
    await this.#fh?.close()
  }
}

/** @param {string} path @param {string|Buffer} data */
export async function writeDurably(path, data) {
  const fh = await open(path, 'w')
  try {
    await (typeof data === 'string' ? fh.write(data) : fh.write(data))
    await fh.datasync()
  } finally {
    await fh.close()
  }
}

/** Writes a file so that after a crash it holds either the old or the new content. */
export async function replaceFile(path, data) {
  await mkdir(dirname(path), { recursive: true })
  await writeDurably(path + '.tmp', data)
  await rename(path + '.tmp', path)
  await syncDir(dirname(path))
}

/** @param {string} dir */
async function syncDir(dir) {
  const fh = await open(dir, 'r')
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}
