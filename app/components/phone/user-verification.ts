/**
 * The phone's own user verification (fingerprint, face or screen-lock PIN) through WebAuthn's platform
 * authenticator, asked before a key is presented when the company requires biometrics. The first time,
 * the app registers a platform credential for this installation (kept in localStorage); each
 * presentation then asks the authenticator for an assertion with user verification required and reads
 * the UV flag of its authenticator data. Nothing is sent to the console: this gate is the phone's, and
 * boards do not learn of it (docs/decisions/0028-signed-offline-credentials.md, "Biometric requirement").
 */
export type UserVerification = "verified" | "unavailable" | "refused";

const STORE_KEY = "phone.platformCredential";
/** Authenticator data: 32 bytes of RP id hash, then the flags byte; bit 2 is "user verified". */
const FLAGS_OFFSET = 32;
const UV_FLAG = 0x04;
const TIMEOUT_MS = 60_000;

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
const toBase64Url = (b: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(b)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64Url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

async function platformAvailable(): Promise<boolean> {
  if (typeof PublicKeyCredential === "undefined" || !navigator.credentials) return false;
  return PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().catch(() => false);
}

/** Registers this installation's platform credential (with user verification) and keeps its id. */
async function register(userName: string): Promise<string> {
  const created = (await navigator.credentials.create({
    publicKey: {
      challenge: random(32),
      rp: { name: "Keyless Access" },
      user: { id: random(16), name: userName, displayName: userName },
      pubKeyCredParams: [
        { type: "public-key", alg: -7 },
        { type: "public-key", alg: -257 },
      ],
      authenticatorSelection: { authenticatorAttachment: "platform", userVerification: "required", residentKey: "discouraged" },
      attestation: "none",
      timeout: TIMEOUT_MS,
    },
  })) as PublicKeyCredential | null;
  if (!created) throw new Error("no credential");
  const id = toBase64Url(created.rawId);
  localStorage.setItem(STORE_KEY, id);
  return id;
}

/** Asks the phone to verify its user now; "verified" only when the authenticator says it did. */
export async function verifyUser(userName: string): Promise<UserVerification> {
  if (!(await platformAvailable())) return "unavailable";
  try {
    const id = localStorage.getItem(STORE_KEY) ?? (await register(userName));
    const assertion = (await navigator.credentials.get({
      publicKey: { challenge: random(32), allowCredentials: [{ type: "public-key", id: fromBase64Url(id) }], userVerification: "required", timeout: TIMEOUT_MS },
    })) as PublicKeyCredential | null;
    const data = new Uint8Array((assertion?.response as AuthenticatorAssertionResponse | undefined)?.authenticatorData ?? new ArrayBuffer(0));
    return data.length > FLAGS_OFFSET && (data[FLAGS_OFFSET] & UV_FLAG) !== 0 ? "verified" : "refused";
  } catch {
    // Cancelled, or the credential is gone from the phone: the next attempt registers again (with verification too).
    localStorage.removeItem(STORE_KEY);
    return "refused";
  }
}

/** Signing out forgets the platform credential's id with the rest of the account. */
export const forgetPlatformCredential = () => localStorage.removeItem(STORE_KEY);
