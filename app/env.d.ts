declare namespace Cloudflare {
  interface Env {
    /** Secret the gateway presents to /api/gateway/* (set with `wrangler secret put GATEWAY_SECRET`). */
    GATEWAY_SECRET?: string;
  }
}
