/**
 * Board secrets: what a board presents as its MQTT password, and the hash the console stores and
 * sends to gateways (`boardCredential` in docs/gateway-api.md).
 *
 * The secret is 32 random bytes (base64url) that the console issues at provisioning and shows once;
 * nobody chooses it, so a slow password hash protects nothing and would only make every gateway
 * restart and every bad CONNECT expensive (decision 0110). The stored form is
 *
 *   hmac-sha256$<salt base64>$<hash base64>   hash = HMAC-SHA256(key = salt, message = secret, UTF-8)
 *
 * with 16 random salt bytes per record, so equal secrets never give equal hashes. The gateway checks
 * exactly this string (gateway/src/password.js), and still accepts the older `pbkdf2-sha256$…`.
 */
const enc = new TextEncoder();
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const b64url = (bytes: Uint8Array) => b64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const BOARD_SECRET_ALGORITHM = "hmac-sha256";

/** A new board secret: 32 random bytes, base64url (43 characters). */
export function newBoardSecret(): string {
  return b64url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The stored form of a board secret.
 * @param salt 16 random bytes unless given (fixed only in tests, for known vectors)
 */
export async function hashBoardSecret(secret: string, salt: Uint8Array<ArrayBuffer> = crypto.getRandomValues(new Uint8Array(16))): Promise<string> {
  const key = await crypto.subtle.importKey("raw", salt, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(secret)));
  return `${BOARD_SECRET_ALGORITHM}$${b64(salt)}$${b64(mac)}`;
}

const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/**
 * Whether `secret` is the one `stored` (hashBoardSecret's form) was made from, compared in constant
 * time. Directory (SCIM) tokens are kept in the same form (decision 0080).
 */
export async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const [algorithm, salt, mac] = stored.split("$");
  if (algorithm !== BOARD_SECRET_ALGORITHM || !salt || !mac) return false;
  const want = unb64(mac);
  const got = unb64((await hashBoardSecret(secret, unb64(salt))).split("$")[2]);
  if (want.byteLength !== got.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < want.byteLength; i++) diff |= want[i] ^ got[i];
  return diff === 0;
}
