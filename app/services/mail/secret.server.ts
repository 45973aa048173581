/**
 * Mailer passwords at rest: AES-256-GCM under a key derived from the `MAILER_SECRET` Worker secret,
 * stored as `enc:v1:<iv>:<ciphertext>` (base64). Rows written before encryption (plain text) still
 * read. Outside production a fixed development key stands in when the secret is not set.
 */
const PREFIX = "enc:v1:";
const DEV_SECRET = "development-only-mailer-secret";

export type SecretEnv = { MAILER_SECRET?: string; ENVIRONMENT?: string };

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

export class MailerSecretMissing extends Error {}

function secretOf(env: SecretEnv): string {
  if (env.MAILER_SECRET) return env.MAILER_SECRET;
  if (env.ENVIRONMENT === "production") throw new MailerSecretMissing("MAILER_SECRET is not set: run `npx wrangler secret put MAILER_SECRET`");
  return DEV_SECRET;
}

async function keyOf(env: SecretEnv): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secretOf(env)));
  return crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export async function sealPassword(env: SecretEnv, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyOf(env), new TextEncoder().encode(plain)));
  return `${PREFIX}${b64(iv)}:${b64(sealed)}`;
}

export async function openPassword(env: SecretEnv, stored: string): Promise<string> {
  if (!stored.startsWith(PREFIX)) return stored;
  const [iv, data] = stored.slice(PREFIX.length).split(":");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: unb64(iv) }, await keyOf(env), unb64(data));
  return new TextDecoder().decode(plain);
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);
