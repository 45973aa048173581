/** Shared test setup: a contract double, provisioned boards, a gateway in-process or as a child. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { randomUUID } from 'node:crypto'
import mqtt from 'mqtt'
import { hashSecret } from '../../src/password.js'
import { createGateway } from '../../src/gateway.js'
import { SimBoard } from '../../sim/sim-board.js'

export const SECRET = 'test-gateway-secret'

/** A full-access e-key window that is open at every instant the tests run. */
export const ALWAYS_OPEN = Object.freeze({
  kind: 'ekey',
  access: 'full',
  tz: 'UTC',
  startDate: '2026-01-01',
  endDate: null,
  days: [true, true, true, true, true, true, true],
  allDay: true,
  startTime: null,
  endTime: null,
  used: false
})
export const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url))

export const tempDir = (prefix = 'gw-test-') => mkdtemp(join(tmpdir(), prefix))
export const removeDir = (dir) => rm(dir, { recursive: true, force: true })

/** The same hash for every test board, in the format the console issues (hmac-sha256). */
let cachedHash
export async function boardHash() {
  cachedHash ??= await hashSecret('board-secret')
  return cachedHash
}

/**
 * Adds a device and its board credential to the double's feed.
 * @param {import('./worker-contract-double.js').WorkerContractDouble} worker
 */
export async function provisionBoard(worker, id, { companyId = 'ACME', deviceType = 'AB-200', groupIds = [] } = {}) {
  worker.change('device', 'upsert', id, deviceRecord(id, { companyId, deviceType, groupIds }))
  worker.change('boardCredential', 'upsert', id, { deviceId: id, hash: await boardHash() })
}

/** A device's feed record as provisionBoard writes it, with `over` applied (to change it later in a test). */
export const deviceRecord = (id, over = {}) => ({ id, companyId: 'ACME', name: `Door ${id}`, deviceType: 'AB-200', tz: 'Europe/Berlin', groupIds: [], active: true, ...over })

/** A company's lockdown record in the feed (lockdown mode over the whole company, nobody exempt), with `over` applied. */
export const lockdownRecord = (over = {}) => ({
  id: 'ACME',
  companyId: 'ACME',
  epoch: 1,
  active: true,
  mode: 'lockdown',
  scope: 'company',
  scopeIds: [],
  exemptUserIds: [],
  startedAt: Date.now(),
  endsAt: null,
  ...over
})

/** @param {{mqttPort: number}} gw */
export function board(gw, id, opts = {}) {
  return new SimBoard({ url: `mqtt://127.0.0.1:${gw.mqttPort}`, id, password: 'board-secret', ...opts })
}

/** In-process gateway on free ports, synced once before it is returned. */
export async function startGateway(worker, dataDir, opts = {}) {
  const gw = await createGateway({
    dataDir,
    workerUrl: worker.url,
    gatewaySecret: SECRET,
    mqttPort: 0,
    wsPort: 0,
    syncIntervalMs: 200,
    statsIntervalMs: 200,
    gatewayId: 'gw-test',
    ...opts
  })
  await gw.syncNow()
  return gw
}

/**
 * The gateway as a child process (for SIGKILL). Resolves once it printed its readiness line.
 * `stderr: 'pipe'` keeps its log lines on `proc.stderr` for the caller to read.
 * @param {Record<string, string>} env @param {{stderr?: 'inherit'|'pipe'}} [opts]
 * @returns {Promise<{proc: import('node:child_process').ChildProcess, mqttPort: number, exited: Promise<number|null>}>}
 */
export async function spawnGateway(env, { stderr = 'inherit' } = {}) {
  const proc = spawn(process.execPath, [MAIN], {
    env: { ...process.env, GATEWAY_SECRET: SECRET, WS_PORT: 'off', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', stderr]
  })
  const exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)))
  const orphanGuard = () => proc.kill('SIGKILL')
  process.once('exit', orphanGuard)
  exited.then(() => process.off('exit', orphanGuard))
  const lines = createInterface({ input: proc.stdout })
  const ready = await new Promise((resolve, reject) => {
    lines.once('line', (l) => resolve(JSON.parse(l)))
    proc.once('exit', (code) => reject(new Error(`gateway exited early with ${code}`)))
  })
  return { proc, mqttPort: ready.mqttPort, exited }
}

/** A tool's connection as the operator (the gateway secret), which may read `$SYS`. */
const operatorClient = (port) => mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: `op-${randomUUID()}`, username: 'operator', password: SECRET, reconnectPeriod: 0 })

/**
 * The first of the gateway's stats messages (`$SYS/{gatewayId}/gateway/stats`) that `accept` takes;
 * the retained one counts too.
 */
export async function gatewayStats(port, gatewayId, accept) {
  const op = await operatorClient(port)
  try {
    const found = new Promise((resolve) =>
      op.on('message', (_t, p) => {
        const s = JSON.parse(p.toString())
        if (accept(s)) resolve(s)
      })
    )
    await op.subscribeAsync(`$SYS/${gatewayId}/gateway/stats`, { qos: 0 })
    return await found
  } finally {
    await op.endAsync()
  }
}

/**
 * Drops a board's connection without DISCONNECT, so its persistent session stays, and resolves once the
 * gateway has let the client go (aedes announces it on `$SYS/{gatewayId}/disconnect/clients`).
 * @param {SimBoard} b @param {{mqttPort: number}} gw @param {string} gatewayId
 */
export async function dropConnection(b, gw, gatewayId) {
  const op = await operatorClient(gw.mqttPort)
  try {
    const gone = new Promise((resolve) =>
      op.on('message', (_t, p) => {
        if (p.toString() === b.id) resolve()
      })
    )
    await op.subscribeAsync(`$SYS/${gatewayId}/disconnect/clients`, { qos: 0 })
    b.kill()
    await gone
  } finally {
    await op.endAsync()
  }
}

/** Polls `fn` until it returns truthy, or fails after `timeoutMs`. */
export async function until(fn, { timeoutMs = 10_000, stepMs = 25, what = 'condition' } = {}) {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, stepMs))
  }
}
