/**
 * One request/response client, the same code on both sides of the comparison: a board asking the
 * gateway for access, and a client asking mosquitto's echo. Only the server differs, so the client
 * process costs both sides the same CPU per request.
 */
import mqtt from 'mqtt'

/**
 * @param {string} url
 * @param {{clientId: string, username?: string, password?: string, clean?: boolean}} identity
 * @param {{request: string, response: string}} topics
 * @returns {Promise<{ask: (credential: object) => Promise<any>, close: () => Promise<void>}>}
 *   ask resolves with the parsed answer (rejects after 30 s)
 */
export async function connectRequester(url, identity, topics) {
  const client = await mqtt.connectAsync(url, { ...identity, reconnectPeriod: 0, connectTimeout: 60_000 })
  const waiting = new Map()
  client.on('message', (_t, payload) => {
    const msg = JSON.parse(payload.toString())
    waiting.get(msg.corr)?.(msg)
    waiting.delete(msg.corr)
  })
  await client.subscribeAsync(topics.response, { qos: 1 })
  let n = 0
  return {
    ask: (credential) =>
      new Promise((resolve, reject) => {
        const corr = `${identity.clientId}-${++n}`
        const timer = setTimeout(() => {
          waiting.delete(corr)
          reject(new Error(`request ${corr} timed out`))
        }, 30_000)
        waiting.set(corr, (msg) => {
          clearTimeout(timer)
          resolve(msg)
        })
        client.publish(topics.request, JSON.stringify({ v: 1, corr, credential, at: Date.now() }), { qos: 1 })
      }),
    close: () => client.endAsync()
  }
}
