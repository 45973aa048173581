import { z } from "zod";

/** The console's refusal of a user without console rights; the sign-in page then points to the phone app (decision 0055). */
export const NO_CONSOLE_MSG = "You do not have permission to log in to the console";

/** Shared by the sign-in form (client checks) and the service (server checks). */
export const companyCode = z
  .string({ required_error: "Company ID is required to have 4 digits", invalid_type_error: "Company ID is required to have 4 digits" })
  .trim()
  .length(4, "Company ID is required to have 4 digits")
  .transform((s) => s.toUpperCase());

/** Numbers sent where text is expected (a phone number, a numeric company ID) are read as text. */
const asText = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v);

/**
 * The spec names the languages `En` and `Es`; any case, and a region suffix (`en-US`), are accepted.
 * An empty value means "not given".
 */
export const languageField = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toLowerCase().split(/[-_]/)[0] || undefined : (v ?? undefined)),
  z.enum(["en", "es"], { errorMap: () => ({ message: "language must be En or Es" }) }).optional(),
);

export const loginSchema = z.object({
  companyId: z.preprocess(asText, companyCode),
  userName: z.preprocess(
    asText,
    z
      .string({ required_error: "Email or Phone Number is required", invalid_type_error: "Email or Phone Number is required" })
      .trim()
      .min(1, "Email or Phone Number is required")
      .max(254, "Email or Phone Number is too long"),
  ),
  password: z.string({ required_error: "Password is required", invalid_type_error: "Password is required" }).min(1, "Password is required").max(256, "Password is too long"),
  language: languageField,
});
export type LoginInput = z.infer<typeof loginSchema>;

/** An authenticator app's recovery code: 10 base32 characters, shown as two groups of five; case and the dash do not matter. */
export const RECOVERY_CODE = /^[a-z2-7]{5}-?[a-z2-7]{5}$/i;

export const twoFactorSchema = z.object({
  companyId: companyCode,
  userName: z.string({ required_error: "User name is required" }).trim().min(1, "User name is required"),
  // Six digits, or a recovery code of an authenticator app ("abcde-fghij", decision 0120).
  code: z
    .string({ required_error: "The code must have 6 characters" })
    .trim()
    .refine((v) => v.length === 6 || RECOVERY_CODE.test(v), "The code must have 6 characters"),
});

/** Asks for the waiting sign-in code again by the other channel (POST /user/sendTwoFactorCodeByText, ByEmail). */
export const resendTwoFactorCodeSchema = twoFactorSchema.pick({ companyId: true, userName: true });

/** Where a user's sign-in codes go (their own choice on Account Details; e-mail unless they chose text). */
export const TWO_FACTOR_CHANNELS = ["email", "text"] as const;
export type TwoFactorChannel = (typeof TWO_FACTOR_CHANNELS)[number];

const newPassword = z.string({ required_error: "New password is required" }).min(1, "New password is required");

export const resetExpiredPasswordSchema = z.object({
  companyId: companyCode,
  userName: z.string({ required_error: "User name is required" }).trim().min(1, "User name is required"),
  currentPassword: z.string({ required_error: "Current password is required" }).min(1, "Current password is required"),
  newPassword,
  confirmPassword: z.string({ required_error: "Confirm password is required" }).min(1, "Confirm password is required"),
});

export const changePasswordSchema = z.object({
  currentPassword: z.string({ required_error: "Current password is required" }).min(1, "Current password is required"),
  newPassword,
  confirmPassword: z.string({ required_error: "Confirm password is required" }).min(1, "Confirm password is required"),
});

export const forgotPasswordSchema = z.object({
  companyId: companyCode,
  userName: z.string({ required_error: "Email or user name is required" }).trim().min(1, "Email or user name is required"),
  /** Asked from the phone app: the link signs in there (decision 0055). */
  landsOn: z.enum(["console", "phone"]).optional(),
});

export const webResetPasswordSchema = z
  .object({
    uid: z.string().min(1),
    password: newPassword,
    confirmPassword: z.string().optional(),
    /** Reset mode 'text': the code texted to the user's phone (decision 0062). */
    code: z.string().trim().max(12).optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
    message: "The two passwords must match",
    path: ["confirmPassword"],
  });
