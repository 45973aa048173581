/**
 * What every answer of the Worker gets, and what every request must pass before anything parses it:
 * a body-size limit, the cross-site refusal for console actions, and the security headers
 * (`nosniff`, HSTS in production, `Cache-Control: no-store`, a CSP where the page set none).
 */
import { mapTiles, tileImageSource } from "./map-tiles.server";
import { isCrossSite } from "./origin.server";
import { isProduction } from "./session.server";

const MiB = 1024 * 1024;

/** JSON and form bodies; larger only where uploads need it (firmware zips up to 25 MB, gateway event batches). */
export const BODY_LIMITS = {
  default: 1 * MiB,
  upload: 26 * MiB,
  gateway: 8 * MiB,
  /** A directory's SCIM call: one user or group, or a PATCH of up to 1,000 operations. */
  scim: 256 * 1024,
  /** A CSV of users (at most 5 MB, decision 0089) inside a JSON or form body, whose quoting can grow it. */
  userImport: 8 * MiB,
} as const;

export function bodyLimitFor(pathname: string): number {
  if (/^\/api\/admin\/ota\/addota\/?$/.test(pathname) || /^\/addota(\.data)?\/?$/.test(pathname)) return BODY_LIMITS.upload;
  if (pathname.startsWith("/api/gateway/")) return BODY_LIMITS.gateway;
  if (pathname.startsWith("/scim/")) return BODY_LIMITS.scim;
  if (/^\/api\/admin\/user\/importUsers(Preview)?\/?$/.test(pathname) || /^\/importUsers(\.data)?\/?$/.test(pathname)) return BODY_LIMITS.userImport;
  return BODY_LIMITS.default;
}

/** How much of a refused body is read and dropped so the 413 reaches the client; past it the connection is cut. */
const DISCARD_AT_MOST = 32 * MiB;

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, read: number): Promise<void> {
  for (let total = read; total <= DISCARD_AT_MOST;) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
  }
  await reader.cancel();
}

const refuse = (status: number, message: string) => new Response(JSON.stringify({ message }), { status, headers: { "Content-Type": "application/json; charset=utf-8" } });

/** A directory reads refusals in SCIM's error form (RFC 7644 §3.12). */
const refuseScim = (status: number, message: string) =>
  new Response(JSON.stringify({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: String(status), detail: message }), {
    status,
    headers: { "Content-Type": "application/scim+json; charset=utf-8" },
  });

/**
 * The request with its body read whole and capped, or the refusal (413) when the body is larger than
 * the path allows. A declared Content-Length is checked first. The body is read before anything
 * answers because workerd resets a connection whose request bytes are still unread when the answer
 * leaves (about one early answer in two: a 401 before a JSON body was parsed reached the client as
 * ECONNRESET), so every answer, early refusals included, finds the body consumed.
 */
export async function limitBody(request: Request): Promise<Request | Response> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return request;
  const pathname = new URL(request.url).pathname;
  const limit = bodyLimitFor(pathname);
  const answer = pathname.startsWith("/scim/") ? refuseScim : refuse;
  const reader = request.body.getReader();
  const tooLarge = async (read: number) => {
    await discard(reader, read);
    return answer(413, `The request body is larger than ${Math.round((limit / MiB) * 10) / 10} MiB`);
  };
  const declared = request.headers.get("Content-Length");
  if (declared !== null) {
    const n = Number(declared);
    if (!Number.isFinite(n) || n < 0) return answer(400, "Invalid Content-Length");
    if (n > limit) return tooLarge(0);
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) return tooLarge(size);
    parts.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.byteLength;
  }
  return new Request(request, { body });
}

/** Remix compares `Origin` with `Host`; a request without a Host header (never from a browser) gets the URL's. */
export function withHost(request: Request): Request {
  if (request.headers.get("Host")) return request;
  const headers = new Headers(request.headers);
  headers.set("Host", new URL(request.url).host);
  return new Request(request, { headers });
}

/**
 * Console actions (pages and resource routes, everything outside /api and /scim) refuse a cross-site request
 * with 403 before Remix sees it (Remix's own check would answer 500).
 */
export function refuseCrossSite(request: Request): Response | null {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return null;
  // The APIs take bearer tokens, never the console's cookie, so another site's page cannot act with them.
  const { pathname } = new URL(request.url);
  if (pathname.startsWith("/api/") || pathname.startsWith("/scim/")) return null;
  // A SAML identity provider's page posts the signed Response to the ACS, and its logout answer to the SLO (decision 0122): the RelayState and the
  // response's own signature and InResponseTo bind it to a sign-in this console started, not the cookie.
  if (/^\/sso\/saml\/[^/]+\/(acs|slo)$/.test(pathname)) return null;
  return isCrossSite(request) ? refuse(403, "Cross-site request refused") : null;
}

/** A CSP for answers that are not pages (JSON, CSV, zip): nothing may run or load from them. */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The page CSP (entry.server): scripts only from this origin or carrying this request's nonce. */
export function pageCsp(nonce: string, env: Env): string {
  const dev = (env.ENVIRONMENT as string) === "development";
  // Ticket maps load tiles from the configured tile server only (decision 0027).
  const tiles = mapTiles(env);
  const tileSource = tiles ? ` ${tileImageSource(tiles.url)}` : "";
  return [
    "default-src 'self'",
    // 'wasm-unsafe-eval' lets the page compile the access-window core (the e-key preview); it allows
    // WebAssembly only, not eval of JavaScript.
    `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    // Radix and the toasts position elements with inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tileSource}`,
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Adds the headers every answer carries. Signed-in pages, `.data`, downloads and API answers are never stored. */
export function withSecurityHeaders(response: Response, env: Env): Response {
  if (response.status === 101 || (response as { webSocket?: unknown }).webSocket) return response;
  const out = new Response(response.body, response);
  const h = out.headers;
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Cache-Control", "no-store");
  if (!h.has("Referrer-Policy")) h.set("Referrer-Policy", "same-origin");
  if (!h.has("Content-Security-Policy")) h.set("Content-Security-Policy", DATA_CSP);
  if (isProduction(env)) h.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  return out;
}

/** A CSV file to download (a report, an export): not cached. */
export const csvAttachment = (body: BodyInit, fileName: string) =>
  new Response(body, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${fileName}"`, "Cache-Control": "no-store" } });
