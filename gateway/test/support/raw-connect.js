/**
 * A bare MQTT CONNECT over TCP from a chosen local address (127.0.0.x), for the back-off tests and the
 * bench: mqtt.js cannot bind a source address, and a full client per attempt would weigh more than
 * the broker work being measured.
 */
import { connect as tcpConnect } from 'node:net'
import mqttPacket from 'mqtt-packet'

/**
 * Resolves with the CONNACK return code (0 accepted), or 'closed' when the connection ends first.
 * With `keep`, an accepted connection is handed back open (`{code, socket, parser}`); otherwise it is closed.
 * @param {{port: number, localAddress?: string, clientId: string, username?: string, password?: string,
 *   clean?: boolean, keep?: boolean, timeoutMs?: number, keepalive?: number,
 *   will?: {topic: string, payload: Buffer, qos: 0|1, retain: boolean}}} o
 */
export function rawConnect({ port, localAddress, clientId, username = clientId, password, clean = false, keep = false, timeoutMs = 30_000, keepalive = 60, will }) {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ port, host: '127.0.0.1', localAddress, noDelay: true })
    const parser = mqttPacket.parser()
    let done = false
    const finish = (v) => {
      if (done) return
      done = true
      clearTimeout(timer)
      if (keep && v === 0) return resolve({ code: 0, socket, parser })
      socket.destroy()
      resolve(keep ? { code: v, socket: null, parser: null } : v)
    }
    const timer = setTimeout(() => {
      socket.destroy()
      if (!done) {
        done = true
        reject(new Error(`no CONNACK for ${clientId} within ${timeoutMs} ms`))
      }
    }, timeoutMs)
    parser.on('packet', (p) => {
      if (p.cmd === 'connack') finish(p.returnCode)
    })
    socket.on('data', (d) => parser.parse(Buffer.from(d)))
    socket.on('error', () => finish('closed'))
    socket.on('close', () => finish('closed'))
    socket.on('connect', () => {
      socket.write(
        mqttPacket.generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clean,
          clientId,
          keepalive,
          username,
          will,
          password: password === undefined ? undefined : Buffer.from(password)
        })
      )
    })
  })
}
