/**
 * `npm run bench:replica`: the replica on disk (decision 0052) against the earlier JSON replica, in the
 * same run, for 1, 10 and 100 synthetic 300-door sites (bench/replica-sites.mjs): size on disk, time
 * to write a snapshot, restart (open) time, RSS, and decision latency on the opened copy.
 *
 * Each step runs in its own process, so open time and RSS are those of a fresh gateway process.
 * The JSON baseline writes replica.snapshot.json as its compaction did (one JSON.stringify) and opens it
 * as it did: one readFile and JSON.parse, then Maps and indexes.
 * `node bench/replica.mjs [sites,...]` (default 1,10,100).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, mkdir, rm, readFile, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Replica, ENTITY_TYPES } from '../src/store/replica.js'
import { Indexes } from '../src/store/replica-indexes.js'
import { writeDurably } from '../src/store/append-log.js'
import { decideAccess } from '../src/access/decide.js'
import { snapshotPages, siteChanges, request } from './replica-sites.mjs'

const SELF = fileURLToPath(import.meta.url)
const DECISIONS = 50_000
const NOW = Date.parse('2026-11-25T10:00:00Z') // a Wednesday, inside the keys' hours

const [mode, ...args] = process.argv.slice(2)
if (mode?.startsWith('--')) await child(mode.slice(2), Number(args[0]), args[1])
else await main((mode ?? '1,10,100').split(',').map(Number))

async function main(siteCounts) {
  const rows = []
  for (const sites of siteCounts) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-replica-'))
    try {
      const store = join(dir, 'store')
      const json = join(dir, 'json')
      const r = { sites }
      r.storeWrite = await run('write-store', sites, store)
      r.storeBytes = await bytesOf(store)
      r.jsonWrite = await run('write-json', sites, json)
      r.jsonBytes = await bytesOf(json)
      r.storeOpen = await run('open-store', sites, store)
      r.jsonOpen = await run('open-json', sites, json)
      r.resnapshot = await run('resnapshot-store', sites, store)
      r.storeBytesAfter = await bytesOf(store)
      r.migrate = await run('migrate', sites, json)
      rows.push(r)
      console.error(JSON.stringify(r))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
  report(rows)
}

function report(rows) {
  const mib = (b) => (b / 1024 ** 2).toFixed(1)
  const x = (a, b) => (a / b).toFixed(2) + '×'
  console.log(`replica bench, ${new Date().toISOString()}: store (LMDB, record per key) vs JSON (one string), ratio = store / JSON`)
  console.log(
    'sites | records | disk MiB store / JSON (ratio) | open ms store / JSON (ratio) | RSS after open MiB store / JSON (ratio) | peak RSS MiB store / JSON | decision µs p50/p99 store / JSON'
  )
  for (const r of rows) {
    console.log(
      [
        r.sites,
        r.storeOpen.records,
        `${mib(r.storeBytes)} / ${mib(r.jsonBytes)} (${x(r.storeBytes, r.jsonBytes)})`,
        `${r.storeOpen.openMs.toFixed(0)} / ${r.jsonOpen.openMs.toFixed(0)} (${x(r.storeOpen.openMs, r.jsonOpen.openMs)})`,
        `${mib(r.storeOpen.rss)} / ${mib(r.jsonOpen.rss)} (${x(r.storeOpen.rss, r.jsonOpen.rss)})`,
        `${mib(r.storeOpen.peakRss)} / ${mib(r.jsonOpen.peakRss)}`,
        `${r.storeOpen.p50us}/${r.storeOpen.p99us} / ${r.jsonOpen.p50us}/${r.jsonOpen.p99us}`
      ].join(' | ')
    )
  }
  console.log(
    'sites | snapshot write s store (pages of 500, streamed) / JSON (one string) | peak RSS while writing MiB store / JSON | second snapshot: s, disk MiB after | migration of the JSON files on first open: s'
  )
  for (const r of rows) {
    console.log(
      [
        r.sites,
        `${(r.storeWrite.ms / 1000).toFixed(1)} / ${(r.jsonWrite.ms / 1000).toFixed(1)}`,
        `${mib(r.storeWrite.peakRss)} / ${mib(r.jsonWrite.peakRss)}`,
        `${(r.resnapshot.ms / 1000).toFixed(1)}, ${mib(r.storeBytesAfter)}`,
        (r.migrate.ms / 1000).toFixed(1)
      ].join(' | ')
    )
  }
}

/** Runs one step in a fresh process and returns what it printed. */
function run(step, sites, dir) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', SELF, `--${step}`, String(sites), dir], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    p.stdout.on('data', (d) => (out += d))
    p.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${step} ${sites}: exit ${code}`))))
  })
}

async function bytesOf(dir) {
  let total = 0
  for (const f of await readdir(dir)) total += (await stat(join(dir, f))).blocks * 512
  return total
}

/** Peak resident set of this process (VmHWM), in bytes. */
async function peakRss() {
  const m = /VmHWM:\s+(\d+) kB/.exec(await readFile('/proc/self/status', 'utf8'))
  return Number(m[1]) * 1024
}

async function settledRss() {
  globalThis.gc()
  globalThis.gc()
  return process.memoryUsage().rss
}

async function child(step, sites, dir) {
  const t0 = performance.now()
  const out = {}
  if (step === 'write-store' || step === 'resnapshot-store') {
    const replica = await new Replica(dir).open()
    const snapshot = await replica.beginSnapshot()
    for (const page of snapshotPages(sites)) await snapshot.add(page)
    await snapshot.commit('1000')
    await replica.close()
  } else if (step === 'write-json') {
    const tables = Object.fromEntries(ENTITY_TYPES.map((t) => [t, []]))
    for (let s = 0; s < sites; s++) for (const c of siteChanges(s)) tables[c.type].push({ ...c.data, id: c.id })
    await mkdir(dir, { recursive: true })
    await writeDurably(join(dir, 'replica.snapshot.json'), JSON.stringify({ cursor: '1000', tables }))
  } else if (step === 'open-store' || step === 'migrate') {
    const replica = await new Replica(dir).open()
    out.openMs = performance.now() - t0
    out.records = [...replica.tables.values()].reduce((n, t) => n + t.size, 0)
    if (step === 'open-store') Object.assign(out, await settledFigures(replica, sites))
    await replica.close()
  } else if (step === 'open-json') {
    const snap = JSON.parse(await readFile(join(dir, 'replica.snapshot.json'), 'utf8'))
    const tables = new Map(ENTITY_TYPES.map((t) => [t, new Map()]))
    const copy = { tables, index: new Indexes(tables), get: (type, id) => tables.get(type)?.get(id) }
    for (const [type, rows] of Object.entries(snap.tables)) {
      for (const row of rows) {
        copy.tables.get(type).set(row.id, row)
        copy.index.add(type, row)
      }
    }
    out.openMs = performance.now() - t0
    Object.assign(out, await settledFigures(/** @type {any} */ (copy), sites))
  }
  out.ms = performance.now() - t0
  out.peakRss = await peakRss()
  process.stdout.write(JSON.stringify(out))
}

async function settledFigures(replica, sites) {
  const rss = await settledRss()
  const heap = process.memoryUsage().heapUsed
  const times = new Float64Array(DECISIONS)
  let allowed = 0
  for (let i = 0; i < DECISIONS; i++) {
    const { deviceId, credential } = request(sites, i)
    const t = process.hrtime.bigint()
    const d = decideAccess(replica, deviceId, credential, NOW)
    times[i] = Number(process.hrtime.bigint() - t) / 1000
    if (d.allowed) allowed++
  }
  times.sort()
  const at = (q) => times[Math.floor(q * (times.length - 1))].toFixed(1)
  return { rss, heap, p50us: at(0.5), p99us: at(0.99), allowedShare: +(allowed / DECISIONS).toFixed(3) }
}
