/**
 * npm run bench:fleet — memory and reconnection of a whole fleet on one gateway, one run, loopback.
 *
 *  1. RSS per connected board: boards connect in steps (1,000, 10,000, FLEET_MAX), each doing what
 *     sim/sim-board.js does on connect (CONNECT with its retained offline will, status and its PUBACK,
 *     SUBSCRIBE to its 7 down topics, the retained configuration acknowledged); the gateway's RSS at
 *     each step and the least-squares slope. Without Redis and with it (then Redis' RSS too).
 *  2. A gateway restart (SIGTERM, started again on its DATA_DIR): seconds until every board is
 *     connected and subscribed again, for all FLEET_MAX boards and for 10,000.
 *  3. With them connected, access decisions offered at 2,000/s for 5 s from 1,000 of them
 *     (bench/requester.mjs): latency p50/p99.
 *
 * FLEET_MAX defaults to 19,000: the gateway holds one file descriptor per board and this machine caps
 * a process at 20,000 (the hard limit, which root without CAP_SYS_RESOURCE cannot raise). The boards
 * live in CHILDREN processes of their own (bench/fleet-boards.mjs) for the same reason.
 */
import { execFileSync, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { loadavg, cpus } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import mqtt from 'mqtt'
import { SECRET, tempDir, removeDir, spawnGateway, gatewayStats } from '../test/support/fixtures.js'
import { startRedis } from '../test/support/processes.js'
import { connectRequester } from './requester.mjs'
import { say, sleep, pct, ms, cpuSeconds, rssBytes, inBatches, openLoop, startWorkerEnd } from './measure.mjs'

const MAX = Number(process.env.FLEET_MAX ?? 19_000)
const STEPS = [...new Set([1000, 10_000, MAX].filter((n) => n <= MAX))]
const REQUESTERS = 1000
const OFFERED_RATE = 2000
const OFFERED_SECONDS = 5
const CHILDREN = 4
const IN_FLIGHT = 500 // connections under way at once, over all children
const GATEWAY_ID = 'gw-fleet'
const PASSWORD = 'bench-secret'

const MB = 1024 * 1024
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')

/** The board processes; each gets every CHILDREN-th board of a list. */
async function startBoardProcesses() {
  const children = await Promise.all(
    Array.from({ length: CHILDREN }, async () => {
      const proc = fork(fileURLToPath(new URL('./fleet-boards.mjs', import.meta.url)))
      await new Promise((resolve) => proc.once('message', resolve))
      return proc
    })
  )
  const ask = (proc, m) =>
    new Promise((resolve, reject) => {
      const onExit = (code) => reject(new Error(`board process exited with ${code}`))
      proc.once('exit', onExit)
      proc.once('message', (r) => {
        proc.off('exit', onExit)
        resolve(r)
      })
      proc.send(m)
    })
  return {
    /** Connects boards rc-<from>…rc-<to - 1>; seconds until the last one is subscribed. */
    async connect(port, from, to) {
      const t0 = performance.now()
      await Promise.all(
        children.map((proc, c) => {
          const ids = []
          for (let i = from + c; i < to; i += CHILDREN) ids.push(`rc-${i}`)
          return ask(proc, { cmd: 'connect', port, ids, password: PASSWORD, inFlight: IN_FLIGHT / CHILDREN })
        })
      )
      return (performance.now() - t0) / 1000
    },
    drop: (count) => Promise.all(children.map((proc) => ask(proc, { cmd: 'drop', count: Math.ceil(count / CHILDREN) }))),
    close: () => children.forEach((proc) => proc.disconnect())
  }
}

/**
 * Resolves once the gateway counts `boards` connected boards (its stats count the asking operator too);
 * fails after two minutes rather than hang when boards were lost.
 */
const holding = (gw, boards) =>
  Promise.race([
    gatewayStats(gw.mqttPort, GATEWAY_ID, (s) => s.boards === boards + 1),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`the gateway did not hold ${boards} boards within 2 min`)), 120_000).unref())
  ])

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length
  const mx = points.reduce((a, p) => a + p.x, 0) / n
  const my = points.reduce((a, p) => a + p.y, 0) / n
  return points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / points.reduce((a, p) => a + (p.x - mx) ** 2, 0)
}

const stop = async (gw) => {
  gw.proc.kill('SIGTERM')
  await gw.exited
}

/** Phase 1 for one mode: RSS at 0 boards and at each step; the gateway is left running with MAX boards. */
async function memorySteps(env, boards, redis) {
  const gw = await spawnGateway(env)
  const rows = []
  const sample = async (n) => {
    await holding(gw, n)
    await sleep(2000) // let the allocations of the last connections settle before reading RSS
    rows.push({ boards: n, rss: rssBytes(gw.proc.pid), redis: redis ? rssBytes(redis.proc.pid) : null, load: loadavg()[0] })
  }
  await sample(0)
  let from = 0
  for (const to of STEPS) {
    const seconds = await boards.connect(gw.mqttPort, from, to)
    say(`  ${to - from} boards connected in ${seconds.toFixed(1)} s (now ${to})`)
    from = to
    await sample(to)
  }
  return { gw, rows }
}

function sayMemory(label, rows) {
  say(`RSS per connected board, ${label} (${MAX} boards provisioned in the replica throughout)`)
  for (const r of rows) {
    say(
      `  ${String(r.boards).padStart(6)} boards: gateway RSS ${(r.rss / MB).toFixed(0)} MB` +
        (r.redis != null ? `, redis-server RSS ${(r.redis / MB).toFixed(0)} MB` : '') +
        (r.boards ? `; per board over 0 boards: ${((r.rss - rows[0].rss) / r.boards / 1024).toFixed(1)} KB` : '') +
        `  (load ${r.load.toFixed(1)})`
    )
  }
  const fit = slope(rows.map((r) => ({ x: r.boards, y: r.rss })))
  say(`  least-squares slope: gateway ${(fit / 1024).toFixed(1)} KB per board; 30,000 boards would be ~${((rows[0].rss + fit * 30_000) / MB).toFixed(0)} MB (extrapolated)`)
  if (rows[0].redis != null) {
    const r = slope(rows.map((x) => ({ x: x.boards, y: x.redis })))
    say(`  least-squares slope: redis-server ${(r / 1024).toFixed(1)} KB per board`)
  }
}

/** Phase 2: stops the gateway, starts it again, reconnects `count` boards; the restarted gateway. */
async function restartWith(gw, env, boards, count) {
  await stop(gw)
  const t0 = performance.now()
  const next = await spawnGateway(env)
  const ready = (performance.now() - t0) / 1000
  const cpu0 = cpuSeconds(next.proc.pid)
  const seconds = await boards.connect(next.mqttPort, 0, count)
  const cpu = cpuSeconds(next.proc.pid) - cpu0
  say(
    `  ${count} boards connected and subscribed again in ${seconds.toFixed(1)} s after the restarted gateway was ready (ready ${ready.toFixed(1)} s after start); gateway CPU ${cpu.toFixed(1)} s (${((cpu / count) * 1000).toFixed(2)} ms per board); load ${load()}`
  )
  return { gw: next, seconds }
}

/** Phase 3: 1,000 of the boards ask at 2,000/s while the rest stay connected. */
async function decisionsWithFleet(gw, boards) {
  await boards.drop(REQUESTERS)
  const url = `mqtt://127.0.0.1:${gw.mqttPort}`
  const requesters = await inBatches(
    Array.from({ length: REQUESTERS }, (_, i) => `bench-${i}`),
    50,
    (id) => connectRequester(url, { clientId: id, username: id, password: PASSWORD, clean: false }, { request: `boards/${id}/access/req`, response: `boards/${id}/access/res` })
  )
  const ask = (i) => requesters[i % REQUESTERS].ask({ type: 'fob', id: `F-${i % REQUESTERS}` })
  for (let i = 0; i < REQUESTERS; i++) if (!(await ask(i)).allowed) throw new Error('bench key refused')
  // the gateway's own view, per stats interval: time spent deciding and how long its event loop lagged
  const operator = await mqtt.connectAsync(url, { clientId: 'fleet-operator', username: 'operator', password: SECRET, reconnectPeriod: 0 })
  const since = Date.now()
  const seen = []
  operator.on('message', (_t, payload) => seen.push(JSON.parse(payload.toString())))
  await operator.subscribeAsync(`$SYS/${GATEWAY_ID}/gateway/stats`, { qos: 0 })
  const cpu0 = cpuSeconds(gw.proc.pid)
  const eld = monitorEventLoopDelay({ resolution: 5 })
  eld.enable()
  const open = await openLoop(ask, OFFERED_RATE * OFFERED_SECONDS, OFFERED_RATE)
  eld.disable()
  const cpu = cpuSeconds(gw.proc.pid) - cpu0
  await operator.endAsync()
  const fresh = seen.filter((st) => st.at > since)
  const connected = Math.max(...fresh.map((st) => st.boards)) - 1
  const busy = fresh.filter((st) => st.decisions.count > 0)
  const L = open.latencies
  say(
    `access decisions offered at ${OFFERED_RATE}/s for ${OFFERED_SECONDS} s from ${REQUESTERS} boards, ${connected} boards connected (achieved ${(L.length / open.seconds).toFixed(0)}/s)`
  )
  say(`  p50 ${ms(pct(L, 0.5))}  p99 ${ms(pct(L, 0.99))}  max ${ms(L.at(-1))}   target p99 < 10 ms: ${pct(L, 0.99) < 10 ? 'met' : 'NOT met'}`)
  say(`  gateway CPU ${cpu.toFixed(2)} s of ${open.seconds.toFixed(2)} s; load ${load()} on ${cpus().length} cores`)
  say(
    `  inside the gateway (worst interval): decision handling p99 ${ms(Math.max(...busy.map((st) => st.decisions.p99Us)) / 1000)}, event-loop delay p99 ${ms(Math.max(...busy.map((st) => st.eventLoopDelay.p99Ms)))}; the requesters' process event-loop delay p99 ${ms(eld.percentile(99) / 1e6)} (both add to every latency)`
  )
  await inBatches(requesters, 100, (r) => r.close())
}

execFileSync('bash', [fileURLToPath(new URL('../scripts/ensure-services.sh', import.meta.url))], { stdio: 'inherit' })
const worker = await startWorkerEnd([REQUESTERS, 1024, MAX, 0])
const boards = await startBoardProcesses()
const dirs = []
const env = async (extra = {}) => {
  const dir = await tempDir('gw-fleet-')
  dirs.push(dir)
  return { DATA_DIR: dir, WORKER_URL: worker.url, MQTT_PORT: '0', SYNC_INTERVAL_MS: '60000', GATEWAY_ID, STATS_INTERVAL_MS: '250', ...extra }
}
try {
  say(`fleet bench: up to ${MAX} boards on one gateway, loopback, ${new Date().toISOString()}, load ${load()} on ${cpus().length} cores`)
  say('without Redis')
  const plain = await env()
  let { gw, rows } = await memorySteps(plain, boards, null)
  sayMemory('without Redis', rows)
  say('gateway restart, without Redis (sessions were in memory: every board subscribes again)')
  ;({ gw } = await restartWith(gw, plain, boards, MAX))
  await decisionsWithFleet(gw, boards)
  ;({ gw } = await restartWith(gw, plain, boards, Math.min(10_000, MAX)))
  await stop(gw)
  await boards.drop(MAX)

  if (process.env.FLEET_REDIS !== 'off') {
    say('with Redis')
    const redis = await startRedis()
    try {
      const clustered = await env({ REDIS_URL: redis.url })
      ;({ gw, rows } = await memorySteps(clustered, boards, redis))
      sayMemory('with Redis', rows)
      say('gateway restart, with Redis (sessions and subscriptions kept in Redis)')
      ;({ gw } = await restartWith(gw, clustered, boards, MAX))
      await stop(gw)
      await boards.drop(MAX)
    } finally {
      await redis.stop()
    }
  }
  say(`machine load average at the end: ${load()} on ${cpus().length} cores`)
} finally {
  boards.close()
  await worker.close()
  for (const d of dirs) await removeDir(d)
}
