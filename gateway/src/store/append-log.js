/**
 * A crash-safe append-only JSON-lines file with group commit: every append resolves only after its
 * line is on disk (fdatasync), and appends that arrive while a sync is running share the next one.
 * A torn last line (the process died mid-write) is dropped on open: nobody was told it was stored.
 */
import { open, readFile, rename, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

export class AppendLog {
  /** @type {import('node:fs/promises').FileHandle} */ #fh
  /** @type {{line: string, resolve: () => void, reject: (e: Error) => void}[]} */ #pending = []
  #flushing = false
  #size = 0

  /** @param {string} path */
  constructor (path) { this.path = path }

  /**
   * Opens the file and returns the records already in it, in order.
   * @returns {Promise<any[]>}
   */
  async open () {
    await mkdir(dirname(this.path), { recursive: true })
    let text = ''
    try { text = await readFile(this.path, 'utf8') } catch (e) { if (e.code !== 'ENOENT') throw e }
    const records = []
    let good = 0
    for (let start = 0; start < text.length;) {
      const end = text.indexOf('\n', start)
      if (end < 0) break
      try { records.push(JSON.parse(text.slice(start, end))) } catch { break }
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

  get size () { return this.#size }

  /** @param {any} record @returns {Promise<void>} resolves once durable */
  append (record) { return this.appendLine(JSON.stringify(record)) }

  /** @param {string} json one record already serialized (no newline) @returns {Promise<void>} */
  appendLine (json) {
    return new Promise((resolve, reject) => {
      this.#pending.push({ line: json + '\n', resolve, reject })
      if (!this.#flushing) this.#flush()
    })
  }

  async #flush () {
    this.#flushing = true
    while (this.#pending.length > 0) {
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
    this.#flushing = false
  }

  /**
   * Atomically replaces the whole file with these serialized records (compaction): written beside,
   * synced, renamed. Appends wait meanwhile. A function is called once no write is running, so it sees
   * every record already on disk; returning null skips the rewrite.
   * @param {string[] | (() => string[] | null)} linesOrFn
   */
  async rewrite (linesOrFn) {
    while (this.#flushing) await new Promise((resolve) => setImmediate(resolve))
    const lines = typeof linesOrFn === 'function' ? linesOrFn() : linesOrFn
    if (!lines) return
    this.#flushing = true
    try {
      const tmp = this.path + '.tmp'
      const text = lines.map((l) => l + '\n').join('')
      await writeDurably(tmp, text)
      await this.#fh.close()
      await rename(tmp, this.path)
      await syncDir(dirname(this.path))
      this.#fh = await open(this.path, 'a+')
      this.#size = Buffer.byteLength(text)
    } finally {
      this.#flushing = false
      if (this.#pending.length > 0) this.#flush()
    }
  }

  async close () {
    while (this.#flushing) await new Promise((resolve) => setImmediate(resolve))
    await this.#fh?.close()
  }
}

/** @param {string} path @param {string|Buffer} data */
export async function writeDurably (path, data) {
  const fh = await open(path, 'w')
  try {
    await fh.write(data)
    await fh.datasync()
  } finally {
    await fh.close()
  }
}

/** Writes a file so that after a crash it holds either the old or the new content. */
export async function replaceFile (path, data) {
  await mkdir(dirname(path), { recursive: true })
  await writeDurably(path + '.tmp', data)
  await rename(path + '.tmp', path)
  await syncDir(dirname(path))
}

/** @param {string} dir */
async function syncDir (dir) {
  const fh = await open(dir, 'r')
  try { await fh.sync() } finally { await fh.close() }
}
