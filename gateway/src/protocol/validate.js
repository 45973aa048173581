/**
 * Payload checks for every up message of PROTOCOL.md. Each returns the parsed message or throws a
 * ProtocolError whose code goes back to the board on its error topic.
 */
export class ProtocolError extends Error {
  /** @param {string} code @param {string} message @param {string} [corr] */
  constructor(code, message, corr) {
    super(message)
    this.code = code
    this.corr = corr
  }
}

const ID = /^[A-Za-z0-9._:-]{1,64}$/
/** Board event types (PROTOCOL.md "event"); `sensor` is version 1's first form, read as a measurement. */
export const EVENT_TYPES = new Set([
  'door.opened',
  'door.closed',
  'door.forced',
  'door.heldOpen',
  'sensor.contact',
  'sensor.measurement',
  'sensor',
  'battery',
  'location',
  'tamper',
  'panic.pressed',
  'command.result',
  'access.granted',
  'access.denied'
])
const CREDENTIAL_TYPES = new Set(['user', 'fob', 'phone', 'signed'])
/** Deepest nesting of objects and arrays in an up payload (the message itself is level 1). */
export const MAX_DEPTH = 8
export const MAX_CREDENTIAL_ID = 128
/** A signed credential (PROTOCOL.md, "Signed credentials") travels whole as the credential's `id`. */
export const MAX_SIGNED_CREDENTIAL = 8192

const bad = (message, corr) => {
  throw new ProtocolError('bad_payload', message, corr)
}
const isObj = (x) => typeof x === 'object' && x !== null && !Array.isArray(x)
const isNum = (x) => typeof x === 'number' && Number.isFinite(x)
const isTime = (x) => Number.isSafeInteger(x) && x > 0
const optional = (x, check) => x === undefined || check(x)
const isText = (max) => (x) => typeof x === 'string' && x.length >= 1 && x.length <= max

/** Whether `root` nests objects/arrays deeper than `max` levels; iterative, so any depth is safe to ask. */
function deeperThan(root, max) {
  const stack = [root, 1]
  while (stack.length) {
    const depth = stack.pop()
    const v = stack.pop()
    if (depth > max) return true
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof x === 'object' && x !== null) stack.push(x, depth + 1)
    }
  }
  return false
}

/** @param {Buffer} payload */
export function parseJson(payload) {
  let msg
  try {
    msg = JSON.parse(payload.toString('utf8'))
  } catch {
    throw new ProtocolError('bad_json', 'payload is not JSON')
  }
  if (!isObj(msg)) throw new ProtocolError('bad_json', 'payload must be a JSON object')
  const corr = typeof msg.corr === 'string' ? msg.corr : undefined
  // Checked before anything looks inside: a payload nested thousands deep would overflow the stack
  // of whatever serializes it later (the event store), so it must never get that far.
  if (deeperThan(msg, MAX_DEPTH)) bad(`payload nests objects and arrays deeper than ${MAX_DEPTH} levels`, corr)
  if (msg.v !== 1) throw new ProtocolError('unsupported_version', `v must be 1, got ${JSON.stringify(msg.v)}`, corr)
  return msg
}

/**
 * @returns {{corr: string, credential: {type: string, id: string}, at?: number}} only the known
 *   fields: the decision's record stores exactly these
 */
export function accessRequest(m) {
  if (typeof m.corr !== 'string' || !ID.test(m.corr)) bad('corr must match [A-Za-z0-9._:-]{1,64}')
  if (!isObj(m.credential)) bad('credential must be an object', m.corr)
  if (!CREDENTIAL_TYPES.has(m.credential.type)) bad('credential.type must be one of user, fob, phone, signed', m.corr)
  const max = m.credential.type === 'signed' ? MAX_SIGNED_CREDENTIAL : MAX_CREDENTIAL_ID
  if (!isText(max)(m.credential.id)) bad(`credential.id must be a string of 1-${max} characters`, m.corr)
  if (!optional(m.at, isTime)) bad('at must be epoch milliseconds', m.corr)
  return { corr: m.corr, credential: { type: m.credential.type, id: m.credential.id }, ...(m.at !== undefined ? { at: m.at } : {}) }
}

/**
 * The data fields each event type may carry: `[field, check, required]`. Only these are stored;
 * anything else a board sends is dropped (boards may add fields, the gateway keeps what it knows).
 */
const door = [['durationMs', (x) => isNum(x) && x >= 0, false]]
const measurement = [
  ['name', (x) => typeof x === 'string' && ID.test(x) && x.length <= 32, true],
  ['value', isNum, true],
  ['unit', isText(16), false]
]
/** A decision a board took alone on a signed credential (PROTOCOL.md, "Signed credentials"), reported later. */
const offlineDecision = [
  ['credential', (x) => isObj(x) && x.type === 'signed' && typeof x.id === 'string' && x.id.length > 0 && x.id.length <= 128, true],
  ['userId', (x) => typeof x === 'string' && ID.test(x), true],
  ['keyId', (x) => typeof x === 'string' && ID.test(x), true],
  ['keyKind', (x) => x === 'ekey' || x === 'group' || x === 'pass', true],
  ['code', (x) => typeof x === 'string' && /^[a-z_]{1,40}$/.test(x), false]
]
const EVENT_DATA = {
  'access.granted': offlineDecision,
  'access.denied': offlineDecision,
  'door.opened': door,
  'door.closed': door,
  'door.forced': door,
  'door.heldOpen': door,
  'sensor.contact': [
    ['input', (x) => x === 1 || x === 2, true],
    ['state', (x) => x === 'open' || x === 'closed', true]
  ],
  'sensor.measurement': measurement,
  sensor: measurement,
  battery: [
    ['percent', (x) => isNum(x) && x >= 0 && x <= 100, true],
    ['volts', (x) => isNum(x) && x >= 0, false]
  ],
  location: [
    ['lat', (x) => isNum(x) && Math.abs(x) <= 90, true],
    ['lon', (x) => isNum(x) && Math.abs(x) <= 180, true],
    ['accuracy', (x) => isNum(x) && x >= 0, false]
  ],
  tamper: [['state', (x) => x === 'opened' || x === 'closed', true]],
  // a wired panic button; `input`: which of the board's inputs, when it has several
  'panic.pressed': [['input', (x) => Number.isSafeInteger(x) && x >= 1 && x <= 8, false]],
  'command.result': [
    ['cmd', (x) => typeof x === 'string' && ID.test(x), true],
    ['ok', (x) => typeof x === 'boolean', true],
    ['error', isText(200), false]
  ]
}

/** @returns {{id: string, type: string, at: number, data: object}} the known fields only */
export function event(m) {
  if (typeof m.id !== 'string' || !ID.test(m.id)) bad('id must match [A-Za-z0-9._:-]{1,64}')
  if (!EVENT_TYPES.has(m.type)) bad(`type must be one of ${[...EVENT_TYPES].join(', ')}`)
  if (!isTime(m.at)) bad('at must be epoch milliseconds')
  const given = m.data ?? {}
  if (!isObj(given)) bad('data must be an object')
  const data = {}
  for (const [field, check, required] of EVENT_DATA[m.type]) {
    const x = given[field]
    if (x === undefined && !required) continue
    if (!check(x)) bad(`data.${field} does not fit event type ${m.type}`)
    data[field] = x
  }
  // Version 1's `sensor` carried a measurement (`{"name":"temp","value":21.5}`): it is one.
  return { id: m.id, type: m.type === 'sensor' ? 'sensor.measurement' : m.type, at: m.at, data }
}

const TZDATA = /^\d{4}[a-z]{1,2}$/

export function status(m) {
  if (typeof m.online !== 'boolean') bad('online must be a boolean')
  if (!optional(m.fw, (x) => typeof x === 'string' && x.length <= 32)) bad('fw must be a version string')
  if (!optional(m.clock, (x) => Number.isSafeInteger(x) && x > 0)) bad('clock must be epoch milliseconds')
  if (!optional(m.tzdata, (x) => typeof x === 'string' && TZDATA.test(x))) bad('tzdata must be a tz database version such as 2025b')
  return m
}

export function blockRequest(m) {
  if (typeof m.releaseId !== 'string' || !ID.test(m.releaseId)) bad('releaseId must be an id')
  if (typeof m.missing !== 'string') bad('missing must be a base64 bitmap')
  const missing = Buffer.from(m.missing, 'base64')
  if (!optional(m.max, (x) => Number.isInteger(x) && x >= 1 && x <= 256)) bad('max must be an integer 1-256')
  return { releaseId: m.releaseId, missing, max: m.max ?? 32 }
}

export function progress(m) {
  if (typeof m.releaseId !== 'string' || !ID.test(m.releaseId)) bad('releaseId must be an id')
  if (!Number.isInteger(m.received) || !Number.isInteger(m.blocks) || m.received < 0 || m.received > m.blocks) bad('received and blocks must be integers with received <= blocks')
  return m
}

export function result(m) {
  if (typeof m.id !== 'string' || !ID.test(m.id)) bad('id must match [A-Za-z0-9._:-]{1,64}')
  if (typeof m.releaseId !== 'string' || !ID.test(m.releaseId)) bad('releaseId must be an id')
  if (typeof m.ok !== 'boolean') bad('ok must be a boolean')
  if (!optional(m.error, (x) => typeof x === 'string' && x.length <= 200)) bad('error must be a short string')
  return m
}
