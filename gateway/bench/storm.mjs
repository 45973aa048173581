/**
 * The bad-CONNECT storm in its own process (forked by auth.mjs), so that opening a thousand
 * connections does not delay the event loop of the process that times the good board's connects.
 * IPC: sends 'ready', then receives `{port, ids, count, inFlight, addresses}`, answers `{codes, seconds}`
 * and exits.
 */
import { badConnectStorm } from './auth.mjs'

process.send('ready')
process.once('message', async (/** @type {any} */ { port, ids, ...opts }) => {
  process.send(await badConnectStorm(port, ids, opts), () => process.exit(0))
})
