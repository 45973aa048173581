/**
 * A real SAML 2.0 identity provider for local use and tests (decision 0122), built on samlify's
 * IdentityProvider: it parses the console's AuthnRequest (HTTP-Redirect), signs every assertion with its own
 * key (RSA-SHA256) and, when the service provider's metadata publishes an encryption certificate, encrypts it
 * (AES-256-GCM, RSA-OAEP) — samlify does the XML signing and encryption, nothing here writes XML-DSig.
 * It shows a sign-in form for its demo users and posts the Response to the SP's ACS (HTTP-POST binding).
 *
 *   node scripts/saml-idp.mjs [--port 8790]     (SAML_IDP_PORT also works; `SSO_DEMO=1 npm start` starts it)
 *
 * Service providers: a console's metadata is fetched from the AuthnRequest's Issuer (its metadata address) when
 * that is on 127.0.0.1 or localhost, or registered by `POST /sps` with the metadata XML (tests whose console has
 * no address this process can reach).
 * GET /metadata (the IdP's metadata), GET /cert (its signing certificate, PEM), GET /sso, POST /sso/login,
 * GET /slo (single logout: answers the SP's LogoutRequest), GET /logouts (the LogoutRequests received, JSON).
 * `Accept: application/json` on POST /sso/login returns { acs, SAMLResponse, RelayState } instead of the page.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { DOMParser } from "@xmldom/xmldom";
import * as samlify from "samlify";

/** The demo users (the same password for all); the ACME ones match the demo seed's console users. */
export const SAML_DEMO_USERS = [
  { email: "admin@acme.example", firstName: "Ada", lastName: "Admin", groups: ["console-admins"] },
  { email: "auditor@acme.example", firstName: "Aud", lastName: "Itor", groups: ["auditors"] },
  { email: "new.hire@acme.example", firstName: "Nia", lastName: "Newhire", groups: ["door-managers"] },
];
export const SAML_DEMO_PASSWORD = "Saml#Demo2026";

/** A new RSA key and self-signed certificate (PEM), made with openssl; nothing is committed. */
export function samlKeyPair(cn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "saml-keys-"));
  try {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "30", "-subj", `/CN=${cn}`], { stdio: "ignore" });
    return { privateKey: fs.readFileSync(key, "utf8"), cert: fs.readFileSync(cert, "utf8") };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The IdP parses only requests it is sent by the consoles it serves; samlify asks for an XML schema validator
// for that, and this local tool takes the request as the SP built it (the SP side, node-saml, is what is tested).
samlify.setSchemaValidator({ validate: async () => "skipped" });

const escapeXml = (s) => String(s).replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]);
const escapeHtml = escapeXml;
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

function attributeStatement(user) {
  const attr = (name, values) =>
    `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
      .map(
        (v) =>
          `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`,
      )
      .join("")}</saml:Attribute>`;
  return `<saml:AttributeStatement>${attr("email", [user.email])}${attr("firstName", [user.firstName])}${attr("lastName", [user.lastName])}${user.groups.length ? attr("groups", user.groups) : ""}</saml:AttributeStatement>`;
}

/**
 * Starts the IdP on 127.0.0.1:`port` (0: a free one). Returns { server, url, cert, close }.
 * `origin`: the IdP's public address (defaults to http://127.0.0.1:<port>).
 */
export async function startSamlIdp({ port = 0, quiet = false, keys = samlKeyPair("saml-idp.local") } = {}) {
  const sps = new Map();
  const logouts = [];
  const server = http.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  const makeIdp = (encrypt) =>
    samlify.IdentityProvider({
      entityID: `${url}/metadata`,
      privateKey: keys.privateKey,
      signingCert: keys.cert,
      nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
      requestSignatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      singleSignOnService: [{ Binding: REDIRECT, Location: `${url}/sso` }],
      singleLogoutService: [{ Binding: REDIRECT, Location: `${url}/slo` }],
      isAssertionEncrypted: encrypt,
      dataEncryptionAlgorithm: "http://www.w3.org/2009/xmlenc11#aes256-gcm",
      keyEncryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
    });
  const idp = makeIdp(false);

  const spFromMetadata = (xml) => {
    const sp = samlify.ServiceProvider({ metadata: xml });
    sps.set(sp.entityMeta.getEntityID(), { sp, xml });
    return sps.get(sp.entityMeta.getEntityID());
  };
  /** The SP an inflated request names: registered, or its metadata fetched from a local Issuer. */
  async function spFor(samlRequestB64) {
    const xml = zlib.inflateRawSync(Buffer.from(samlRequestB64, "base64")).toString("utf8");
    const doc = new DOMParser().parseFromString(xml, "text/xml");
    const issuer = doc.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Issuer")[0]?.textContent?.trim() ?? "";
    if (sps.has(issuer)) return sps.get(issuer);
    const at = new URL(issuer);
    if (!["127.0.0.1", "localhost"].includes(at.hostname)) throw new Error(`Unknown service provider ${issuer}`);
    const res = await fetch(issuer);
    if (!res.ok) throw new Error(`SP metadata ${issuer}: ${res.status}`);
    return spFromMetadata(await res.text());
  }
  /** The parsed AuthnRequest, with the raw query's signed part for a signed request. */
  async function parseRequest(sp, query, rawQuery) {
    const parts = rawQuery.split("&");
    const pick = (k) => parts.find((p) => p.startsWith(`${k}=`));
    const octetString = ["SAMLRequest", "RelayState", "SigAlg"].map(pick).filter(Boolean).join("&");
    return idp.parseLoginRequest(sp, "redirect", { query, octetString });
  }

  const page = (title, body) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto}label{display:block;margin:.6rem 0}input[type=email],input[type=password]{width:100%;padding:.4rem}</style></head><body>${body}</body></html>`;
  const send = (res, status, body, type = "text/html; charset=utf-8", headers = {}) => {
    res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", ...headers });
    res.end(body);
  };
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      let s = "";
      req.setEncoding("utf8");
      req.on("data", (c) => (s += c));
      req.on("end", () => resolve(s));
      req.on("error", reject);
    });

  server.on("request", async (req, res) => {
    const u = new URL(req.url, url);
    try {
      if (req.method === "GET" && u.pathname === "/metadata") return send(res, 200, idp.getMetadata(), "application/samlmetadata+xml");
      if (req.method === "GET" && u.pathname === "/cert") return send(res, 200, keys.cert, "application/x-pem-file");
      if (req.method === "GET" && u.pathname === "/logouts") return send(res, 200, JSON.stringify(logouts), "application/json");
      if (req.method === "POST" && u.pathname === "/sps") {
        const { sp } = spFromMetadata(await readBody(req));
        return send(res, 200, JSON.stringify({ entityId: sp.entityMeta.getEntityID() }), "application/json");
      }
      if (req.method === "GET" && u.pathname === "/sso") {
        const query = Object.fromEntries(u.searchParams);
        const { sp } = await spFor(query.SAMLRequest ?? "");
        await parseRequest(sp, query, u.search.slice(1));
        const canEncrypt = Boolean(sp.entityMeta.getX509Certificate("encryption"));
        return send(
          res,
          200,
          page(
            "Demo identity provider",
            `<h1>Demo identity provider</h1><p>Signing in to <code>${escapeHtml(sp.entityMeta.getEntityID())}</code></p>
<form method="post" action="/sso/login">
<input type="hidden" name="query" value="${escapeHtml(u.search.slice(1))}">
<label>E-mail <input type="email" name="email" autocomplete="username" required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<label><input type="checkbox" name="encrypt" value="1"${canEncrypt ? " checked" : " disabled"}> Encrypt the assertion</label>
<button type="submit">Sign in</button></form>
<p><small>Demo users: ${SAML_DEMO_USERS.map((x) => escapeHtml(x.email)).join(", ")}; password ${escapeHtml(SAML_DEMO_PASSWORD)}</small></p>`,
          ),
        );
      }
      if (req.method === "POST" && u.pathname === "/sso/login") {
        const form = new URLSearchParams(await readBody(req));
        const rawQuery = form.get("query") ?? "";
        const query = Object.fromEntries(new URLSearchParams(rawQuery));
        const { sp } = await spFor(query.SAMLRequest ?? "");
        const request = await parseRequest(sp, query, rawQuery);
        const user = SAML_DEMO_USERS.find((x) => x.email === (form.get("email") ?? "").trim().toLowerCase());
        if (!user || form.get("password") !== SAML_DEMO_PASSWORD)
          return send(res, 401, page("Wrong e-mail or password", `<p id="error">Wrong e-mail or password.</p><p><a href="/sso?${escapeHtml(rawQuery)}">Try again</a></p>`));
        const encrypt = form.get("encrypt") === "1" && Boolean(sp.entityMeta.getX509Certificate("encryption"));
        const acs = sp.entityMeta.getAssertionConsumerService("post");
        const signer = makeIdp(encrypt);
        const now = new Date();
        const later = new Date(now.getTime() + 5 * 60_000).toISOString();
        const id = `_${crypto.randomUUID()}`;
        const sessionIndex = `_s${crypto.randomUUID()}`;
        const { context } = await signer.createLoginResponse(sp, request, "post", user, (template) => ({
          id,
          context: samlify.default.SamlLib.replaceTagsByValue(
            template
              .replace("{AttributeStatement}", attributeStatement(user))
              .replace(
                "{AuthnStatement}",
                `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${sessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
              ),
            {
              ID: id,
              AssertionID: `_${crypto.randomUUID()}`,
              Destination: acs,
              Audience: sp.entityMeta.getEntityID(),
              SubjectRecipient: acs,
              Issuer: `${url}/metadata`,
              IssueInstant: now.toISOString(),
              StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
              ConditionsNotBefore: now.toISOString(),
              ConditionsNotOnOrAfter: later,
              SubjectConfirmationDataNotOnOrAfter: later,
              NameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
              NameID: user.email,
              InResponseTo: request.extract.request.id,
            },
          ),
        }));
        const relayState = query.RelayState ?? "";
        if (!quiet) console.log(`saml-idp: ${user.email} → ${acs}${encrypt ? " (encrypted)" : ""}`);
        if ((req.headers.accept ?? "").includes("application/json"))
          return send(res, 200, JSON.stringify({ acs, SAMLResponse: context, RelayState: relayState }), "application/json");
        return send(
          res,
          200,
          page(
            "Signing in…",
            `<form method="post" action="${escapeHtml(acs)}" id="saml-post"><input type="hidden" name="SAMLResponse" value="${escapeHtml(context)}"><input type="hidden" name="RelayState" value="${escapeHtml(relayState)}"><p>Returning to the console…</p><button type="submit">Continue</button></form><script>document.getElementById("saml-post").submit()</script>`,
          ),
        );
      }
      if (req.method === "GET" && u.pathname === "/slo") {
        const query = Object.fromEntries(u.searchParams);
        const xml = zlib.inflateRawSync(Buffer.from(query.SAMLRequest ?? "", "base64")).toString("utf8");
        const doc = new DOMParser().parseFromString(xml, "text/xml");
        const issuer = doc.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Issuer")[0]?.textContent?.trim() ?? "";
        const known = sps.get(issuer);
        if (!known) return send(res, 400, "Unknown service provider", "text/plain");
        const parsed = await idp.parseLogoutRequest(known.sp, "redirect", {
          query,
          octetString: u.search
            .slice(1)
            .split("&")
            .filter((p) => /^(SAMLRequest|RelayState|SigAlg)=/.test(p))
            .join("&"),
        });
        logouts.push({ issuer, nameId: parsed.extract.nameID, sessionIndex: parsed.extract.sessionIndex, at: new Date().toISOString() });
        if (!quiet) console.log(`saml-idp: single logout of ${parsed.extract.nameID}`);
        // The console's metadata names an HTTP-POST SingleLogoutService: the answer is posted back.
        const { context, entityEndpoint } = idp.createLogoutResponse(known.sp, parsed, "post", query.RelayState ?? "");
        return send(
          res,
          200,
          page(
            "Signing out…",
            `<form method="post" action="${escapeHtml(entityEndpoint)}" id="saml-post"><input type="hidden" name="SAMLResponse" value="${escapeHtml(context)}"><p>Signed out. Returning to the console…</p><button type="submit">Continue</button></form><script>document.getElementById("saml-post").submit()</script>`,
          ),
        );
      }
      send(res, 404, "Not found", "text/plain");
    } catch (e) {
      if (!quiet) console.error(`saml-idp: ${e instanceof Error ? e.message : e}`);
      send(res, 400, page("SAML error", `<p id="error">${escapeHtml(e instanceof Error ? e.message : String(e))}</p>`));
    }
  });
  return { server, url, cert: keys.cert, close: () => new Promise((r) => server.close(r)) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const i = process.argv.indexOf("--port");
  const port = Number(i > 0 ? process.argv[i + 1] : (process.env.SAML_IDP_PORT ?? 8790));
  const idp = await startSamlIdp({ port });
  console.log(`SAML identity provider on ${idp.url} (metadata ${idp.url}/metadata, SSO ${idp.url}/sso, SLO ${idp.url}/slo)`);
  console.log(`Demo users: ${SAML_DEMO_USERS.map((x) => x.email).join(", ")}; password ${SAML_DEMO_PASSWORD}`);
}
