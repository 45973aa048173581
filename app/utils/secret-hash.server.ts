/**
 * Secrets the console issues and shows once (board secrets, API keys), and the keyed hash it stores of
 * them. Board secrets are also checked by the gateway (`boardCredential` in docs/gateway-api.md).
 *
 * A secret is 32 random bytes (base64url); nobody chooses it, so a slow password hash protects nothing
 * and would only make every gateway restart, bad CONNECT and API call expensive (decision 0110). The stored
 * form is
 *
 *   hmac-sha256$<salt base64>$<hash base64>   hash = HMAC-SHA256(key = salt, message = secret, UTF-8)
 *
 * with 16 random salt bytes per record, so equal secrets never give equal hashes. The gateway checks
 * exactly this string (gateway/src/password.js), and still accepts the older `pbkdf2-sha256$…`.
 */
const enc = new TextEncoder();
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const b64url = (bytes: Uint8Array) => b64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromB64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export const SECRET_HASH_ALGORITHM = "hmac-sha256";

/** A new secret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return b64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function mac(secret: string, salt: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", salt, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(secret)));
}

/**
 * The stored form of a secret.
 * @param salt 16 random bytes unless given (fixed only in tests, for known vectors)
 */
export async function hashSecret(secret: string, salt: Uint8Array<ArrayBuffer> = crypto.getRandomValues(new Uint8Array(16))): Promise<string> {
  return `${SECRET_HASH_ALGORITHM}$${b64(salt)}$${b64(await mac(secret, salt))}`;
}

/** Does `secret` match the stored form? Compared in constant time; a malformed stored form matches nothing. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [algorithm, salt, hash] = stored.split("$");
  if (algorithm !== SECRET_HASH_ALGORITHM || !salt || !hash) return false;
  const want = fromB64(hash);
  const got = await mac(secret, fromB64(salt) as Uint8Array<ArrayBuffer>);
  if (got.length !== want.length) return false;
  let diff = 0;
  for (let i = 0; i < got.length; i++) diff |= got[i] ^ want[i];
  return diff === 0;
}
