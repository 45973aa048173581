/**
 * Firmware images fetched from the Worker (R2) and kept in DATA_DIR/firmware, verified against the
 * release's size and SHA-256 before anything is offered. A mismatching download is refused, never
 * cached, and retried later.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { replaceFile } from '../store/append-log.js'

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex')

export class ImageCache {
  /** @type {Map<string, Promise<Buffer|null>>} */ #images = new Map()
  /** @type {Map<string, Buffer>} */ #ready = new Map()

  /** @param {{dir: string, worker: import('../sync/worker-client.js').WorkerClient, log: import('../log.js').Logger}} opts */
  constructor({ dir, worker, log }) {
    this.dir = dir
    this.worker = worker
    this.log = log
  }

  /**
   * @param {{id: string, size: number, sha256: string}} release
   * @returns {Promise<Buffer|null>} the verified image, or null when it cannot be had right now
   */
  get(release) {
    let p = this.#images.get(release.id)
    if (!p) {
      p = this.#load(release)
      this.#images.set(release.id, p)
      // a failure is not remembered: the next offer attempt tries again
      p.then((img) => {
        if (!img) this.#images.delete(release.id)
      })
    }
    return p
  }

  /** Synchronous access for serving blocks; undefined until `get` finished. */
  loaded(releaseId) {
    return this.#ready.get(releaseId)
  }

  async #load(release) {
    const path = join(this.dir, `${release.id}.bin`)
    try {
      const img = await readFile(path)
      if (matches(img, release)) return this.#keep(release, img)
    } catch (e) {
      if (e.code !== 'ENOENT') throw e
    }
    let img
    try {
      img = await this.worker.firmware(release.id)
    } catch (e) {
      this.log.warn('firmware download failed', { releaseId: release.id, error: e.message })
      return null
    }
    if (!matches(img, release)) {
      this.log.error('firmware refused: size or sha256 differs from the release record', {
        releaseId: release.id,
        expectedSize: release.size,
        size: img.length,
        expectedSha256: release.sha256,
        sha256: sha256(img)
      })
      return null
    }
    await replaceFile(path, img)
    return this.#keep(release, img)
  }

  #keep(release, img) {
    this.#ready.set(release.id, img)
    return img
  }
}

function matches(img, release) {
  return img.length === release.size && sha256(img) === String(release.sha256).toLowerCase()
}
