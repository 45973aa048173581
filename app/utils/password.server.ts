/**
 * Password hashing. Workers cap PBKDF2 at 100,000 iterations, so that is the ceiling; the stored
 * string records algorithm and parameters (`pbkdf2-sha256$<iterations>$<salt>$<hash>`) so a
 * stronger scheme can replace it at the next successful sign-in (`needsRehash`).
 */
const ALGORITHM = "pbkdf2-sha256";
export const PBKDF2_ITERATIONS = 100_000;
const KEY_BYTES = 32;

const enc = new TextEncoder();
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll("=", "");
const unb64 = (s: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", enc.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, KEY_BYTES * 8);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `${ALGORITHM}$${iterations}$${b64(salt)}$${b64(await derive(password, salt, iterations))}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const [algorithm, iter, salt, hash] = stored.split("$");
  const iterations = Number(iter);
  if (algorithm !== ALGORITHM || !Number.isInteger(iterations) || iterations < 1 || !salt || !hash) return false;
  const actual = await derive(password, unb64(salt), iterations);
  return timingSafeEqual(actual, unb64(hash));
}

export function needsRehash(stored: string): boolean {
  const [algorithm, iter] = stored.split("$");
  return algorithm !== ALGORITHM || Number(iter) < PBKDF2_ITERATIONS;
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
