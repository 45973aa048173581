/**
 * npm run bench:credentials — board-side verification of signed offline credentials in Node, one run:
 * decisions per second for the whole check (Ed25519 signature, claims, then the window through the
 * core) beside the window evaluation alone on the same credentials, and their ratio.
 *
 * The credentials are signed once up front (signing is the console's cost, not the board's); instants
 * are spread over a year, seeded, so every run measures the same work.
 */
import { decide } from '../src/access/core.js'
import { importKeySet, verifyCredential } from '../src/access/credential.js'
import { signingKey, jwksOf, sign, seconds } from '../test/support/credentials.js'

const CREDENTIALS = 200
const SECONDS = 3
const WINDOW = {
  kind: 'ekey',
  access: 'custom',
  tz: 'Europe/Madrid',
  startDate: '2026-11-01',
  endDate: '2027-12-31',
  days: [true, true, true, true, true, false, false],
  allDay: false,
  startTime: '08:00',
  endTime: '17:30',
  used: false
}
const DOOR = { id: '41', companyId: 'ACME' }

let seed = 42
const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296
const FROM = Date.parse('2026-11-23T00:00:00Z')

const key = await signingKey('bench')
const keys = await importKeySet(jwksOf(key))
const cases = await Promise.all(
  Array.from({ length: CREDENTIALS }, async (_, i) => {
    const at = FROM + Math.floor(rand() * 365 * 86_400_000)
    const claims = {
      jti: `c_${i}`,
      sub: '7',
      cid: 'ACME',
      key: { id: String(i), kind: 'ekey' },
      doors: ['41'],
      win: { ...WINDOW },
      iat: seconds('2026-11-01T00:00:00Z'),
      exp: seconds('2028-01-01T00:00:00Z')
    }
    return { at, claims, token: await sign(key, claims) }
  })
)

/** Runs `fn` over the cases for about SECONDS seconds; decisions per second and how many opened. */
async function measure(fn) {
  let n = 0
  let opened = 0
  const t0 = performance.now()
  const until = t0 + SECONDS * 1000
  while (performance.now() < until) {
    for (const c of cases) if ((await fn(c)).allowed) opened++
    n += cases.length
  }
  return { perSecond: Math.round(n / ((performance.now() - t0) / 1000)), opened: opened / n }
}

const windowOnly = await measure(async (c) => decide([{ id: c.claims.key.id, kind: 'ekey', window: c.claims.win }], c.at))
const full = await measure((c) => verifyCredential(c.token, { keys, door: DOOR, at: c.at }))
if (Math.abs(full.opened - windowOnly.opened) > 1e-9) throw new Error('verification and window evaluation disagree')

process.stdout.write(
  JSON.stringify({
    credentials: CREDENTIALS,
    windowOnlyPerSecond: windowOnly.perSecond,
    verifyPerSecond: full.perSecond,
    verifyCostVsWindow: +(windowOnly.perSecond / full.perSecond).toFixed(1),
    openedShare: +full.opened.toFixed(3),
    node: process.version
  }) + '\n'
)
