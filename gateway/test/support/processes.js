/** Debian's redis-server and mosquitto as foreground child processes on 127.0.0.1, for tests and the bench. */
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { existsSync } from 'node:fs'

// Debian puts mosquitto in /usr/sbin, which a non-root PATH often lacks.
const binary = (name, ...dirs) => dirs.map((d) => `${d}/${name}`).find((p) => existsSync(p)) ?? name
const REDIS = binary('redis-server', '/usr/bin', '/usr/sbin')
const MOSQUITTO = binary('mosquitto', '/usr/sbin', '/usr/bin')

export async function freePort() {
  const s = createServer()
  await new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve()))
  const { port } = /** @type {import('node:net').AddressInfo} */ (s.address())
  await new Promise((resolve) => s.close(resolve))
  return port
}

/** Spawns `cmd` and resolves once a line of its output matches `ready`. */
function startUntil(cmd, args, ready) {
  const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise((resolve) => proc.once('exit', resolve))
  // A test that fails or is cut short must not leave a server behind.
  const orphanGuard = () => proc.kill('SIGKILL')
  process.once('exit', orphanGuard)
  exited.then(() => process.off('exit', orphanGuard))
  return new Promise((resolve, reject) => {
    let out = ''
    let started = false
    const onData = (d) => {
      // Past readiness the output is only drained: re-testing an ever-growing string per chunk cost the
      // bench's process more CPU than the broker it was measuring.
      if (started) return
      out += d
      if (ready.test(out)) {
        started = true
        resolve({
          proc,
          stop: () => {
            proc.kill('SIGTERM')
            return exited
          }
        })
      }
    }
    proc.stdout.on('data', onData)
    proc.stderr.on('data', onData)
    proc.once('error', reject)
    proc.once('exit', (code) => reject(new Error(`${cmd} exited with ${code}: ${out.slice(-500)}`)))
  })
}

export async function startRedis() {
  const port = await freePort()
  const r = await startUntil(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], /Ready to accept connections/)
  return { ...r, url: `redis://127.0.0.1:${port}` }
}

export async function startMosquitto() {
  const port = await freePort()
  const conf = join(tmpdir(), `mosquitto-${port}.conf`)
  await writeFile(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\nset_tcp_nodelay true\n`)
  // not -v: logging every message would slow the relay the bench compares the gateway with
  const r = await startUntil(MOSQUITTO, ['-c', conf], /running|Opening ipv4 listen socket/)
  return { ...r, url: `mqtt://127.0.0.1:${port}` }
}
