/**
 * The keys that sign offline credentials. `CREDENTIAL_SIGNING_KEYS` (a Worker secret) is a JSON array of
 * Ed25519 private JWKs, each with a `kid`. The first one signs; every one of them is published, so a
 * rotation is: put the new key first, keep the old one until the last credential it signed has expired
 * (the longest credential life is 24 hours, the largest offline reconnect setting), then drop it.
 *
 * Per cell (docs/decisions/0051-credential-keys-per-cell.md): a key may carry a `cell` member. A company's
 * credentials are signed by the first key of its cell, where a key without `cell` serves every cell, and a
 * cell's gateways are given only their cell's public keys and the untagged ones.
 */
import { importJWK, type JWK } from "jose";
import { CELL_NAME_PATTERN } from "~/schemas/cells";
import { ServiceError } from "~/utils/errors.server";

export type SigningKey = { kid: string; key: CryptoKey | Uint8Array };
export type CredentialKeys = {
  /** Every public key, as `/.well-known/keyless-credential-keys.json` publishes them. */
  jwks: { keys: JWK[] };
  /** The public keys serving `cell`: its own and the untagged ones. */
  jwksOf(cell: string): { keys: JWK[] };
  /** The key that signs the credentials of `cell`'s companies: the first serving it; a 503 when none does. */
  signerOf(cell: string): SigningKey;
};

export const NOT_CONFIGURED = "Offline credentials are not configured on this server";
const KID = /^[A-Za-z0-9._:-]{1,64}$/;

let cached: { raw: string; keys: Promise<CredentialKeys> } | null = null;

const publicJwk = (k: JWK & { cell?: string }): JWK => ({ kty: "OKP", crv: "Ed25519", x: k.x, kid: k.kid, alg: "EdDSA", use: "sig", ...(k.cell ? { cell: k.cell } : {}) });

async function parse(raw: string): Promise<CredentialKeys> {
  const list: unknown = JSON.parse(raw);
  if (!Array.isArray(list) || list.length === 0) throw new Error("CREDENTIAL_SIGNING_KEYS must be a non-empty JSON array of JWKs");
  const keys = list.map((jwk: JWK & { cell?: unknown }) => {
    if (jwk?.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.d !== "string" || typeof jwk.x !== "string" || !KID.test(String(jwk.kid ?? ""))) {
      throw new Error("CREDENTIAL_SIGNING_KEYS: every key must be an Ed25519 private JWK with a kid of 1-64 characters [A-Za-z0-9._:-]");
    }
    if (jwk.cell !== undefined && (typeof jwk.cell !== "string" || !CELL_NAME_PATTERN.test(jwk.cell))) throw new Error("CREDENTIAL_SIGNING_KEYS: a key's cell must be a cell name");
    return jwk as JWK & { cell?: string };
  });
  if (new Set(keys.map((k) => k.kid)).size !== keys.length) throw new Error("CREDENTIAL_SIGNING_KEYS: kids must be unique");
  // Every key is imported up front, so a malformed one fails the deployment's first request rather than one cell's.
  const signers = await Promise.all(
    keys.map(async (k) => ({ cell: k.cell, signer: { kid: k.kid!, key: await importJWK({ kty: "OKP", crv: "Ed25519", x: k.x, d: k.d }, "EdDSA") } })),
  );
  const serves = (cell: string) => (k: { cell?: string }) => k.cell === undefined || k.cell === cell;
  return {
    jwks: { keys: keys.map(publicJwk) },
    jwksOf: (cell) => ({ keys: keys.filter(serves(cell)).map(publicJwk) }),
    signerOf(cell) {
      const first = signers.find(serves(cell));
      if (!first) throw new ServiceError(503, NOT_CONFIGURED, { errorCode: "credentials-not-configured" });
      return first.signer;
    },
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

/** The verification keys a cell's gateways use (`{keys: []}` when none are configured). */
export async function cellKeySet(env: Env, cell: string): Promise<{ keys: JWK[] }> {
  const keys = credentialKeys(env);
  return keys ? (await keys).jwksOf(cell) : { keys: [] };
}
