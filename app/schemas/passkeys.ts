import { z } from "zod";

/** Adding a passkey on /passkeys: its name, and the browser's registration response (JSON, from @simplewebauthn/browser). */
export const passkeyNameSchema = z.object({
  name: z
    .string({ required_error: "Name the passkey (1 to 60 characters)" })
    .trim()
    .min(1, "Name the passkey (1 to 60 characters)")
    .max(60, "Name the passkey (1 to 60 characters)"),
});

export const passkeyRegisterSchema = passkeyNameSchema.extend({
  response: z.string({ required_error: "The passkey could not be verified" }).min(2, "The passkey could not be verified"),
});

export const passkeyRenameSchema = passkeyNameSchema.extend({ id: z.coerce.number().int().positive() });

export const passkeyRemoveSchema = z.object({ id: z.coerce.number().int().positive() });

/** The code page's "Use a passkey": whose sign-in, and the browser's assertion (JSON). */
export const passkeySignInSchema = z.object({
  companyId: z.string().trim().min(1),
  userName: z.string().trim().min(1),
  response: z.string().min(2),
});
