/**
 * Console sign-in over OpenID Connect (decision 0121): discovery, the authorization code flow with PKCE
 * (S256), state and nonce, the token exchange, and the ID token verified with jose against the provider's
 * JWKS. What the token proves goes to `completeSsoSignIn`.
 *
 * The ID token must be signed with one of `ID_TOKEN_ALGORITHMS` (never `none`, never an HMAC: a token
 * "signed" with the client secret against the provider's RSA key is refused before any key is looked up),
 * by the discovered issuer, for this client (`aud`; `azp` when present or when `aud` names several), with the
 * sign-in's nonce, and within its `iat`/`exp` give or take `CLOCK_TOLERANCE_S`.
 *
 * Outgoing requests go only to https addresses; outside production a loopback http address (127.0.0.1,
 * localhost, [::1]) is allowed for the local provider of tests and `SSO_DEMO=1 npm start`. Production
 * fails closed.
 */
import { and, eq, gt } from "drizzle-orm";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { openSecret, type AtRestEnv } from "~/utils/at-rest.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { sha256Hex } from "~/utils/tokens.server";
import { completeSsoSignIn, type SsoSignInResult } from "./complete-sign-in.server";
import { safeRedirect } from "~/utils/redirect";
import { SSO_MSG } from "./messages";

export const ID_TOKEN_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"];
export const CLOCK_TOLERANCE_S = 60;
/** How long a sign-in may stay at the identity provider. */
export const ATTEMPT_TTL_MS = 10 * 60 * 1000;
const DISCOVERY_TTL_MS = 5 * 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;

/** The console's redirect URI, registered at the provider: `<origin>/sso/oidc/callback`. */
export const callbackUri = (request: Request) => `${new URL(request.url).origin}/sso/oidc/callback`;

export type OidcEnv = AtRestEnv & { ENVIRONMENT?: string };

export type OidcMetadata = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint?: string;
  token_endpoint_auth_methods_supported?: string[];
};

const refuse = (errorCode: string, message: string = SSO_MSG.failed): never => {
  throw new ServiceError(401, message, { errorCode });
};

/** May the Worker call this address? https always; http only to a loopback host, never in production. */
export function idpUrlAllowed(url: string, env: { ENVIRONMENT?: string }): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  if (u.protocol === "https:") return true;
  const loopback = u.hostname === "127.0.0.1" || u.hostname === "localhost" || u.hostname === "[::1]";
  return u.protocol === "http:" && loopback && env.ENVIRONMENT !== "production";
}

const discoveryCache = new Map<string, { at: number; metadata: OidcMetadata }>();
const jwksCache = new Map<string, JWTVerifyGetKey>();

async function fetchJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch(() => refuse("sso-idp-unreachable"));
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || !body || typeof body !== "object") refuse("sso-idp-error");
  return body!;
}

/** The provider's metadata from `<issuer>/.well-known/openid-configuration`, kept five minutes. */
export async function discover(issuer: string, env: OidcEnv, now = Date.now()): Promise<OidcMetadata> {
  const key = issuer.replace(/\/+$/, "");
  const cached = discoveryCache.get(key);
  if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.metadata;
  if (!idpUrlAllowed(key, env)) refuse("sso-issuer-not-allowed");
  const body = await fetchJson(`${key}/.well-known/openid-configuration`, { headers: { Accept: "application/json" } });
  const m = body as unknown as OidcMetadata;
  // The document must name the issuer it was fetched for (OpenID Connect Discovery §4.3).
  if (typeof m.issuer !== "string" || m.issuer.replace(/\/+$/, "") !== key) refuse("sso-issuer-mismatch");
  for (const url of [m.authorization_endpoint, m.token_endpoint, m.jwks_uri]) if (typeof url !== "string" || !idpUrlAllowed(url, env)) refuse("sso-endpoint-not-allowed");
  if (m.end_session_endpoint !== undefined && !idpUrlAllowed(m.end_session_endpoint, env)) delete m.end_session_endpoint;
  discoveryCache.set(key, { at: now, metadata: m });
  return m;
}

function jwksOf(uri: string): JWTVerifyGetKey {
  let set = jwksCache.get(uri);
  if (!set) jwksCache.set(uri, (set = createRemoteJWKSet(new URL(uri), { timeoutDuration: FETCH_TIMEOUT_MS, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 })));
  return set;
}

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const randomB64url = (n = 32) => b64url(crypto.getRandomValues(new Uint8Array(n)));
/** The PKCE S256 challenge of a verifier (RFC 7636 §4.2). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

async function enabledSettings(db: Db, companyId: number) {
  const s = await db.query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, companyId) });
  if (!s?.enabled || s.protocol !== "oidc" || !s.oidcIssuer || !s.oidcClientId) throw new ServiceError(404, SSO_MSG.notEnabled, { errorCode: "sso-not-enabled" });
  return s;
}

/**
 * Starts a sign-in: a state, a nonce and a PKCE verifier kept (single use, ten minutes) with the page asked
 * for, and the provider's authorization address to send the browser to.
 */
export async function startOidcSignIn(
  db: Db,
  env: OidcEnv,
  args: { companyId: number; returnTo: string | null; redirectUri: string; now: number; uiLocales?: string },
): Promise<string> {
  const s = await enabledSettings(db, args.companyId);
  const m = await discover(s.oidcIssuer, env, args.now);
  const state = randomB64url();
  const nonce = randomB64url();
  const verifier = randomB64url(48);
  await db.insert(schema.ssoSignInAttempts).values({
    stateHash: await sha256Hex(state),
    companyId: args.companyId,
    protocol: "oidc",
    nonce,
    pkceVerifier: verifier,
    returnTo: safeRedirect(args.returnTo),
    expiresAt: args.now + ATTEMPT_TTL_MS,
    createdAt: args.now,
  });
  const url = new URL(m.authorization_endpoint);
  const scopes = new Set(["openid", ...s.oidcScopes.split(/\s+/).filter(Boolean)]);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: s.oidcClientId,
    redirect_uri: args.redirectUri,
    scope: [...scopes].join(" "),
    state,
    nonce,
    code_challenge: await pkceChallenge(verifier),
    code_challenge_method: "S256",
    ...(args.uiLocales && { ui_locales: args.uiLocales }),
  }))
    url.searchParams.set(k, v);
  return url.toString();
}

/** Spends the sign-in attempt a state names: unknown, expired or already used → 401 `sso-bad-state`. */
export async function spendAttempt(db: Db, state: string | null, now: number) {
  if (!state || state.length > 200) return refuse("sso-bad-state", SSO_MSG.expired);
  const a = schema.ssoSignInAttempts;
  const [row] = await db
    .delete(a)
    .where(and(eq(a.stateHash, await sha256Hex(state!)), gt(a.expiresAt, now)))
    .returning();
  if (!row) refuse("sso-bad-state", SSO_MSG.expired);
  return row!;
}

/**
 * Verifies an ID token: algorithm in the allowlist, signature by a key of `keys`, issuer, audience = the
 * client, azp, nonce, exp/iat within the tolerance of `now`. Returns its claims; 401 `sso-bad-token` otherwise.
 */
export async function verifyIdToken(idToken: string, args: { keys: JWTVerifyGetKey; issuer: string; clientId: string; nonce: string; now: number }): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    // The allowlist first, from the header alone: `none` and HMACs never reach a key lookup.
    const { alg } = decodeProtectedHeader(idToken);
    if (!alg || !ID_TOKEN_ALGORITHMS.includes(alg)) return refuse("sso-bad-token");
    ({ payload } = await jwtVerify(idToken, args.keys, {
      algorithms: ID_TOKEN_ALGORITHMS,
      issuer: args.issuer,
      audience: args.clientId,
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(args.now),
      requiredClaims: ["sub", "exp", "iat"],
      maxTokenAge: "1h",
    }));
  } catch {
    return refuse("sso-bad-token");
  }
  const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if ((payload.azp !== undefined || aud.length > 1) && payload.azp !== args.clientId) refuse("sso-bad-token");
  if (typeof payload.nonce !== "string" || payload.nonce !== args.nonce) refuse("sso-bad-nonce");
  return payload;
}

/** The token endpoint's answer for a code: client_secret_basic unless the provider supports only _post. */
async function exchangeCode(m: OidcMetadata, args: { code: string; verifier: string; redirectUri: string; clientId: string; clientSecret: string }): Promise<string> {
  const body = new URLSearchParams({ grant_type: "authorization_code", code: args.code, redirect_uri: args.redirectUri, code_verifier: args.verifier });
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
  const methods = m.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (!args.clientSecret) body.set("client_id", args.clientId);
  else if (methods.includes("client_secret_basic")) headers.Authorization = `Basic ${btoa(`${encodeURIComponent(args.clientId)}:${encodeURIComponent(args.clientSecret)}`)}`;
  else {
    body.set("client_id", args.clientId);
    body.set("client_secret", args.clientSecret);
  }
  const tokens = await fetchJson(m.token_endpoint, { method: "POST", headers, body });
  if (typeof tokens.id_token !== "string") refuse("sso-no-id-token");
  return tokens.id_token as string;
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/**
 * The provider's answer at the callback: spends the state, exchanges the code with the PKCE verifier,
 * verifies the ID token, and completes the sign-in. `keys` replaces the discovered JWKS (tests).
 */
export async function finishOidcSignIn(
  db: Db,
  env: OidcEnv,
  args: { request: Request; state: string | null; code: string | null; error: string | null; redirectUri: string; now: number; keys?: JWTVerifyGetKey },
): Promise<SsoSignInResult> {
  const attempt = await spendAttempt(db, args.state, args.now);
  if (args.error || !args.code) refuse("sso-idp-refused");
  const s = await enabledSettings(db, attempt.companyId);
  const m = await discover(s.oidcIssuer, env, args.now);
  const clientSecret = s.oidcClientSecret ? await openSecret(env, s.oidcClientSecret) : "";
  const idToken = await exchangeCode(m, { code: args.code!, verifier: attempt.pkceVerifier, redirectUri: args.redirectUri, clientId: s.oidcClientId, clientSecret });
  const claims = await verifyIdToken(idToken, { keys: args.keys ?? jwksOf(m.jwks_uri), issuer: m.issuer, clientId: s.oidcClientId, nonce: attempt.nonce, now: args.now });
  if (claims.email_verified === false) refuse("sso-email-unverified");
  const groupsClaim = claims[s.oidcGroupsClaim || "groups"];
  const groups = Array.isArray(groupsClaim) ? groupsClaim.filter((g): g is string => typeof g === "string") : typeof groupsClaim === "string" ? [groupsClaim] : [];
  return completeSsoSignIn(
    db,
    { request: args.request, now: args.now },
    {
      companyId: attempt.companyId,
      protocol: "oidc",
      subject: claims.sub!,
      email: str(claims.email) ?? "",
      firstName: str(claims.given_name),
      lastName: str(claims.family_name),
      groups,
      replayId: str(claims.jti) ?? (await sha256Hex(idToken)),
      replayExpiresAt: (claims.exp ?? 0) * 1000 + CLOCK_TOLERANCE_S * 1000,
      returnTo: attempt.returnTo,
      idToken,
    },
  );
}

/**
 * Where the browser goes after the console session ended: the provider's end_session_endpoint with the ID
 * token as hint and the sign-in page as the way back, when the session came from OpenID Connect and the
 * provider has one; null otherwise.
 */
export async function oidcLogoutUrl(db: Db, env: OidcEnv, args: { sessionId: string; postLogoutRedirectUri: string; now: number }): Promise<string | null> {
  const row = await db.query.ssoSessions.findFirst({ where: eq(schema.ssoSessions.sessionId, args.sessionId) });
  if (!row || row.protocol !== "oidc" || !row.idToken) return null;
  await db.delete(schema.ssoSessions).where(eq(schema.ssoSessions.sessionId, args.sessionId));
  const s = await db.query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, row.companyId) });
  if (!s?.enabled || s.protocol !== "oidc") return null;
  const m = await discover(s.oidcIssuer, env, args.now).catch(() => null);
  if (!m?.end_session_endpoint) return null;
  const url = new URL(m.end_session_endpoint);
  url.searchParams.set("id_token_hint", row.idToken);
  url.searchParams.set("post_logout_redirect_uri", args.postLogoutRedirectUri);
  url.searchParams.set("client_id", s.oidcClientId);
  return url.toString();
}
