import { z } from "zod";

/**
 * The phone's WebAuthn payloads (/api/mobile/webauthn/*, POST /api/mobile/keys). Binary fields travel
 * as base64url (no padding), each bounded. Client-safe: the phone app builds them with the same names.
 */
export const BIO_MSG = {
  required: "Biometric verification required",
  failed: "Biometric verification failed",
  registrationFailed: "Biometric registration failed",
  purpose: "purpose must be create or get",
  binary: "must be base64url",
  algorithm: "publicKeyAlgorithm must be -7 (ES256), -8 (EdDSA) or -257 (RS256)",
} as const;

const b64url = (name: string, max: number) =>
  z
    .string({ required_error: `${name} is required`, invalid_type_error: `${name} ${BIO_MSG.binary}` })
    .max(max, `${name} is too long`)
    .regex(/^[A-Za-z0-9_-]+$/, `${name} ${BIO_MSG.binary}`);

export const challengeSchema = z.object({ purpose: z.enum(["create", "get"], { errorMap: () => ({ message: BIO_MSG.purpose }) }) });
export type ChallengeInput = z.infer<typeof challengeSchema>;

/** COSE algorithm ids the console verifies. */
export const COSE_ALGS = [-7, -8, -257] as const;

export const registrationSchema = z.object({
  credentialId: b64url("credentialId", 1366),
  clientDataJSON: b64url("clientDataJSON", 4096),
  authenticatorData: b64url("authenticatorData", 4096),
  publicKey: b64url("publicKey", 2048),
  publicKeyAlgorithm: z.coerce
    .number({ invalid_type_error: BIO_MSG.algorithm })
    .int()
    .refine((n) => (COSE_ALGS as readonly number[]).includes(n), BIO_MSG.algorithm),
});
export type RegistrationInput = z.infer<typeof registrationSchema>;

export const assertionSchema = z.object({
  credentialId: b64url("credentialId", 1366),
  clientDataJSON: b64url("clientDataJSON", 4096),
  authenticatorData: b64url("authenticatorData", 4096),
  signature: b64url("signature", 1024),
});
export type AssertionInput = z.infer<typeof assertionSchema>;

/** POST /api/mobile/keys: the keys call with a fresh assertion (required when the company requires biometrics). */
export const keysWithAssertionSchema = z.object({ assertion: assertionSchema.optional() });
