/**
 * Board secret hashes. The stored string records its algorithm and parameters, so the console can
 * change them later without breaking boards already provisioned:
 *   hmac-sha256$<salt b64>$<hash b64>              HMAC-SHA256(key = salt, message = secret): what the
 *                                                  console issues (decision 0110)
 *   pbkdf2-sha256$i=100000$<salt b64>$<hash b64>   earlier hashes, still verified
 *   scrypt$N=16384,r=8,p=1$<salt b64>$<hash b64>   still verified
 *
 * Board secrets are 32 random bytes chosen by the console, not passwords a person picks, so there is
 * nothing for a slow hash to protect: guessing one is hopeless at any speed. A keyed hash with a random
 * salt per record keeps a leaked replica from showing which boards share a secret, and costs
 * microseconds, so a gateway restart or a storm of bad CONNECTs costs no hashing worth measuring.
 */
import { pbkdf2, scrypt, randomBytes, timingSafeEqual, createHash, createHmac } from 'node:crypto'
import { promisify } from 'node:util'

const pbkdf2Async = promisify(pbkdf2)
/** @type {(password: import('node:crypto').BinaryLike, salt: Buffer, keylen: number, options: import('node:crypto').ScryptOptions) => Promise<Buffer>} */
const scryptAsync = promisify(scrypt)

export const HMAC_ALGORITHM = 'hmac-sha256'

/** @param {string} text */
function parseParams(text) {
  return Object.fromEntries(
    text.split(',').map((kv) => {
      const [k, v] = kv.split('=')
      return [k, Number(v)]
    })
  )
}

/**
 * The console's format (app/utils/secret-hash.server.ts computes the same string).
 * @param {string|Buffer} secret @param {Buffer} [salt] 16 random bytes unless given (test vectors)
 */
export function hmacHash(secret, salt = randomBytes(16)) {
  const hash = createHmac('sha256', salt).update(secret).digest()
  return `${HMAC_ALGORITHM}$${salt.toString('base64')}$${hash.toString('base64')}`
}

/**
 * @param {string} password
 * @param {{algorithm?: 'hmac-sha256'|'pbkdf2-sha256'|'scrypt', iterations?: number}} [opts]
 */
export async function hashSecret(password, { algorithm = HMAC_ALGORITHM, iterations = 100_000 } = {}) {
  if (algorithm === HMAC_ALGORITHM) return hmacHash(password)
  const salt = randomBytes(16)
  if (algorithm === 'scrypt') {
    const hash = await scryptAsync(password, salt, 32, { N: 16384, r: 8, p: 1 })
    return `scrypt$N=16384,r=8,p=1$${salt.toString('base64')}$${hash.toString('base64')}`
  }
  const hash = await pbkdf2Async(password, salt, iterations, 32, 'sha256')
  return `pbkdf2-sha256$i=${iterations}$${salt.toString('base64')}$${hash.toString('base64')}`
}

/** True for hashes that cost microseconds to check (no cache or thread pool needed). */
export const isFastHash = (stored) => typeof stored === 'string' && stored.startsWith(HMAC_ALGORITHM + '$')

/**
 * Checks an HMAC hash synchronously.
 * @param {string|Buffer} password @param {string} stored
 */
export function verifyFast(password, stored) {
  const parts = String(stored).split('$')
  if (parts.length !== 3 || parts[0] !== HMAC_ALGORITHM) return false
  const salt = Buffer.from(parts[1], 'base64')
  const expected = Buffer.from(parts[2], 'base64')
  if (salt.length < 8 || expected.length !== 32) return false
  const actual = createHmac('sha256', salt).update(password).digest()
  return timingSafeEqual(actual, expected)
}

/**
 * @param {string|Buffer} password
 * @param {string} stored
 * @returns {Promise<boolean>} false for a wrong password or an unreadable hash
 */
export async function verifySecret(password, stored) {
  if (isFastHash(stored)) return verifyFast(password, stored)
  const [algorithm, paramText, saltB64, hashB64] = String(stored).split('$')
  if (!paramText || !saltB64 || !hashB64) return false
  const params = parseParams(paramText)
  const salt = Buffer.from(saltB64, 'base64')
  const expected = Buffer.from(hashB64, 'base64')
  let actual
  if (algorithm === 'pbkdf2-sha256' && params.i > 0 && params.i <= 10_000_000) {
    actual = await pbkdf2Async(password, salt, params.i, expected.length, 'sha256')
  } else if (algorithm === 'scrypt' && params.N > 1 && params.r > 0 && params.p > 0) {
    actual = await scryptAsync(password, salt, expected.length, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 })
  } else {
    return false
  }
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * Remembers successful verifications of slow hashes (PBKDF2, scrypt) so a reconnect storm does not
 * cost one slow hash per board. Keyed by board, stored hash and a fast digest of the password, so a
 * changed secret or hash misses.
 */
export class VerifiedCache {
  #ok = new Map()
  constructor(max = 100_000) {
    this.max = max
  }
  /** @param {string} user @param {string} stored @param {string|Buffer} password */
  key(user, stored, password) {
    return user + '\0' + stored + '\0' + createHash('sha256').update(password).digest('base64')
  }

  has(k) {
    return this.#ok.has(k)
  }
  add(k) {
    if (this.#ok.size >= this.max) this.#ok.delete(this.#ok.keys().next().value)
    this.#ok.set(k, true)
  }
}
