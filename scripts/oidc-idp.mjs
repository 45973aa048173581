#!/usr/bin/env node
/**
 * A real OpenID provider on this machine: panva's oidc-provider (the certified implementation), for the single
 * sign-on tests and `SSO_DEMO=1 npm start` (docs/decisions/0121-console-single-sign-on.md). Never production.
 *
 *   node scripts/oidc-idp.mjs <port> [console origin,...]
 *
 * Issuer http://127.0.0.1:<port>. One client, `keyless-console` (secret `demo-oidc-client-secret`,
 * client_secret_basic, authorization code with PKCE S256), whose redirect URIs are each console origin's
 * /sso/oidc/callback and whose sign-out returns to its /login. ID tokens are RS256, signed with a key made at
 * start, and carry the scope claims (email, names, `groups`). Sign-in is the provider's own development login
 * screen: the login is one of DEMO_USERS' e-mails (any password; an unknown login gets no tokens). Consent is
 * given for the console's scopes (a first-party client), so the screen after login is the way back.
 * GET /health answers 200 once listening.
 */
import { generateKeyPair, exportJWK } from "jose";
import Provider from "oidc-provider";

export const DEMO_CLIENT = { id: "keyless-console", secret: "demo-oidc-client-secret" };
/** The provider's people: ACME's two seeded admins, and one the console does not know yet (JIT). */
export const DEMO_USERS = {
  "admin@acme.example": { given_name: "Alice", family_name: "Admin", groups: ["console-admins"] },
  "auditor@acme.example": { given_name: "Aldo", family_name: "Auditor", groups: ["auditors"] },
  "nuria.nueva@acme.example": { given_name: "Nuria", family_name: "Nueva", groups: ["door-staff"] },
};

export async function startOidcIdp(port, consoleOrigins = [], { quiet = false } = {}) {
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "demo-rs256", alg: "RS256", use: "sig" };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEMO_CLIENT.id,
        client_secret: DEMO_CLIENT.secret,
        redirect_uris: consoleOrigins.map((o) => `${o}/sso/oidc/callback`),
        post_logout_redirect_uris: consoleOrigins.map((o) => `${o}/login`),
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: "RS256",
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [crypto.randomUUID()] },
    pkce: { required: () => true },
    scopes: ["openid", "email", "profile", "groups", "offline_access"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["given_name", "family_name", "name"], groups: ["groups"] },
    // The ID token carries the claims of the scopes asked for (the console reads no userinfo).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, id) {
      const who = DEMO_USERS[String(id).toLowerCase()];
      if (!who) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, email: id, email_verified: true, name: `${who.given_name} ${who.family_name}`, ...who }),
      };
    },
    // A first-party client: its scopes are granted without a consent screen.
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope("openid email profile groups");
      await grant.save();
      return grant;
    },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
  });
  provider.on("server_error", (_ctx, err) => console.error("oidc-idp:", err));
  const callback = provider.callback();
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    if (req.url === "/health") return void res.end("ok");
    callback(req, res);
  });
  await new Promise((done) => server.listen(port, "127.0.0.1", done));
  if (!quiet) console.log(`OpenID provider ${issuer} (client ${DEMO_CLIENT.id}; users ${Object.keys(DEMO_USERS).join(", ")})`);
  return { server, issuer };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 9400);
  const origins = (process.argv[3] ?? process.env.OIDC_CONSOLE_ORIGINS ?? "http://127.0.0.1:8787").split(",").filter(Boolean);
  await startOidcIdp(port, origins);
}
