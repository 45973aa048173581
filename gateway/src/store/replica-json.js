/**
 * The replica's earlier files, read once to migrate them into the store (decision 0052):
 * replica.snapshot.json `{cursor, tables: {type: [record]}}` and replica.log, one JSON line
 * `{cursor, reset, changes}` per applied page. The log is read line by line; a torn last line was
 * never acknowledged and is left out, as the log itself did on open.
 */
import { createReadStream } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { join } from 'node:path'

const SNAPSHOT = 'replica.snapshot.json'
const LOG = 'replica.log'

/**
 * The pages the old files hold, in order: the snapshot as one reset page, then the log's. None when
 * there are no old files.
 * @param {string} dir
 * @returns {AsyncGenerator<{cursor: string|null, reset: boolean, changes: import('../protocol/wire.js').FeedChange<any>[]}>}
 */
export async function* readJsonReplica(dir) {
  let text = null
  try {
    text = await readFile(join(dir, SNAPSHOT), 'utf8')
  } catch (e) {
    if (e.code !== 'ENOENT') throw e
  }
  if (text !== null) {
    const snap = JSON.parse(text)
    text = null
    const changes = []
    for (const [type, rows] of Object.entries(snap.tables)) for (const row of rows) changes.push({ type, op: /** @type {const} */ ('upsert'), id: row.id, data: row })
    yield { cursor: snap.cursor, reset: true, changes }
  }
  let lines
  try {
    lines = createInterface({ input: createReadStream(join(dir, LOG)), crlfDelay: Infinity })
    for await (const line of lines) {
      let page
      try {
        page = JSON.parse(line)
      } catch {
        break
      }
      yield { cursor: page.cursor, reset: Boolean(page.reset), changes: page.changes }
    }
  } catch (e) {
    if (e.code !== 'ENOENT') throw e
  } finally {
    lines?.close()
  }
}

/** @param {string} dir */
export async function removeJsonReplica(dir) {
  await rm(join(dir, SNAPSHOT), { force: true })
  await rm(join(dir, LOG), { force: true })
}
