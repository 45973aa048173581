/**
 * The phone's user verification (fingerprint, face or screen-lock PIN) through WebAuthn's platform
 * authenticator, when the company requires biometrics (docs/decisions/0039-biometric-claim.md).
 * - The installation registers its platform credential with the console once (challenge from the
 *   console, user verification required, attestation "none"); the console keeps its public key.
 * - Each refresh of the keys sends a fresh assertion over a console challenge: the console verifies it
 *   before it signs, and the credentials carry the verification (`uv`), which the company's boards require.
 * - Presenting a held key (possibly offline) asks the authenticator again, locally, so that a phone left
 *   unlocked does not present keys for someone else.
 */
import type { AssertionInput } from "~/schemas/phone-webauthn";
import { phoneApi } from "./phone-api";

export type UserVerification = "verified" | "unavailable" | "refused";

const STORE_KEY = "phone.platformCredential";
/** Authenticator data: 32 bytes of RP id hash, then the flags byte; bit 2 is "user verified". */
const FLAGS_OFFSET = 32;
const UV_FLAG = 0x04;
const TIMEOUT_MS = 60_000;
const COSE_ES256 = -7;
const COSE_EDDSA = -8;
const COSE_RS256 = -257;

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

/** Creates this installation's platform credential over a console challenge and registers its public key. */
async function register(token: string, userName: string): Promise<void> {
  const { payload: c } = await phoneApi.challenge(token, "create");
  const created = (await navigator.credentials.create({
    publicKey: {
      challenge: fromBase64Url(c.challenge),
      rp: { id: c.rpId, name: "Keyless Access" },
      user: { id: random(16), name: userName, displayName: userName },
      pubKeyCredParams: [COSE_ES256, COSE_EDDSA, COSE_RS256].map((alg) => ({ type: "public-key" as const, alg })),
      authenticatorSelection: { authenticatorAttachment: "platform", userVerification: "required", residentKey: "discouraged" },
      attestation: "none",
      timeout: TIMEOUT_MS,
    },
  })) as PublicKeyCredential | null;
  const response = created?.response as AuthenticatorAttestationResponse | undefined;
  const publicKey = response?.getPublicKey();
  if (!created || !response || !publicKey) throw new Error("no credential");
  await phoneApi.registerAuthenticator(token, {
    credentialId: toBase64Url(created.rawId),
    clientDataJSON: toBase64Url(response.clientDataJSON),
    authenticatorData: toBase64Url(response.getAuthenticatorData()),
    publicKey: toBase64Url(publicKey),
    publicKeyAlgorithm: response.getPublicKeyAlgorithm(),
  });
}

/**
 * A fresh assertion over a console challenge, for the keys call; registers the installation first when
 * the console knows no credential of it. The console judges the assertion; the phone only makes it.
 */
export async function assertForConsole(token: string, userName: string): Promise<{ assertion: AssertionInput } | { refused: UserVerification }> {
  if (!(await platformAvailable())) return { refused: "unavailable" };
  try {
    let { payload: c } = await phoneApi.challenge(token, "get");
    if (!c.credentialId) {
      await register(token, userName);
      c = (await phoneApi.challenge(token, "get")).payload;
    }
    if (!c.credentialId) return { refused: "refused" };
    localStorage.setItem(STORE_KEY, c.credentialId);
    const got = (await navigator.credentials.get({
      publicKey: {
        challenge: fromBase64Url(c.challenge),
        rpId: c.rpId,
        allowCredentials: [{ type: "public-key", id: fromBase64Url(c.credentialId) }],
        userVerification: "required",
        timeout: TIMEOUT_MS,
      },
    })) as PublicKeyCredential | null;
    const response = got?.response as AuthenticatorAssertionResponse | undefined;
    if (!got || !response) return { refused: "refused" };
    return {
      assertion: {
        credentialId: toBase64Url(got.rawId),
        clientDataJSON: toBase64Url(response.clientDataJSON),
        authenticatorData: toBase64Url(response.authenticatorData),
        signature: toBase64Url(response.signature),
      },
    };
  } catch {
    return { refused: "refused" };
  }
}

/** Asks the phone to verify its user now, with the registered credential (offline too); "verified" only when the authenticator says it did. */
export async function verifyUser(): Promise<UserVerification> {
  if (!(await platformAvailable())) return "unavailable";
  const id = localStorage.getItem(STORE_KEY);
  if (!id) return "refused";
  try {
    const assertion = (await navigator.credentials.get({
      publicKey: { challenge: random(32), allowCredentials: [{ type: "public-key", id: fromBase64Url(id) }], userVerification: "required", timeout: TIMEOUT_MS },
    })) as PublicKeyCredential | null;
    const data = new Uint8Array((assertion?.response as AuthenticatorAssertionResponse | undefined)?.authenticatorData ?? new ArrayBuffer(0));
    return data.length > FLAGS_OFFSET && (data[FLAGS_OFFSET] & UV_FLAG) !== 0 ? "verified" : "refused";
  } catch {
    return "refused";
  }
}

/** Signing out forgets the platform credential's id with the rest of the account. */
export const forgetPlatformCredential = () => localStorage.removeItem(STORE_KEY);
