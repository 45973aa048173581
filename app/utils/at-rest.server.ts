/**
 * Secrets the console must read back, at rest (mailer passwords, webhook signing secrets): AES-256-GCM
 * under a key derived from the `MAILER_SECRET` Worker secret (its name is older than its second use),
 * stored as `enc:v1:<iv>:<ciphertext>` (base64). Rows written before encryption (plain text) still read.
 * Outside production a fixed development key stands in when the secret is not set; production refuses.
 */
const PREFIX = "enc:v1:";
const DEV_SECRET = "development-only-mailer-secret";

export type AtRestEnv = { MAILER_SECRET?: string; ENVIRONMENT?: string };

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

export class AtRestKeyMissing extends Error {}

function secretOf(env: AtRestEnv): string {
  if (env.MAILER_SECRET) return env.MAILER_SECRET;
  if (env.ENVIRONMENT === "production") throw new AtRestKeyMissing("MAILER_SECRET is not set: run `npx wrangler secret put MAILER_SECRET`");
  return DEV_SECRET;
}

async function keyOf(env: AtRestEnv): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secretOf(env)));
  return crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** The value to store for `plain`; throws `AtRestKeyMissing` in production without the key. */
export async function sealSecret(env: AtRestEnv, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyOf(env), new TextEncoder().encode(plain)));
  return `${PREFIX}${b64(iv)}:${b64(sealed)}`;
}

/** The plain value of a stored one (a row from before encryption is returned as it is). */
export async function openSecret(env: AtRestEnv, stored: string): Promise<string> {
  if (!stored.startsWith(PREFIX)) return stored;
  const [iv, data] = stored.slice(PREFIX.length).split(":");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: unb64(iv) }, await keyOf(env), unb64(data));
  return new TextDecoder().decode(plain);
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);
