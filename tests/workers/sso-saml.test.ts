import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { SignedXml } from "xml-crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { verifySamlResponse } from "~/services/sso/saml.server";
import { sha256Hex } from "~/utils/tokens.server";
import { consoleWorker, db, ORIGIN, schema } from "./helpers";

/**
 * SAML 2.0 sign-in (decision 0122) against a real identity provider: scripts/saml-idp.mjs (samlify), started by
 * vitest.workers.config.ts, signs (and encrypts) every Response the success cases post. Only the attack cases
 * build an assertion by hand (signed with the IdP's own key by xml-crypto): wrong audience, expired, SHA-1, a
 * wrapped signature, a replayed assertion ID.
 */
const IDP = (env as unknown as { SAML_IDP_URL: string }).SAML_IDP_URL;
const IDP_KEY = (env as unknown as { SAML_TEST_IDP_KEY: string }).SAML_TEST_IDP_KEY;
const ACME = 3;
const BASE = `${ORIGIN}/sso/saml/ACME`;
const ACS = `${BASE}/acs`;
const PASSWORD = "Saml#Demo2026";

let settings: typeof schema.ssoSettings.$inferSelect;

beforeAll(async () => {
  const cert = await (await fetch(`${IDP}/cert`)).text();
  await db()
    .insert(schema.ssoSettings)
    .values({
      companyId: ACME,
      protocol: "saml",
      enabled: true,
      idpEntityId: `${IDP}/metadata`,
      idpSsoUrl: `${IDP}/sso`,
      idpSloUrl: `${IDP}/slo`,
      idpCertificate: cert,
      jitEnabled: false,
    })
    .onConflictDoUpdate({
      target: schema.ssoSettings.companyId,
      set: { protocol: "saml", enabled: true, idpEntityId: `${IDP}/metadata`, idpSsoUrl: `${IDP}/sso`, idpCertificate: cert },
    });
  settings = (await db().query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, ACME) }))!;
  // The IdP learns the console from the metadata the console publishes (it cannot reach https://console.test).
  const metadata = await consoleWorker.fetch(`${BASE}/metadata`);
  expect(metadata.status).toBe(200);
  const spMetadata = await metadata.text();
  const registered = await fetch(`${IDP}/sps`, { method: "POST", body: spMetadata });
  expect(registered.status, await registered.clone().text()).toBe(200);
});

/** Starts a sign-in at the console: the IdP address it redirects to. */
async function start(returnTo = "/devices"): Promise<URL> {
  const res = await consoleWorker.fetch(`${BASE}/login?returnTo=${encodeURIComponent(returnTo)}`, { redirect: "manual" });
  expect(res.status).toBe(302);
  const to = new URL(res.headers.get("Location")!);
  expect(to.origin + to.pathname).toBe(`${IDP}/sso`);
  return to;
}

/** Signs in at the real IdP: the Response it would post to the ACS. */
async function idpAnswer(to: URL, email = "admin@acme.example", encrypt = false): Promise<{ acs: string; SAMLResponse: string; RelayState: string }> {
  const page = await fetch(to);
  expect(page.status).toBe(200);
  const res = await fetch(`${IDP}/sso/login`, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ query: to.search.slice(1), email, password: PASSWORD, encrypt: encrypt ? "1" : "" }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** Posts a Response to the console's ACS as the IdP's page does (from the IdP's origin). */
const postAcs = (SAMLResponse: string, RelayState: string) =>
  consoleWorker.fetch(ACS, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: IDP, "Sec-Fetch-Site": "cross-site" },
    body: new URLSearchParams({ SAMLResponse, RelayState }),
  });

const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("__session=") && !c.startsWith("__session=;"));

/** The pending attempt a RelayState names (the AuthnRequest ID is its nonce). */
const attemptOf = async (relayState: string) => db().query.ssoSignInAttempts.findFirst({ where: eq(schema.ssoSignInAttempts.stateHash, await sha256Hex(relayState)) });

const verify = (samlResponse: string, relayState: string) =>
  verifySamlResponse(db(), env as unknown as Env, { origin: ORIGIN, companyCode: "ACME", companyId: ACME, settings, samlResponse, relayState, now: Date.now() });

/** The refusal's reason (details.extra.reason), or "accepted". */
const reasonOf = (samlResponse: string, relayState: string) =>
  verify(samlResponse, relayState).then(
    () => "accepted",
    (e: { details?: { errorCode?: string; extra?: { reason?: string } } }) => `${e.details?.errorCode}: ${e.details?.extra?.reason ?? ""}`,
  );

const b64 = (s: string) => btoa(unescape(encodeURIComponent(s)));
const unb64 = (s: string) => decodeURIComponent(escape(atob(s)));
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * An attack case's Response, built by hand and signed with the IdP's key (xml-crypto). `over` changes what an
 * honest IdP would send for the pending request `inResponseTo`.
 */
function forged(
  inResponseTo: string,
  over: { audience?: string; recipient?: string; notOnOrAfter?: number; sigAlg?: string; digestAlg?: string; assertionId?: string; email?: string } = {},
): string {
  const now = Date.now();
  const id = over.assertionId ?? `_a${crypto.randomUUID()}`;
  const until = iso(over.notOnOrAfter ?? now + 5 * 60_000);
  const email = over.email ?? "admin@acme.example";
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${IDP}/metadata</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${over.recipient ?? ACS}" InResponseTo="${inResponseTo}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(now - 60_000)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${over.audience ?? `${BASE}/metadata`}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement></saml:Assertion>`;
  const response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${crypto.randomUUID()}" Version="2.0" IssueInstant="${iso(now)}" Destination="${ACS}" InResponseTo="${inResponseTo}"><saml:Issuer>${IDP}/metadata</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
  const sig = new SignedXml({
    privateKey: IDP_KEY,
    signatureAlgorithm: over.sigAlg ?? "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: over.digestAlg ?? "http://www.w3.org/2001/04/xmlenc#sha256",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
  });
  sig.computeSignature(response, { prefix: "ds", location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: "after" } });
  return b64(sig.getSignedXml());
}

describe("SAML sign-in through the real IdP", () => {
  it("publishes SP metadata with the ACS, SLO, encryption key and signed assertions wanted", async () => {
    const xml = await (await consoleWorker.fetch(`${BASE}/metadata`)).text();
    expect(xml).toContain(`entityID="${BASE}/metadata"`);
    expect(xml).toContain(`Location="${ACS}"`);
    expect(xml).toContain(`Location="${BASE}/slo"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('use="encryption"');
    expect((await consoleWorker.fetch(`${ORIGIN}/sso/saml/BETA/metadata`)).status).toBe(404);
  });

  it("signs in with a signed assertion and lands on the page asked for; the same post again is refused", async () => {
    const answer = await idpAnswer(await start("/devices?page=2"));
    expect(answer.acs).toBe(ACS);
    const res = await postAcs(answer.SAMLResponse, answer.RelayState);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/devices?page=2");
    expect(sessionCookie(res)).toBeTruthy();
    const row = await db().query.ssoSessions.findFirst({ where: eq(schema.ssoSessions.nameId, "admin@acme.example") });
    expect(row?.protocol).toBe("saml");
    expect(row?.sessionIndex).toMatch(/^_s/);
    const again = await postAcs(answer.SAMLResponse, answer.RelayState);
    expect(again.headers.get("Location")).toBe("/login");
    expect(sessionCookie(again)).toBeFalsy();
  });

  it("signs in with an encrypted assertion (decrypted in the Worker)", async () => {
    const answer = await idpAnswer(await start("/users"), "auditor@acme.example", true);
    expect(unb64(answer.SAMLResponse)).toContain("EncryptedAssertion");
    const res = await postAcs(answer.SAMLResponse, answer.RelayState);
    expect(res.headers.get("Location")).toBe("/users");
    expect(sessionCookie(res)).toBeTruthy();
  });

  it("returns only to console paths: an off-site returnTo lands on /, a RelayState that is a URL is refused", async () => {
    const answer = await idpAnswer(await start("https://evil.example/x"));
    expect((await attemptOf(answer.RelayState))?.returnTo).toBe("/");
    const res = await postAcs(answer.SAMLResponse, answer.RelayState);
    expect(res.headers.get("Location")).toBe("/");
    const other = await idpAnswer(await start("//evil.example"));
    const offSite = await postAcs(other.SAMLResponse, "https://evil.example/");
    expect(offSite.headers.get("Location")).toBe("/login");
    expect(sessionCookie(offSite)).toBeFalsy();
  });

  it("signs out at the IdP too: console sign-out sends a LogoutRequest for the session's NameID (single logout)", async () => {
    const answer = await idpAnswer(await start("/"));
    const cookie = sessionCookie(await postAcs(answer.SAMLResponse, answer.RelayState))!.split(";")[0];
    const out = await consoleWorker.fetch(`${ORIGIN}/logout`, { method: "POST", redirect: "manual", headers: { Cookie: cookie, Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" } });
    // A page that goes on to the IdP (a redirect after the sign-out form's post would break the form-action CSP).
    expect([out.status, out.headers.get("Content-Type")]).toEqual([200, "text/html; charset=utf-8"]);
    const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(await out.text())?.[1];
    expect(out.headers.get("Set-Cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    const to = new URL(refresh!.replaceAll("&#38;", "&"));
    expect(to.origin + to.pathname).toBe(`${IDP}/slo`);
    const before = ((await (await fetch(`${IDP}/logouts`)).json()) as unknown[]).length;
    const idpPage = await fetch(to);
    expect(idpPage.status, await idpPage.clone().text()).toBe(200);
    expect(await idpPage.text()).toContain(`${BASE}/slo`);
    const logouts = (await (await fetch(`${IDP}/logouts`)).json()) as { nameId: string }[];
    expect(logouts.length).toBe(before + 1);
    expect(logouts.at(-1)!.nameId).toBe("admin@acme.example");
  });

  it("refuses a response answering another sign-in (InResponseTo bound to the RelayState's attempt)", async () => {
    const a = await idpAnswer(await start());
    const b = await idpAnswer(await start());
    expect(await reasonOf(a.SAMLResponse, b.RelayState)).toMatch(/^sso-failed: .*InResponseTo/i);
  });
});

describe("SAML attacks (hand-built assertions signed with the IdP's key)", () => {
  /** A pending sign-in: its RelayState and AuthnRequest ID. */
  async function pending(): Promise<{ relayState: string; requestId: string }> {
    const to = await start();
    const relayState = to.searchParams.get("RelayState")!;
    return { relayState, requestId: (await attemptOf(relayState))!.nonce };
  }

  it("refuses the wrong audience", async () => {
    const p = await pending();
    expect(await reasonOf(forged(p.requestId, { audience: "https://other-sp.example/metadata" }), p.relayState)).toMatch(/audience/i);
  });

  it("refuses an assertion for another ACS (Recipient)", async () => {
    const p = await pending();
    expect(await reasonOf(forged(p.requestId, { recipient: "https://other-sp.example/acs" }), p.relayState)).toMatch(/Recipient/);
  });

  it("refuses an expired assertion", async () => {
    const p = await pending();
    expect(await reasonOf(forged(p.requestId, { notOnOrAfter: Date.now() - 10 * 60_000 }), p.relayState)).toMatch(/No valid subject confirmation|expired/i);
  });

  it("refuses a SHA-1 signature", async () => {
    const p = await pending();
    const sha1 = forged(p.requestId, { sigAlg: "http://www.w3.org/2000/09/xmldsig#rsa-sha1", digestAlg: "http://www.w3.org/2000/09/xmldsig#sha1" });
    expect(await reasonOf(sha1, p.relayState)).toMatch(/signature algorithm .*rsa-sha1/);
  });

  it("refuses an unsigned assertion", async () => {
    const p = await pending();
    const unsigned = unb64(forged(p.requestId)).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "");
    expect(unsigned).not.toContain("Signature");
    expect(await reasonOf(b64(unsigned), p.relayState)).toMatch(/signature/i);
  });

  it("refuses a wrapped signature: an unsigned assertion for someone else beside the IdP's signed one", async () => {
    const to = await start();
    const relayState = to.searchParams.get("RelayState")!;
    // The IdP's own signed Response for the auditor; the attacker adds an assertion naming the admin.
    const real = unb64((await idpAnswer(to, "auditor@acme.example")).SAMLResponse);
    const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(real)![0];
    const evil = signed
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "")
      .replace(/ID="[^"]+"/, 'ID="_evil"')
      .replaceAll("auditor@acme.example", "admin@acme.example");
    const before = real.replace(signed, evil + signed);
    const inside = real.replace(signed, evil.replace("</saml:Subject>", `</saml:Subject><saml:Advice>${signed}</saml:Advice>`));
    for (const wrapped of [before, inside]) expect(await reasonOf(b64(wrapped), relayState)).toMatch(/^sso-/);
    // And through the ACS: no session at all.
    const res = await postAcs(b64(before), relayState);
    expect(sessionCookie(res)).toBeFalsy();
  });

  it("refuses a replayed assertion ID in a second sign-in", async () => {
    // The IdP's real sign-in first; then the attacker's Response for a new sign-in reusing its assertion ID.
    const answer = await idpAnswer(await start());
    const assertionId = /<saml:Assertion[^>]* ID="([^"]+)"/.exec(unb64(answer.SAMLResponse))![1];
    expect(sessionCookie(await postAcs(answer.SAMLResponse, answer.RelayState))).toBeTruthy();
    const second = await pending();
    const again = await postAcs(forged(second.requestId, { assertionId }), second.relayState);
    expect(again.headers.get("Location")).toBe("/login");
    expect(sessionCookie(again)).toBeFalsy();
    expect(decodeURIComponent(again.headers.getSetCookie().join(";"))).toContain("already used");
  });
});
