#!/usr/bin/env node
/**
 * Starts the gateway from the environment:
 *   MQTT_PORT (1883), WS_PORT (8883, "off" disables), HOST (127.0.0.1), WORKER_URL (http://127.0.0.1:8787),
 *   GATEWAY_SECRET (required), GATEWAY_ID (gw-<hostname>), DATA_DIR (gateway/data),
 *   TLS_CERT + TLS_KEY (PEM files: MQTT over TLS on MQTTS_PORT, 8884), REDIS_URL (optional: cluster mode), SYNC_INTERVAL_MS (5000), COMMAND_INTERVAL_MS (2000), STATS_INTERVAL_MS (10000), LOG_LEVEL (info),
 *   FEED_WAKE ("off" closes the console's wake-up channel: changes then arrive at the poll interval),
 *   CONNECT_BACKOFF ("off" disables the back-off for failed CONNECTs: for measurements only).
 */
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { createGateway } from './gateway.js'

const env = process.env
if (!env.GATEWAY_SECRET) {
  process.stderr.write('GATEWAY_SECRET is required (the secret the Worker expects in Authorization: Bearer …)\n')
  process.exit(2)
}

const gw = await createGateway({
  host: env.HOST ?? '127.0.0.1',
  mqttPort: Number(env.MQTT_PORT ?? 1883),
  wsPort: env.WS_PORT === 'off' ? null : Number(env.WS_PORT ?? 8883),
  workerUrl: env.WORKER_URL ?? 'http://127.0.0.1:8787',
  gatewaySecret: env.GATEWAY_SECRET,
  gatewayId: env.GATEWAY_ID,
  dataDir: env.DATA_DIR ?? fileURLToPath(new URL('../data', import.meta.url)),
  tls: env.TLS_CERT && env.TLS_KEY ? { cert: readFileSync(env.TLS_CERT), key: readFileSync(env.TLS_KEY), port: Number(env.MQTTS_PORT ?? 8884) } : undefined,
  redisUrl: env.REDIS_URL || undefined,
  syncIntervalMs: env.SYNC_INTERVAL_MS ? Number(env.SYNC_INTERVAL_MS) : undefined,
  feedWake: env.FEED_WAKE !== 'off',
  commandIntervalMs: env.COMMAND_INTERVAL_MS ? Number(env.COMMAND_INTERVAL_MS) : undefined,
  statsIntervalMs: env.STATS_INTERVAL_MS ? Number(env.STATS_INTERVAL_MS) : undefined,
  boardStatusMs: env.BOARD_STATUS_MS ? Number(env.BOARD_STATUS_MS) : undefined,
  connectBackoff: env.CONNECT_BACKOFF === 'off' ? false : undefined
})

// Ready means caught up with the console when it is reachable; without it, decisions use the stored copy.
await gw.syncNow().catch((e) => gw.log.warn('initial sync failed, serving from the stored copy', { error: e.message }))

// Machine-readable readiness line for scripts and tests that spawn the gateway.
process.stdout.write(JSON.stringify({ ready: true, mqttPort: gw.mqttPort, mqttsPort: gw.mqttsPort, wsPort: gw.wsPort }) + '\n')

let closing = false
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    if (closing) return
    closing = true
    await gw.close()
    process.exit(0)
  })
}
