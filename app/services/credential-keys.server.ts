/**
 * The keys that sign offline credentials. `CREDENTIAL_SIGNING_KEYS` (a Worker secret) is a JSON array of
 * Ed25519 private JWKs, each with a `kid`. The first one signs; every one of them is published, so a
 * rotation is: put the new key first, keep the old one until the last credential it signed has expired
 * (the longest credential life is 24 hours, the largest offline reconnect setting), then drop it.
 */
import { importJWK, type JWK } from "jose";
import { ServiceError } from "~/utils/errors.server";

export type SigningKey = { kid: string; key: CryptoKey | Uint8Array };
export type CredentialKeys = { signer: SigningKey; jwks: { keys: JWK[] } };

export const NOT_CONFIGURED = "Offline credentials are not configured on this server";
const KID = /^[A-Za-z0-9._:-]{1,64}$/;

let cached: { raw: string; keys: Promise<CredentialKeys> } | null = null;

async function parse(raw: string): Promise<CredentialKeys> {
  const list: unknown = JSON.parse(raw);
  if (!Array.isArray(list) || list.length === 0) throw new Error("CREDENTIAL_SIGNING_KEYS must be a non-empty JSON array of JWKs");
  const keys = list.map((jwk: JWK) => {
    if (jwk?.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.d !== "string" || typeof jwk.x !== "string" || !KID.test(String(jwk.kid ?? ""))) {
      throw new Error("CREDENTIAL_SIGNING_KEYS: every key must be an Ed25519 private JWK with a kid of 1-64 characters [A-Za-z0-9._:-]");
    }
    return jwk;
  });
  if (new Set(keys.map((k) => k.kid)).size !== keys.length) throw new Error("CREDENTIAL_SIGNING_KEYS: kids must be unique");
  const first = keys[0];
  return {
    signer: { kid: first.kid!, key: await importJWK({ kty: "OKP", crv: "Ed25519", x: first.x, d: first.d }, "EdDSA") },
    jwks: { keys: keys.map((k) => ({ kty: "OKP", crv: "Ed25519", x: k.x, kid: k.kid, alg: "EdDSA", use: "sig" })) },
  };
}

/** The configured keys, or null when none are configured. A malformed secret is an error of the deployment, reported as one. */
export function credentialKeys(env: Env): Promise<CredentialKeys> | null {
  const raw = env.CREDENTIAL_SIGNING_KEYS?.trim();
  if (!raw) return null;
  if (cached?.raw !== raw) cached = { raw, keys: parse(raw) };
  return cached.keys;
}

/** The keys, or a 503 naming what is missing. */
export async function requireCredentialKeys(env: Env): Promise<CredentialKeys> {
  const keys = credentialKeys(env);
  if (!keys) throw new ServiceError(503, NOT_CONFIGURED, { errorCode: "credentials-not-configured" });
  return keys;
}

/** The published verification keys (`{keys: []}` when none are configured). */
export async function publicKeySet(env: Env): Promise<{ keys: JWK[] }> {
  const keys = credentialKeys(env);
  return keys ? (await keys).jwks : { keys: [] };
}
