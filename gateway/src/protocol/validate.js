/**
 * Payload checks for every up message of PROTOCOL.md. Each returns the parsed message or throws a
 * ProtocolError whose code goes back to the board on its error topic.
 */
export class ProtocolError extends Error {
  /** @param {string} code @param {string} message @param {string} [corr] */
  constructor (code, message, corr) {
    super(message)
    this.code = code
    this.corr = corr
  }
}

const ID = /^[A-Za-z0-9._:-]{1,64}$/
export const EVENT_TYPES = new Set(['door.opened', 'door.closed', 'door.forced', 'door.heldOpen', 'sensor', 'battery', 'location', 'tamper', 'command.result'])
const CREDENTIAL_TYPES = new Set(['user', 'fob', 'phone'])

const bad = (message, corr) => { throw new ProtocolError('bad_payload', message, corr) }
const isObj = (x) => typeof x === 'object' && x !== null && !Array.isArray(x)
const isNum = (x) => typeof x === 'number' && Number.isFinite(x)
const isTime = (x) => Number.isSafeInteger(x) && x > 0
const optional = (x, check) => x === undefined || check(x)

/** @param {Buffer} payload */
export function parseJson (payload) {
  let msg
  try { msg = JSON.parse(payload.toString('utf8')) } catch { throw new ProtocolError('bad_json', 'payload is not JSON') }
  if (!isObj(msg)) throw new ProtocolError('bad_json', 'payload must be a JSON object')
  const corr = typeof msg.corr === 'string' ? msg.corr : undefined
  if (msg.v !== 1) throw new ProtocolError('unsupported_version', `v must be 1, got ${JSON.stringify(msg.v)}`, corr)
  return msg
}

export function accessRequest (m) {
  if (typeof m.corr !== 'string' || !ID.test(m.corr)) bad('corr must match [A-Za-z0-9._:-]{1,64}')
  if (!isObj(m.credential)) bad('credential must be an object', m.corr)
  if (!CREDENTIAL_TYPES.has(m.credential.type)) bad('credential.type must be one of user, fob, phone', m.corr)
  if (typeof m.credential.id !== 'string' || m.credential.id.length < 1 || m.credential.id.length > 128) bad('credential.id must be a string of 1-128 characters', m.corr)
  if (!optional(m.at, isTime)) bad('at must be epoch milliseconds', m.corr)
  return m
}

const EVENT_DATA = {
  sensor: (d) => typeof d.name === 'string' && isNum(d.value),
  battery: (d) => isNum(d.percent) && d.percent >= 0 && d.percent <= 100,
  location: (d) => isNum(d.lat) && isNum(d.lon) && Math.abs(d.lat) <= 90 && Math.abs(d.lon) <= 180,
  tamper: (d) => d.state === 'opened' || d.state === 'closed',
  'command.result': (d) => typeof d.cmd === 'string' && typeof d.ok === 'boolean'
}

export function event (m) {
  if (typeof m.id !== 'string' || !ID.test(m.id)) bad('id must match [A-Za-z0-9._:-]{1,64}')
  if (!EVENT_TYPES.has(m.type)) bad(`type must be one of ${[...EVENT_TYPES].join(', ')}`)
  if (!isTime(m.at)) bad('at must be epoch milliseconds')
  const data = m.data ?? {}
  if (!isObj(data)) bad('data must be an object')
  const check = EVENT_DATA[m.type]
  if (check && !check(data)) bad(`data does not fit event type ${m.type}`)
  return { ...m, data }
}

export function status (m) {
  if (typeof m.online !== 'boolean') bad('online must be a boolean')
  if (!optional(m.fw, (x) => typeof x === 'string' && x.length <= 32)) bad('fw must be a version string')
  return m
}

export function blockRequest (m) {
  if (typeof m.releaseId !== 'string' || !ID.test(m.releaseId)) bad('releaseId must be an id')
  if (typeof m.missing !== 'string') bad('missing must be a base64 bitmap')
  const missing = Buffer.from(m.missing, 'base64')
  if (!optional(m.max, (x) => Number.isInteger(x) && x >= 1 && x <= 256)) bad('max must be an integer 1-256')
  return { releaseId: m.releaseId, missing, max: m.max ?? 32 }
}

export function progress (m) {
  if (typeof m.releaseId !== 'string' || !ID.test(m.releaseId)) bad('releaseId must be an id')
  if (!Number.isInteger(m.received) || !Number.isInteger(m.blocks) || m.received < 0 || m.received > m.blocks) bad('received and blocks must be integers with received <= blocks')
  return m
}

export function result (m) {
  if (typeof m.id !== 'string' || !ID.test(m.id)) bad('id must match [A-Za-z0-9._:-]{1,64}')
  if (typeof m.releaseId !== 'string' || !ID.test(m.releaseId)) bad('releaseId must be an id')
  if (typeof m.ok !== 'boolean') bad('ok must be a boolean')
  if (!optional(m.error, (x) => typeof x === 'string' && x.length <= 200)) bad('error must be a short string')
  return m
}
