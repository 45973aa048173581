/**
 * A software WebAuthn authenticator for tests: the client side only (it makes registration and assertion
 * responses as a platform authenticator would, ES256 with WebCrypto, per the WebAuthn spec); the verifier is
 * the console's, @simplewebauthn/server. Attestation 'none'.
 */

const enc = new TextEncoder();

export const b64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
export const fromB64url = (s: string): Uint8Array => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

/** The few CBOR items an attestation object and a COSE key need (RFC 8949): ints, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
function head(major: number, n: number): Uint8Array {
  if (n < 24) return Uint8Array.of((major << 5) | n);
  if (n < 256) return Uint8Array.of((major << 5) | 24, n);
  if (n < 65536) return Uint8Array.of((major << 5) | 25, n >> 8, n & 255);
  return Uint8Array.of((major << 5) | 26, (n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
}
export function cbor(v: Cbor): Uint8Array {
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === "string") {
    const b = enc.encode(v);
    return concat(head(3, b.length), b);
  }
  if (v instanceof Uint8Array) return concat(head(2, v.length), v);
  return concat(head(5, v.size), ...[...v].flatMap(([k, val]) => [cbor(k), cbor(val)]));
}

const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource));

/** WebCrypto's ECDSA signature (r || s) as the DER SEQUENCE WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    let v = b.slice(i);
    if (v[0] & 0x80) v = concat(Uint8Array.of(0), v);
    return concat(Uint8Array.of(0x02, v.length), v);
  };
  const body = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(Uint8Array.of(0x30, body.length), body);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export type Overrides = { origin?: string; rpID?: string; counter?: number; userVerified?: boolean; challenge?: string };

export class SoftAuthenticator {
  credentialId = crypto.getRandomValues(new Uint8Array(16));
  counter = 0;
  private keys!: CryptoKeyPair;

  constructor(
    /** The origin the "browser" reports in clientDataJSON. */
    public origin: string,
    public rpID = new URL(origin).hostname,
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  private async authData(rpID: string, flags: number, counter: number, attested?: Uint8Array): Promise<Uint8Array> {
    const count = Uint8Array.of((counter >>> 24) & 255, (counter >>> 16) & 255, (counter >>> 8) & 255, counter & 255);
    return concat(await sha256(enc.encode(rpID)), Uint8Array.of(flags), count, attested ?? new Uint8Array());
  }

  /** navigator.credentials.create for `options` (PublicKeyCredentialCreationOptionsJSON): a RegistrationResponseJSON. */
  async create(options: { challenge: string }, o: Overrides = {}) {
    this.keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", this.keys.publicKey)) as JsonWebKey;
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromB64url(jwk.x!)],
        [-3, fromB64url(jwk.y!)],
      ]),
    );
    const idLen = Uint8Array.of(this.credentialId.length >> 8, this.credentialId.length & 255);
    const attested = concat(new Uint8Array(16), idLen, this.credentialId, cose);
    const counter = o.counter ?? this.counter;
    const flags = FLAG_UP | FLAG_AT | (o.userVerified === false ? 0 : FLAG_UV);
    const authData = await this.authData(o.rpID ?? this.rpID, flags, counter, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const clientData = enc.encode(JSON.stringify({ type: "webauthn.create", challenge: o.challenge ?? options.challenge, origin: o.origin ?? this.origin, crossOrigin: false }));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get for `options`: an AuthenticationResponseJSON; the counter moves forward by one unless told. */
  async get(options: { challenge: string }, o: Overrides = {}) {
    const counter = o.counter ?? ++this.counter;
    const flags = FLAG_UP | (o.userVerified === false ? 0 : FLAG_UV);
    const authData = await this.authData(o.rpID ?? this.rpID, flags, counter);
    const clientData = enc.encode(JSON.stringify({ type: "webauthn.get", challenge: o.challenge ?? options.challenge, origin: o.origin ?? this.origin, crossOrigin: false }));
    const signed = concat(authData, await sha256(clientData));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed as BufferSource));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(derSignature(raw)) },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
