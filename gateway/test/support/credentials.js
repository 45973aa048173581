/** Test signing of offline credentials, in the console's format (app/services/credentials.server.ts). */
import { CompactSign, exportJWK, generateKeyPair } from 'jose'

/** A fresh Ed25519 signing key with its public JWK. */
export async function signingKey(kid) {
  const { privateKey } = await generateKeyPair('Ed25519', { extractable: true })
  const jwk = await exportJWK(privateKey)
  return { kid, privateKey, publicJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid, alg: 'EdDSA', use: 'sig' } }
}

export const jwksOf = (...keys) => ({ keys: keys.map((k) => k.publicJwk) })

/** @param {{kid: string, privateKey: any}} key @param {object} claims */
export const sign = (key, claims) =>
  new CompactSign(new TextEncoder().encode(JSON.stringify({ v: 1, ...claims }))).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'kac+jws' }).sign(key.privateKey)

export const seconds = (iso) => Math.floor(Date.parse(iso) / 1000)
