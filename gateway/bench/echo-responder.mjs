/**
 * The far end of the mosquitto baseline: answers every `bench/{i}/req` with the same payload on
 * `bench/{i}/res`. Runs as its own process, as a service behind a relaying broker would.
 */
import mqtt from 'mqtt'

const client = await mqtt.connectAsync(process.argv[2], { clientId: 'echo-responder', clean: true, reconnectPeriod: 0 })
client.on('message', (topic, payload) => {
  client.publish(topic.slice(0, -3) + 'res', payload, { qos: 0 })
})
await client.subscribeAsync('bench/+/req', { qos: 1 })
process.stdout.write('ready\n')
process.on('SIGTERM', () => client.end(true, () => process.exit(0)))
