/**
 * What bench.mjs and fleet.mjs both use: percentiles, CPU and memory of a process (Linux /proc), an
 * open-loop request driver, and the Worker end (bench/worker-end.mjs) as its own process.
 */
import { readFileSync } from 'node:fs'
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const say = (s) => process.stdout.write(s + '\n')
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]
export const ms = (x) => x.toFixed(2) + ' ms'

/** CPU seconds a process has used so far, to show where the time goes. */
export const cpuSeconds = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(f[11]) + Number(f[12])) / 100
}

/** A process's resident memory in bytes. */
export const rssBytes = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024

export async function inBatches(items, size, fn) {
  const out = []
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))))
  return out
}

/** Sends requests at a fixed offered rate (open loop) and returns sorted latencies. */
export async function openLoop(send, count, rate) {
  const latencies = []
  const pending = []
  const t0 = performance.now()
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / rate
    const wait = due - performance.now()
    if (wait > 1) await sleep(wait)
    const start = performance.now()
    pending.push(send(i).then(() => latencies.push(performance.now() - start)))
  }
  await Promise.all(pending)
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - t0) / 1000 }
}

/**
 * Forks the Worker end and waits until it listens.
 * @param {number[]} args bench boards, firmware bytes, hmac boards (`rc-<i>`), PBKDF2 boards (`pb-<i>`)
 */
export async function startWorkerEnd(args) {
  const proc = fork(fileURLToPath(new URL('./worker-end.mjs', import.meta.url)), args.map(String))
  const exited = new Promise((resolve) => proc.once('exit', resolve))
  const next = () =>
    new Promise((resolve, reject) => {
      proc.once('message', resolve)
      proc.once('exit', (code) => reject(new Error(`Worker end exited with ${code}`)))
    })
  const { url } = await next()
  return {
    url,
    pid: proc.pid,
    async rows() {
      proc.send('rows')
      return (await next()).rows
    },
    close() {
      proc.disconnect()
      return exited
    }
  }
}
