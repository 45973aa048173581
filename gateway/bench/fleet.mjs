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
 *  4. A cell of two gateways sharing one Redis (active-active, each with its own DATA_DIR), the boards
 *     shared half and half as a TCP balancer would: steps 1,000, 10,000 and FLEET_CELL_BOARDS (default
 *     30,000) in all, both gateways' RSS; both restarted at once; decisions as in 3, half the requesters
 *     on each.
 *
 * FLEET_MAX defaults to 19,000: the gateway holds one file descriptor per board and this machine caps
 * a process at 20,000 (the hard limit, which root without CAP_SYS_RESOURCE cannot raise), which is why
 * 30,000 boards are measured on a cell of two. The boards live in CHILDREN processes of their own
 * (bench/fleet-boards.mjs) for the same reason. FLEET_ONE=off leaves out 1–3, FLEET_REDIS=off the one
 * gateway with Redis, FLEET_CELL_BOARDS=0 the cell.
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
const ONE = process.env.FLEET_ONE !== 'off'
const CELL = 2 * Math.floor(Number(process.env.FLEET_CELL_BOARDS ?? 30_000) / 2)
const CELL_STEPS = [...new Set([1000, 10_000, CELL].filter((n) => n <= CELL))]
/** The Worker end's boards rc-0…: a restart measures every one of them connecting again. */
const PROVISIONED = Math.max(ONE ? MAX : 0, CELL)
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
    /**
     * Connects boards rc-<from>…rc-<to - 1> of each target to its gateway's port, the targets' boards
     * interleaved; seconds until the last one is subscribed.
     * @param {{port: number, from: number, to: number}[]} targets
     */
    async connect(targets) {
      const all = []
      const longest = Math.max(...targets.map((t) => t.to - t.from))
      for (let k = 0; k < longest; k++) for (const t of targets) if (t.from + k < t.to) all.push([t.port, `rc-${t.from + k}`])
      const t0 = performance.now()
      await Promise.all(
        children.map((proc, c) => ask(proc, { cmd: 'connect', boards: all.filter((_, i) => i % CHILDREN === c), password: PASSWORD, inFlight: IN_FLIGHT / CHILDREN }))
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
    gatewayStats(gw.mqttPort, gw.id, (s) => s.boards === boards + 1),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${gw.id} did not hold ${boards} boards within 2 min`)), 120_000).unref())
  ])

/** A gateway started on `env`, with the id its stats are published under. */
const start = async (env) => ({ ...(await spawnGateway(env)), id: env.GATEWAY_ID })

/**
 * Where `count` boards connect to `gws`: an equal share to each, gateway i's from rc-<i × stride> on
 * (a cell's gateways each hold their own half of the provisioned boards).
 */
const shares = (gws, count, stride, already = 0) => gws.map((gw, i) => ({ port: gw.mqttPort, from: i * stride + already / gws.length, to: i * stride + count / gws.length }))

const sum = (xs) => xs.reduce((a, x) => a + x, 0)

/** How the figures name one gateway or a cell's several. */
const theGateways = (n) => (n === 1 ? 'the gateway' : `the ${n} gateways`)

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length
  const mx = sum(points.map((p) => p.x)) / n
  const my = sum(points.map((p) => p.y)) / n
  return sum(points.map((p) => (p.x - mx) * (p.y - my))) / sum(points.map((p) => (p.x - mx) ** 2))
}

const stop = async (gw) => {
  gw.proc.kill('SIGTERM')
  await gw.exited
}

/**
 * Phase 1 (and 4) for one mode: the gateways' RSS at 0 boards and at each step, the boards shared
 * equally between them; the gateways are left running with the last step's boards.
 */
async function memorySteps(envs, steps, stride, boards, redis) {
  const gws = await Promise.all(envs.map(start))
  const rows = []
  const sample = async (n) => {
    await Promise.all(gws.map((gw) => holding(gw, n / gws.length)))
    await sleep(2000) // let the allocations of the last connections settle before reading RSS
    rows.push({ boards: n, rss: sum(gws.map((gw) => rssBytes(gw.proc.pid))), redis: redis ? rssBytes(redis.proc.pid) : null, load: loadavg()[0] })
  }
  await sample(0)
  let from = 0
  for (const to of steps) {
    const seconds = await boards.connect(shares(gws, to, stride, from))
    say(`  ${to - from} boards connected in ${seconds.toFixed(1)} s (now ${to})`)
    from = to
    await sample(to)
  }
  return { gws, rows }
}

function sayMemory(label, rows, gateways = 1) {
  const whose = theGateways(gateways)
  say(`RSS per connected board, ${label} (${PROVISIONED} boards provisioned in the replica throughout)`)
  for (const r of rows) {
    say(
      `  ${String(r.boards).padStart(6)} boards: RSS of ${whose} ${(r.rss / MB).toFixed(0)} MB` +
        (r.redis != null ? `, redis-server RSS ${(r.redis / MB).toFixed(0)} MB` : '') +
        (r.boards ? `; per board over 0 boards: ${((r.rss - rows[0].rss) / r.boards / 1024).toFixed(1)} KB` : '') +
        `  (load ${r.load.toFixed(1)})`
    )
  }
  const fit = slope(rows.map((r) => ({ x: r.boards, y: r.rss })))
  const most = rows.at(-1).boards
  say(
    `  least-squares slope: ${whose}, ${(fit / 1024).toFixed(1)} KB per board` +
      (most < 30_000 ? `; 30,000 boards would be ~${((rows[0].rss + fit * 30_000) / MB).toFixed(0)} MB (extrapolated)` : '')
  )
  if (rows[0].redis != null) {
    const r = slope(rows.map((x) => ({ x: x.boards, y: x.redis })))
    say(`  least-squares slope: redis-server ${(r / 1024).toFixed(1)} KB per board`)
  }
}

/**
 * Phase 2 (and 4): stops the gateways, starts them again at once, reconnects `count` boards shared
 * between them; the restarted gateways.
 */
async function restartWith(gws, envs, stride, boards, count) {
  await Promise.all(gws.map(stop))
  const t0 = performance.now()
  const next = await Promise.all(envs.map(start))
  const ready = (performance.now() - t0) / 1000
  const cpu0 = sum(next.map((gw) => cpuSeconds(gw.proc.pid)))
  const seconds = await boards.connect(shares(next, count, stride))
  const cpu = sum(next.map((gw) => cpuSeconds(gw.proc.pid))) - cpu0
  const whose = theGateways(next.length)
  say(
    `  ${count} boards connected and subscribed again in ${seconds.toFixed(1)} s from ready after restarting ${whose} (ready ${ready.toFixed(1)} s after start); CPU of ${whose} ${cpu.toFixed(1)} s (${((cpu / count) * 1000).toFixed(2)} ms per board); load ${load()}`
  )
  return { gws: next, seconds }
}

/** Phase 3 (and 4): 1,000 of the boards ask at 2,000/s while the rest stay connected, shared between the gateways. */
async function decisionsWithFleet(gws, boards) {
  await boards.drop(REQUESTERS)
  const urls = gws.map((gw) => `mqtt://127.0.0.1:${gw.mqttPort}`)
  const requesters = await inBatches(
    Array.from({ length: REQUESTERS }, (_, i) => i),
    50,
    (i) =>
      connectRequester(
        urls[i % urls.length],
        { clientId: `bench-${i}`, username: `bench-${i}`, password: PASSWORD, clean: false },
        { request: `boards/bench-${i}/access/req`, response: `boards/bench-${i}/access/res` }
      )
  )
  const ask = (i) => requesters[i % REQUESTERS].ask({ type: 'fob', id: `F-${i % REQUESTERS}` })
  for (let i = 0; i < REQUESTERS; i++) if (!(await ask(i)).allowed) throw new Error('bench key refused')
  // each gateway's own view, per stats interval: time spent deciding and how long its event loop lagged
  const since = Date.now()
  const seen = gws.map(() => [])
  const operators = await Promise.all(
    gws.map(async (gw, g) => {
      const op = await mqtt.connectAsync(urls[g], { clientId: `fleet-operator-${g}`, username: 'operator', password: SECRET, reconnectPeriod: 0 })
      op.on('message', (_t, payload) => seen[g].push(JSON.parse(payload.toString())))
      await op.subscribeAsync(`$SYS/${gw.id}/gateway/stats`, { qos: 0 })
      return op
    })
  )
  const cpu0 = sum(gws.map((gw) => cpuSeconds(gw.proc.pid)))
  const eld = monitorEventLoopDelay({ resolution: 5 })
  eld.enable()
  const open = await openLoop(ask, OFFERED_RATE * OFFERED_SECONDS, OFFERED_RATE)
  eld.disable()
  const cpu = sum(gws.map((gw) => cpuSeconds(gw.proc.pid))) - cpu0
  await Promise.all(operators.map((op) => op.endAsync()))
  const fresh = seen.map((list) => list.filter((st) => st.at > since))
  const connected = sum(fresh.map((list) => Math.max(...list.map((st) => st.boards)) - 1))
  const busy = fresh.flat().filter((st) => st.decisions.count > 0)
  const L = open.latencies
  const whose = theGateways(gws.length)
  say(
    `access decisions offered at ${OFFERED_RATE}/s for ${OFFERED_SECONDS} s from ${REQUESTERS} boards, ${connected} boards connected (achieved ${(L.length / open.seconds).toFixed(0)}/s)`
  )
  say(`  p50 ${ms(pct(L, 0.5))}  p99 ${ms(pct(L, 0.99))}  max ${ms(L.at(-1))}   target p99 < 10 ms: ${pct(L, 0.99) < 10 ? 'met' : 'NOT met'}`)
  say(`  CPU of ${whose} ${cpu.toFixed(2)} s of ${open.seconds.toFixed(2)} s; load ${load()} on ${cpus().length} cores`)
  say(
    `  inside ${whose} (worst interval): decision handling p99 ${ms(Math.max(...busy.map((st) => st.decisions.p99Us)) / 1000)}, event-loop delay p99 ${ms(Math.max(...busy.map((st) => st.eventLoopDelay.p99Ms)))}; the requesters' process event-loop delay p99 ${ms(eld.percentile(99) / 1e6)} (both add to every latency)`
  )
  await inBatches(requesters, 100, (r) => r.close())
}

execFileSync('bash', [fileURLToPath(new URL('../scripts/ensure-services.sh', import.meta.url))], { stdio: 'inherit' })
const worker = await startWorkerEnd([REQUESTERS, 1024, PROVISIONED, 0])
const boards = await startBoardProcesses()
const dirs = []
const env = async (extra = {}) => {
  const dir = await tempDir('gw-fleet-')
  dirs.push(dir)
  return { DATA_DIR: dir, WORKER_URL: worker.url, MQTT_PORT: '0', SYNC_INTERVAL_MS: '60000', GATEWAY_ID, STATS_INTERVAL_MS: '250', ...extra }
}
try {
  say(`fleet bench: up to ${ONE ? MAX : 0} boards on one gateway, ${CELL} on a cell of two; loopback, ${new Date().toISOString()}, load ${load()} on ${cpus().length} cores`)
  if (ONE) {
    say('without Redis')
    const plain = [await env()]
    let { gws, rows } = await memorySteps(plain, STEPS, 0, boards, null)
    sayMemory('without Redis', rows)
    say('gateway restart, without Redis (sessions were in memory: every board subscribes again)')
    ;({ gws } = await restartWith(gws, plain, 0, boards, MAX))
    await decisionsWithFleet(gws, boards)
    ;({ gws } = await restartWith(gws, plain, 0, boards, Math.min(10_000, MAX)))
    await Promise.all(gws.map(stop))
    await boards.drop(MAX)

    if (process.env.FLEET_REDIS !== 'off') {
      say('with Redis')
      const redis = await startRedis()
      try {
        const clustered = [await env({ REDIS_URL: redis.url })]
        ;({ gws, rows } = await memorySteps(clustered, STEPS, 0, boards, redis))
        sayMemory('with Redis', rows)
        say('gateway restart, with Redis (sessions and subscriptions kept in Redis)')
        ;({ gws } = await restartWith(gws, clustered, 0, boards, MAX))
        await Promise.all(gws.map(stop))
        await boards.drop(MAX)
      } finally {
        await redis.stop()
      }
    }
  }

  if (CELL > 0) {
    say(`a cell of two gateways sharing one Redis, ${CELL / 2} boards each at most`)
    const redis = await startRedis()
    try {
      const cell = [await env({ REDIS_URL: redis.url, GATEWAY_ID: 'gw-cell-a' }), await env({ REDIS_URL: redis.url, GATEWAY_ID: 'gw-cell-b' })]
      let { gws, rows } = await memorySteps(cell, CELL_STEPS, CELL / 2, boards, redis)
      sayMemory('a cell of two gateways with Redis', rows, 2)
      say('both gateways restarted at once (sessions and subscriptions kept in Redis)')
      ;({ gws } = await restartWith(gws, cell, CELL / 2, boards, CELL))
      await decisionsWithFleet(gws, boards)
      await Promise.all(gws.map(stop))
      await boards.drop(CELL)
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
