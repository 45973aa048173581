declare namespace Cloudflare {
  interface Env {
    /** Secret the gateway presents to /api/gateway/* (set with `wrangler secret put GATEWAY_SECRET`). */
    GATEWAY_SECRET?: string;
    /**
     * Ed25519 private JWKs that sign offline credentials, as a JSON array; each has a `kid`. The first signs, all
     * are published (docs/decisions/0028-signed-offline-credentials.md). Set with `wrangler secret put`; local
     * runs get a generated one in .dev.vars (scripts/credential-keys.mjs).
     */
    CREDENTIAL_SIGNING_KEYS?: string;
    /** The lowest phone app version that may sign in (dotted numbers); below it: 'App update required, check the store'. */
    MOBILE_MIN_APP_VERSION?: string;
  }
}
