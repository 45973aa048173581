#!/usr/bin/env node
/**
 * Board simulator CLI: `npm run board -- --id dev_1 --password … [action options]`.
 * Run with --help for the options.
 */
import { parseArgs } from 'node:util'
import { SimBoard } from './sim-board.js'
import { verifyMain } from './verify.js'

if (process.argv[2] === 'verify') process.exit(await verifyMain(process.argv.slice(3)))

const HELP = `Simulated access board (PROTOCOL.md v1) over a real MQTT connection.

usage: npm run board -- --id <board id> --password=<board secret> [options]   (the = form: a secret may start with '-')
       npm run board -- verify --jwks <file> --door <id> --at <instant> --credential <token>
                       (offline verification of a signed credential; verify --help for details)

connection
  --url <mqtt url>        broker address (default mqtt://127.0.0.1:1883, or ws://… for WebSocket); a
                          redirect to another cell (PROTOCOL.md, "Cells and redirects") is followed
  --fw <version>          installed firmware version reported in status (default 1.0.0)
  --clock-offset <ms>     run the board's clock this far from the host's (status \`clock\`; the gateway
                          flags more than 30 s and sends its time, which the board then takes)
  --tzdata <version>      the time-zone data version the status reports, e.g. 2019c (flagged when older
                          than the core's)
  --clean                 clean session (default: persistent session, as real boards use)
  --wait <seconds>        keep retrying the connection this long, like a board waiting for its
                          gateway (default 30)

actions (any combination; they run in this order)
  --access <type:id>      ask for access, e.g. user:u1, fob:F-100, phone:P-1 (repeatable)
  --present <token>       a signed credential presented by a phone (PROTOCOL.md, "Signed credentials"):
                          the gateway verifies and decides it and records the decision (repeatable)
  --alone <token>         a signed credential decided by the board itself, as one cut off from its
                          gateway does: with the keys, company and revocation list ("revoked") of
                          the configuration it received; the decision is reported as an event (repeatable)
  --event <type[:json]>   send an event, e.g. door.opened or 'battery:{"percent":40}' (repeatable)
  --events <n>            send n sensor readings as fast as the PUBACKs allow
  --firmware              download the offered firmware, verify SHA-256, report the result
  --interrupt <n,n,…>     cut the connection after each of these many blocks, then resume
  --corrupt <block>       flip a byte of this block when it arrives (the install must be refused)
  --listen <seconds>      stay connected and print what arrives (config, schedule, commands)
  --every <seconds>       while listening, repeat the --access and --event actions at this period
  --obey                  while listening, carry out each command and answer it with a command.result
                          event (ok, or "expired" past its expiresAt)

  --help                  this text

Output is one JSON line per result on stdout.`

const { values: o } = parseArgs({
  options: {
    url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
    id: { type: 'string' },
    password: { type: 'string' },
    fw: { type: 'string', default: '1.0.0' },
    clean: { type: 'boolean', default: false },
    'clock-offset': { type: 'string', default: '0' },
    tzdata: { type: 'string' },
    access: { type: 'string', multiple: true, default: [] },
    present: { type: 'string', multiple: true, default: [] },
    alone: { type: 'string', multiple: true, default: [] },
    event: { type: 'string', multiple: true, default: [] },
    events: { type: 'string' },
    firmware: { type: 'boolean', default: false },
    interrupt: { type: 'string' },
    corrupt: { type: 'string' },
    listen: { type: 'string' },
    every: { type: 'string' },
    obey: { type: 'boolean', default: false },
    wait: { type: 'string', default: '30' },
    help: { type: 'boolean', default: false }
  }
})

if (o.help || !o.id || !o.password) {
  process.stdout.write(HELP + '\n')
  process.exit(o.help ? 0 : 2)
}

const out = (x) => process.stdout.write(JSON.stringify(x) + '\n')
const make = () => new SimBoard({ url: o.url, id: o.id, password: o.password, fw: o.fw, clean: o.clean, clockOffsetMs: Number(o['clock-offset']), tzdata: o.tzdata })

/** Connects, retrying while the gateway is not up yet or does not know this board yet. */
async function connect() {
  const until = Date.now() + Number(o.wait) * 1000
  for (;;) {
    const b = make()
    try {
      return await b.connect()
    } catch (e) {
      b.kill()
      if (Date.now() > until) throw e
      out({ waiting: o.id, error: e.message })
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
}

let board = await connect().catch((e) => {
  out({ error: e.message })
  process.exit(1)
})
out({ connected: o.id, sessionPresent: board.sessionPresent })

async function actions() {
  for (const a of o.access) {
    const [type, ...rest] = a.split(':')
    const res = await board.requestAccess({ type: /** @type {'user'|'fob'|'phone'} */ (type), id: rest.join(':') })
    out({ access: a, allowed: res.allowed, key: res.key, ...(res.allowed ? {} : { code: res.code, nextOpen: res.nextOpen }), reason: res.reason })
  }
  for (const token of o.present) {
    const res = await board.requestAccess({ type: 'signed', id: token })
    out({ present: token.slice(0, 16) + '…', allowed: res.allowed, key: res.key, ...(res.allowed ? {} : { code: res.code }), reason: res.reason })
  }
  if (o.alone.length) await board.next('config', { timeoutMs: 5000 })
  for (const token of o.alone) {
    const d = await board.decideOffline(token)
    await board.reportOffline(d)
    out({ alone: token.slice(0, 16) + '…', allowed: d.allowed, reason: d.reason })
  }
  for (const e of o.event) {
    const i = e.indexOf(':')
    const type = i < 0 ? e : e.slice(0, i)
    const data = i < 0 ? {} : JSON.parse(e.slice(i + 1))
    out({ event: type, id: await board.sendEvent(type, data), stored: true })
  }
}
await actions()

if (o.events) {
  const n = Number(o.events)
  const t0 = performance.now()
  for (let i = 0; i < n; i++) await board.sendEvent('sensor.measurement', { name: 'sim', value: i })
  const s = (performance.now() - t0) / 1000
  out({ events: n, seconds: +s.toFixed(3), perSecond: Math.round(n / s) })
}

if (o.firmware) {
  const offer = await board.next('fw/offer', { timeoutMs: 10_000 }).catch(() => null)
  if (!offer) {
    out({ firmware: 'no offer' })
  } else {
    const cuts = o.interrupt ? o.interrupt.split(',').map(Number) : []
    let state = { parts: [], missing: undefined }
    const t0 = performance.now()
    for (const stopAfterBlocks of cuts) {
      state = await board.download({ offer, ...state, stopAfterBlocks })
      out({ firmware: offer.releaseId, interruptedAfterBlocks: stopAfterBlocks })
      board.kill()
      board = await connect()
    }
    const r = await board.download({ offer, ...state, corruptBlock: o.corrupt === undefined ? -1 : Number(o.corrupt) })
    out({ firmware: offer.releaseId, version: offer.version, ok: r.ok, error: r.error, seconds: +((performance.now() - t0) / 1000).toFixed(3) })
  }
}

/** Carries out a command (a simulated door does nothing) and reports it, as PROTOCOL.md's "command" asks. */
async function obey(msg) {
  const expired = typeof msg.expiresAt === 'number' && msg.expiresAt <= Date.now()
  const data = expired ? { cmd: msg.id, ok: false, error: 'expired' } : { cmd: msg.id, ok: true }
  await board.sendEvent('command.result', data)
  out({ command: msg.id, cmd: msg.cmd, ok: data.ok })
}

if (o.listen) {
  board.on('message', (name, msg) => out({ topic: name, msg }))
  if (o.obey) board.on('cmd', (msg) => obey(msg).catch((e) => out({ error: e.message })))
  const repeat = o.every ? setInterval(() => actions().catch((e) => out({ error: e.message })), Number(o.every) * 1000) : null
  await new Promise((resolve) => setTimeout(resolve, Number(o.listen) * 1000))
  clearInterval(repeat)
}

await board.close()
