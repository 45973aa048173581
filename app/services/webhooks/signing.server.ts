/**
 * Signatures by the Standard Webhooks specification (https://www.standardwebhooks.com): the content
 * `${webhook-id}.${webhook-timestamp}.${body}` signed with HMAC-SHA256 under the secret's key
 * (`whsec_` + base64), sent as `v1,<base64>`; during a rotation one signature per valid secret,
 * space-separated, so a receiver holding either secret verifies.
 */
const PREFIX = "whsec_";
const encoder = new TextEncoder();

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** A new secret: 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

async function signOne(secret: string, content: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", fromBase64(secret.slice(PREFIX.length)), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(content))))}`;
}

/** The three headers of one attempt; `at` is when it is sent (epoch ms), the timestamp is in seconds. */
export async function signedHeaders(id: string, at: number, body: string, secrets: string[]): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(at / 1000));
  const signatures = await Promise.all(secrets.map((s) => signOne(s, `${id}.${timestamp}.${body}`)));
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}
