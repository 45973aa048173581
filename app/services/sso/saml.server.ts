/**
 * SAML 2.0 single sign-on for the console, SP-initiated (decision 0122). The XML work — signatures and
 * their wrapping defences (xml-crypto: only the bytes a valid signature covers are read), decryption of
 * encrypted assertions (xml-encryption), issuer, audience and time checks — is @node-saml/node-saml's,
 * run inside the Worker (nodejs_compat). This module adds what the library leaves to its caller:
 * - the pending request: the AuthnRequest's ID and the RelayState are stored with the sign-in attempt
 *   (`sso_sign_in_attempts`: SHA-256 of the RelayState as key, the request ID in `nonce`), spent once;
 *   a response's InResponseTo must be that attempt's request ID, so an unsolicited (IdP-initiated) or
 *   another browser's response is refused; RelayState is never a URL, the return path is the stored one;
 * - the algorithm allowlist (RSA-SHA256/512 with SHA-256/512 digests; SHA-1 and HMAC refused);
 * - Destination (when present) and the signed assertion's SubjectConfirmationData Recipient = our ACS URL;
 * - the assertion ID for replay refusal (completeSsoSignIn spends it), kept until the assertion expires.
 * The company's IdP settings are migration 0066's `sso_settings` (idp_entity_id, idp_sso_url, idp_slo_url,
 * idp_certificate, want_encrypted). The SP's own key (decrypting assertions, signing logout requests) is the
 * deployment's `SAML_SP_PRIVATE_KEY` / `SAML_SP_CERT` secrets; without them assertions cannot be encrypted.
 */
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile, type SamlConfig } from "@node-saml/node-saml";
import { DOMParser } from "@xmldom/xmldom";
import { and, eq, lt } from "drizzle-orm";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { configuredOrigin } from "~/utils/origin.server";
import { randomToken, sha256Hex } from "~/utils/tokens.server";
import { safeRedirect } from "~/utils/redirect";
import type { SsoIdentity } from "./complete-sign-in.server";
import { SSO_MSG } from "./messages";

export type SsoSettingsRow = typeof schema.ssoSettings.$inferSelect;

/** How long the IdP has to answer an AuthnRequest. */
export const SAML_ATTEMPT_TTL_MS = 10 * 60 * 1000;
/** Clocks of the IdP and the Worker may differ this much (NotBefore / NotOnOrAfter). */
export const SAML_CLOCK_SKEW_MS = 90_000;

const DS = "http://www.w3.org/2000/09/xmldsig#";
const SAML_ASSERTION_NS = "urn:oasis:names:tc:SAML:2.0:assertion";
const SAML_PROTOCOL_NS = "urn:oasis:names:tc:SAML:2.0:protocol";

/** Signature and digest algorithms accepted on responses and assertions; anything else (SHA-1, HMAC) is refused. */
export const SAML_SIGNATURE_ALGORITHMS = ["http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512"] as const;
export const SAML_DIGEST_ALGORITHMS = ["http://www.w3.org/2001/04/xmlenc#sha256", "http://www.w3.org/2001/04/xmlenc#sha512"] as const;

/** Attribute names read for each profile field, in order (common IdPs' names: plain, LDAP OIDs, Microsoft claims). */
export const SAML_ATTRIBUTES = {
  email: ["email", "mail", "emailAddress", "urn:oid:0.9.2342.19200300.100.1.3", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"],
  firstName: ["firstName", "givenName", "given_name", "urn:oid:2.5.4.42", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname"],
  lastName: ["lastName", "sn", "surname", "family_name", "urn:oid:2.5.4.4", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname"],
  groups: ["groups", "memberOf", "urn:oid:1.3.6.1.4.1.5923.1.5.1.1", "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"],
} as const;

type SpKeys = { privateKey: string; cert: string } | null;

/** The deployment's SP key pair, when configured. */
export function spKeys(env: Env): SpKeys {
  const e = env as { SAML_SP_PRIVATE_KEY?: string; SAML_SP_CERT?: string };
  return e.SAML_SP_PRIVATE_KEY && e.SAML_SP_CERT ? { privateKey: e.SAML_SP_PRIVATE_KEY, cert: e.SAML_SP_CERT } : null;
}

/** The SP's addresses for a company: entity id (its metadata's address), ACS and SLO, under the console's public origin. */
export function spUrls(origin: string, companyCode: string) {
  const base = `${origin}/sso/saml/${encodeURIComponent(companyCode.toUpperCase())}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, sloUrl: `${base}/slo` };
}

/** The console's public origin: PUBLIC_ORIGIN, or (local runs without it) the request's. */
export function spOrigin(env: Env, request: Request): string {
  return configuredOrigin(env) ?? new URL(request.url).origin;
}

const fail = (message: string, errorCode: string, reason?: string): never => {
  throw new ServiceError(401, message, { errorCode, ...(reason ? { extra: { reason } } : {}) });
};

/** A company whose SAML settings can sign people in, with its SSO row; null otherwise. */
export async function samlCompany(db: Db, companyCode: string) {
  const company = await db.query.companies.findFirst({ where: eq(schema.companies.code, companyCode.toUpperCase()) });
  if (!company || company.deletedAt) return null;
  const settings = await db.query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, company.id) });
  if (!settings || settings.protocol !== "saml") return null;
  return { company, settings };
}

/** Whether the settings hold what a sign-in needs. */
export function samlConfigured(s: SsoSettingsRow): boolean {
  return Boolean(s.enabled && s.idpEntityId && s.idpSsoUrl && s.idpCertificate);
}

function samlClient(env: Env, urls: ReturnType<typeof spUrls>, s: SsoSettingsRow, cache?: CacheProvider): SAML {
  const keys = spKeys(env);
  const options: SamlConfig = {
    callbackUrl: urls.acsUrl,
    entryPoint: s.idpSsoUrl || urls.acsUrl,
    issuer: urls.entityId,
    audience: urls.entityId,
    idpIssuer: s.idpEntityId,
    idpCert: s.idpCertificate || "unset",
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    signatureAlgorithm: "sha256",
    digestAlgorithm: "sha256",
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_ATTEMPT_TTL_MS,
    disableRequestedAuthnContext: true,
    identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    logoutCallbackUrl: urls.sloUrl,
    ...(s.idpSloUrl ? { logoutUrl: s.idpSloUrl } : {}),
    ...(keys ? { decryptionPvk: keys.privateKey, privateKey: keys.privateKey, publicCert: keys.cert } : {}),
    ...(cache ? { cacheProvider: cache } : {}),
  };
  return new SAML(options);
}

/** A cache that holds only what this call knows (the library's own is in memory, per isolate). */
function oneRequestCache(known: Map<string, string>): CacheProvider {
  return {
    saveAsync: async (key, value) => {
      known.set(key, value);
      return { value, createdAt: Date.now() };
    },
    getAsync: async (key) => known.get(key) ?? null,
    removeAsync: async (key) => {
      if (key === null) return null;
      const had = known.get(key) ?? null;
      known.delete(key);
      return had;
    },
  };
}

/** The SP metadata XML a company's IdP is configured from. */
export function samlMetadata(env: Env, origin: string, companyCode: string, s: SsoSettingsRow): string {
  const keys = spKeys(env);
  const client = samlClient(env, spUrls(origin, companyCode), s);
  // node-saml writes WantAssertionsSigned="true" (every assertion sent to us must be signed) and AuthnRequestsSigned.
  return client.generateServiceProviderMetadata(keys?.cert ?? null, keys?.cert ?? null);
}

/**
 * Starts a sign-in: stores the attempt (RelayState's hash, the AuthnRequest's ID, where to return) and
 * returns the IdP's address with the deflated AuthnRequest (HTTP-Redirect binding).
 */
export async function startSamlSignIn(
  db: Db,
  env: Env,
  args: { origin: string; companyCode: string; companyId: number; settings: SsoSettingsRow; returnTo: string | null; now: number },
): Promise<string> {
  if (!samlConfigured(args.settings)) fail(SSO_MSG.notEnabled, "sso-not-enabled");
  const known = new Map<string, string>();
  const client = samlClient(env, spUrls(args.origin, args.companyCode), args.settings, oneRequestCache(known));
  const relayState = randomToken();
  const url = await client.getAuthorizeUrlAsync(relayState, undefined, {});
  const [requestId] = [...known.keys()];
  if (!requestId) throw new Error("SAML AuthnRequest has no ID");
  const a = schema.ssoSignInAttempts;
  await db.batch([
    db.delete(a).where(lt(a.expiresAt, args.now)),
    db.insert(a).values({
      stateHash: await sha256Hex(relayState),
      companyId: args.companyId,
      protocol: "saml",
      nonce: requestId,
      returnTo: safeRedirect(args.returnTo),
      expiresAt: args.now + SAML_ATTEMPT_TTL_MS,
      createdAt: args.now,
    }),
  ]);
  return url;
}

/** The attempt a RelayState names, spent (deleted) whatever comes next; null when unknown, expired or another company's. */
async function takeAttempt(db: Db, companyId: number, relayState: string, now: number) {
  if (!relayState || relayState.length > 200) return null;
  const a = schema.ssoSignInAttempts;
  const [row] = await db
    .delete(a)
    .where(and(eq(a.stateHash, await sha256Hex(relayState)), eq(a.protocol, "saml")))
    .returning();
  if (!row || row.companyId !== companyId || row.expiresAt <= now) return null;
  return row;
}

function parseXml(xml: string) {
  let error = false;
  const doc = new DOMParser({ errorHandler: { error: () => (error = true), fatalError: () => (error = true) } }).parseFromString(xml, "text/xml");
  if (error || !doc?.documentElement) fail(SSO_MSG.failed, "sso-failed", "unparsable XML");
  return doc;
}

/** Every signature in `doc` uses an allowed algorithm and digest (OAEP's own DigestMethod inside EncryptionMethod is not a signature's). */
export function checkSignatureAlgorithms(doc: Document): void {
  for (const m of Array.from(doc.getElementsByTagNameNS(DS, "SignatureMethod"))) {
    if (!(SAML_SIGNATURE_ALGORITHMS as readonly string[]).includes(m.getAttribute("Algorithm") ?? ""))
      fail(SSO_MSG.failed, "sso-failed", `signature algorithm ${m.getAttribute("Algorithm")}`);
  }
  for (const m of Array.from(doc.getElementsByTagNameNS(DS, "DigestMethod"))) {
    if ((m.parentNode as Element | null)?.localName !== "Reference") continue;
    if (!(SAML_DIGEST_ALGORITHMS as readonly string[]).includes(m.getAttribute("Algorithm") ?? ""))
      fail(SSO_MSG.failed, "sso-failed", `digest algorithm ${m.getAttribute("Algorithm")}`);
  }
}

const firstValue = (profile: Profile, names: readonly string[]): string | undefined => {
  for (const n of names) {
    const v = (profile.attributes as Record<string, unknown> | undefined)?.[n] ?? (profile as unknown as Record<string, unknown>)[n];
    const one = Array.isArray(v) ? v[0] : v;
    if (typeof one === "string" && one.trim()) return one.trim();
  }
  return undefined;
};

const allValues = (profile: Profile, names: readonly string[]): string[] => {
  const out = new Set<string>();
  for (const n of names) {
    const v = (profile.attributes as Record<string, unknown> | undefined)?.[n] ?? (profile as unknown as Record<string, unknown>)[n];
    for (const one of Array.isArray(v) ? v : [v]) if (typeof one === "string" && one.trim()) out.add(one.trim());
  }
  return [...out];
};

/** What a verified assertion says: the completion's identity fields (the assertion's ID as `replayId`), and SLO's. */
export type SamlAssertionResult = Pick<SsoIdentity, "subject" | "email" | "firstName" | "lastName" | "groups" | "replayId" | "replayExpiresAt"> & {
  nameId: string;
  nameIdFormat?: string;
  sessionIndex?: string;
  returnTo: string;
};

/**
 * Verifies a POSTed SAMLResponse for the company (see the module's comment for every check) and returns the
 * identity it asserts. Refusals are ServiceError 401 with errorCode `sso-failed` (`details.extra.reason` says why,
 * for logs and tests) or `sso-expired` (no pending sign-in for the RelayState).
 */
export async function verifySamlResponse(
  db: Db,
  env: Env,
  args: { origin: string; companyCode: string; companyId: number; settings: SsoSettingsRow; samlResponse: string; relayState: string; now: number },
): Promise<SamlAssertionResult> {
  const s = args.settings;
  if (!samlConfigured(s)) fail(SSO_MSG.notEnabled, "sso-not-enabled");
  const attempt = await takeAttempt(db, args.companyId, args.relayState, args.now);
  if (!attempt) fail(SSO_MSG.expired, "sso-expired", "no pending sign-in for this RelayState");

  const urls = spUrls(args.origin, args.companyCode);
  let xml: string;
  try {
    xml = Buffer.from(args.samlResponse, "base64").toString("utf8");
  } catch {
    return fail(SSO_MSG.failed, "sso-failed", "not base64");
  }
  const outer = parseXml(xml!);
  const root = outer.documentElement;
  if (root.namespaceURI !== SAML_PROTOCOL_NS || root.localName !== "Response") fail(SSO_MSG.failed, "sso-failed", "not a SAML Response");
  checkSignatureAlgorithms(outer);
  const destination = root.getAttribute("Destination");
  if (destination && destination !== urls.acsUrl) fail(SSO_MSG.failed, "sso-failed", "Destination is not our ACS URL");
  if (s.wantEncrypted && outer.getElementsByTagNameNS(SAML_ASSERTION_NS, "EncryptedAssertion").length === 0) fail(SSO_MSG.failed, "sso-failed", "assertion not encrypted");

  // InResponseTo must be this attempt's AuthnRequest ID: the library asks the cache, which knows only it.
  // (The library reads the cached value as the request's time against its own clock; the attempt's expiry, on the
  // console's clock, was checked above, so it is given the present.)
  const client = samlClient(env, urls, s, oneRequestCache(new Map([[attempt!.nonce, new Date().toISOString()]])));
  let profile: Profile | null;
  try {
    ({ profile } = await client.validatePostResponseAsync({ SAMLResponse: args.samlResponse }));
  } catch (e) {
    return fail(SSO_MSG.failed, "sso-failed", e instanceof Error ? e.message : String(e));
  }
  if (!profile) return fail(SSO_MSG.failed, "sso-failed", "no assertion");

  // The signed assertion as the library verified it (decrypted when it was encrypted).
  const assertion = parseXml(profile.getAssertionXml?.() ?? "").documentElement;
  checkSignatureAlgorithms(assertion.ownerDocument);
  const assertionId = assertion.getAttribute("ID");
  if (!assertionId) fail(SSO_MSG.failed, "sso-failed", "assertion has no ID");
  const confirmations = Array.from(assertion.getElementsByTagNameNS(SAML_ASSERTION_NS, "SubjectConfirmationData"));
  if (!confirmations.length || confirmations.some((c) => c.getAttribute("Recipient") !== urls.acsUrl)) fail(SSO_MSG.failed, "sso-failed", "Recipient is not our ACS URL");
  const expiries = [
    ...confirmations.map((c) => c.getAttribute("NotOnOrAfter")),
    ...Array.from(assertion.getElementsByTagNameNS(SAML_ASSERTION_NS, "Conditions")).map((c) => c.getAttribute("NotOnOrAfter")),
  ]
    .map((v) => (v ? Date.parse(v) : NaN))
    .filter((v) => Number.isFinite(v));
  const replayExpiresAt = (expiries.length ? Math.max(...expiries) : args.now + SAML_ATTEMPT_TTL_MS) + SAML_CLOCK_SKEW_MS;

  const nameId = profile.nameID;
  if (!nameId) fail(SSO_MSG.failed, "sso-failed", "no NameID");
  const emailFormat = profile.nameIDFormat === "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
  const email = firstValue(profile, SAML_ATTRIBUTES.email) ?? (emailFormat || nameId.includes("@") ? nameId : "");
  // A transient NameID changes at every sign-in: the e-mail is then the stable subject.
  const transient = profile.nameIDFormat === "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
  return {
    subject: transient ? email.toLowerCase() : nameId,
    email,
    firstName: firstValue(profile, SAML_ATTRIBUTES.firstName),
    lastName: firstValue(profile, SAML_ATTRIBUTES.lastName),
    groups: allValues(profile, SAML_ATTRIBUTES.groups),
    replayId: assertionId!,
    replayExpiresAt,
    nameId,
    nameIdFormat: profile.nameIDFormat,
    sessionIndex: profile.sessionIndex,
    returnTo: attempt!.returnTo,
  };
}

/**
 * Single logout, SP-initiated: the IdP's address with a LogoutRequest for the session's NameID and
 * SessionIndex (signed when the SP has a key), or null when the IdP has no SLO URL or the session was not SAML's.
 */
export async function samlLogoutUrl(db: Db, env: Env, args: { origin: string; sessionId: string }): Promise<string | null> {
  const row = await db.query.ssoSessions.findFirst({ where: eq(schema.ssoSessions.sessionId, args.sessionId) });
  if (!row || row.protocol !== "saml" || !row.nameId) return null;
  await db.delete(schema.ssoSessions).where(eq(schema.ssoSessions.sessionId, args.sessionId));
  const [company, s] = await Promise.all([
    db.query.companies.findFirst({ where: eq(schema.companies.id, row.companyId) }),
    db.query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, row.companyId) }),
  ]);
  if (!company || !s || s.protocol !== "saml" || !s.idpSloUrl) return null;
  const client = samlClient(env, spUrls(args.origin, company.code), s);
  const profile = {
    issuer: s.idpEntityId,
    nameID: row.nameId,
    nameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    ...(row.sessionIndex ? { sessionIndex: row.sessionIndex } : {}),
  } as Profile;
  return client.getLogoutUrlAsync(profile, "", {});
}
