/**
 * The board simulator's offline verify mode (`npm run board -- verify …`): what a board does with a
 * credential presented over Bluetooth while it has no network. It reads the published keys, its own
 * door (and, when given, company and groups), the revocations it last heard of and the one-time
 * credentials it already spent, and prints one JSON line `{"allowed": bool, "reason": "<code>"}`.
 */
import { readFile, appendFile, writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { importKeySet, isOneTime, revokedBy, verifyCredential } from '../src/access/credential.js'
import { acceptLockdownState } from '../src/access/lockdown-state.js'

export const VERIFY_HELP = `Offline verification of a signed credential, as a board does it with no network.

usage: npm run board -- verify --jwks <file> --door <id> --at <ISO instant> --credential <token> [options]

  --jwks <file>        the published keys (GET /.well-known/keyless-credential-keys.json), or a board
                       configuration carrying them as "credentialKeys" (and "companyId", "groupIds",
                       and its revocation list as "revoked")
  --door <id>          this board's device id
  --at <instant>       the board's clock, ISO-8601 (e.g. 2027-03-28T01:30:00+01:00)
  --credential <jws>   the presented credential (compact JWS)
  --company <code>     this board's company code (taken from the configuration file when it has one)
  --group <id>         a group this door belongs to (repeatable)
  --biometric-required the company requires biometrics: a credential without the "uv" claim is refused
                       (taken from the configuration file's "biometricRequired" when it has one)
  --revoked <file>     the revocation list the board last received: the configuration's "revoked" array,
                       [{"sub"|"key"|"pid"|"cid": "<id>", "before": <epoch s>}, …], or a configuration
                       carrying it (instead of the one in --jwks)
  --spent <file>       the board's memory of spent one-time credentials (one-time e-keys, one-entry
                       visitor passes), one id a line; a granted one is appended (created when missing)
  --lockdown <file>    the board's kept lockdown state (JSON; absent or missing: it knows none)
  --lockdown-state <jws>  a signed lockdown state the phone presents with the credential: taken when it
                       is the company's and newer than the kept one (then written to --lockdown, when given)

Output: {"allowed": true|false, "reason": "<code>"} (codes: PROTOCOL.md, "Signed credentials"), with
"lockdownState": "taken" or why not, when one was presented.`

const readJson = async (file) => JSON.parse(await readFile(file, 'utf8'))
async function readLines(file) {
  try {
    return new Set((await readFile(file, 'utf8')).split('\n').filter(Boolean))
  } catch (e) {
    if (e.code === 'ENOENT') return new Set()
    throw e
  }
}

/** @param {string[]} argv the arguments after `verify` @returns {Promise<number>} exit code */
export async function verifyMain(argv) {
  const { values: o } = parseArgs({
    args: argv,
    options: {
      jwks: { type: 'string' },
      door: { type: 'string' },
      at: { type: 'string' },
      credential: { type: 'string' },
      company: { type: 'string' },
      group: { type: 'string', multiple: true },
      'biometric-required': { type: 'boolean', default: false },
      revoked: { type: 'string' },
      spent: { type: 'string' },
      lockdown: { type: 'string' },
      'lockdown-state': { type: 'string' },
      help: { type: 'boolean', default: false }
    }
  })
  const at = o.at ? Date.parse(o.at) : NaN
  if (o.help || !o.jwks || !o.door || !o.credential || Number.isNaN(at)) {
    process.stdout.write(VERIFY_HELP + '\n')
    return o.help ? 0 : 2
  }
  const file = await readJson(o.jwks)
  const keys = await importKeySet(file.credentialKeys ?? file)
  const door = {
    id: o.door,
    companyId: o.company ?? file.companyId,
    groupIds: o.group ?? file.groupIds,
    biometricRequired: o['biometric-required'] || file.biometricRequired === true
  }
  const revoked = o.revoked ? await readJson(o.revoked) : file
  const spent = o.spent ? await readLines(o.spent) : new Set()
  let lockdown = o.lockdown ? await readJson(o.lockdown).catch((e) => (e.code === 'ENOENT' ? null : Promise.reject(e))) : null
  let taken
  if (o['lockdown-state']) {
    const r = await acceptLockdownState(o['lockdown-state'], { keys, companyId: door.companyId, known: lockdown })
    taken = r.reason ?? 'taken'
    if (r.state) {
      lockdown = r.state
      if (o.lockdown) await writeFile(o.lockdown, JSON.stringify(lockdown))
    }
  }
  const d = await verifyCredential(o.credential, {
    keys,
    door,
    at,
    revoked: revokedBy(Array.isArray(revoked) ? revoked : revoked?.revoked),
    spent: (c) => spent.has(c.jti) || spent.has(`key:${c.key.id}`),
    lockdown
  })
  if (d.allowed && o.spent && d.claims && isOneTime(d.claims)) await appendFile(o.spent, `${d.claims.jti}\nkey:${d.claims.key.id}\n`)
  process.stdout.write(JSON.stringify({ allowed: d.allowed, reason: d.reason, ...(taken ? { lockdownState: taken } : {}) }) + '\n')
  return 0
}
