/**
 * The configured `PUBLIC_ORIGIN` (wrangler.toml vars); undefined when it is unset outside production.
 * Production without it throws, so no mail goes out with a link to the wrong host.
 */
export function configuredOrigin(env: Env): string | undefined {
  const configured = (env as { PUBLIC_ORIGIN?: string }).PUBLIC_ORIGIN;
  if (configured) {
    try {
      return new URL(configured).origin;
    } catch {
      throw new Error(`PUBLIC_ORIGIN is not a URL: ${configured}`);
    }
  }
  if ((env.ENVIRONMENT as string) === "production") throw new Error("PUBLIC_ORIGIN must be configured in production");
  return undefined;
}

/**
 * The console's own address. Links in mail (reset links, invitations) are built from the configured
 * `PUBLIC_ORIGIN`, never from the request's Host header, which a client chooses; only a local runner
 * without it falls back to the request's own URL.
 */
export function publicOrigin(env: Env, request: Request): string {
  return configuredOrigin(env) ?? new URL(request.url).origin;
}

/**
 * Whether a state-changing request comes from the console's own pages. Browsers send `Origin` on
 * every cross-origin POST (and `Sec-Fetch-Site`); a request carrying neither is not a browser's
 * cross-site request and is judged by its other checks (session cookie SameSite, token).
 */
export function isCrossSite(request: Request): boolean {
  const origin = request.headers.get("Origin");
  const own = new URL(request.url);
  if (origin !== null) {
    if (origin === "null") return true;
    try {
      const from = new URL(origin);
      const host = request.headers.get("X-Forwarded-Host")?.split(",")[0]?.trim() || request.headers.get("Host") || own.host;
      return from.host !== host;
    } catch {
      return true;
    }
  }
  const site = request.headers.get("Sec-Fetch-Site");
  return site === "cross-site" || site === "same-site";
}
