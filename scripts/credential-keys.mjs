/**
 * Makes sure local runs have a key to sign offline credentials with: when `.dev.vars` has no
 * CREDENTIAL_SIGNING_KEYS, a fresh Ed25519 key is generated and appended (`.dev.vars` is never committed).
 * `node scripts/credential-keys.mjs --print` prints a new key list instead, e.g. for
 * `wrangler secret put CREDENTIAL_SIGNING_KEYS`; for a rotation, put the new key first in the existing list.
 */
import { existsSync, readFileSync, appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exportJWK, generateKeyPair } from "jose";

/** A JSON list with one new private JWK, its kid naming the day it was made. */
export async function newSigningKeys(now = new Date()) {
  const { privateKey } = await generateKeyPair("Ed25519", { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = `k${now.toISOString().slice(0, 10).replace(/-/g, "")}-${Math.random().toString(36).slice(2, 8)}`;
  return JSON.stringify([{ ...jwk, kid }]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--print")) {
    process.stdout.write((await newSigningKeys()) + "\n");
  } else {
    const file = fileURLToPath(new URL("../.dev.vars", import.meta.url));
    const current = existsSync(file) ? readFileSync(file, "utf8") : "";
    if (!/^CREDENTIAL_SIGNING_KEYS=/m.test(current)) {
      appendFileSync(file, `${current && !current.endsWith("\n") ? "\n" : ""}CREDENTIAL_SIGNING_KEYS='${await newSigningKeys()}'\n`);
      process.stdout.write("credential-keys: generated a local signing key in .dev.vars\n");
    }
  }
}
