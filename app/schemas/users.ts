import { z } from "zod";
import { TWO_FACTOR_CHANNELS } from "./auth";
import { customValuesSchema } from "./custom-fields";
import { checkbox } from "./flag";
import { checkPhonePair, phonePair } from "./phone";
import { freeText, nameText } from "./text";

/**
 * The add/modify user form (docs/ARCHITECTURE.md §7.2), shared by the form, the service and the admin API.
 * Messages are the spec's English texts; the console translates them in the `users` namespace.
 */
const required = (label: string) =>
  z
    .string({ required_error: `${label} is required`, invalid_type_error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`);

export const USER_PHONE_MSG = { country: "Country code is invalid", number: "Cell number is invalid" } as const;

/**
 * The cell is read in the chosen country (docs/decisions/0037-phone-numbers-e164.md): after parsing,
 * `cell` is E.164 and `countryCode` its calling code ('034').
 */
export const userFormSchema = z
  .object({
    firstName: nameText("First name"),
    lastName: nameText("Last name"),
    displayName: nameText("Display name"),
    email: required("Email")
      .pipe(z.string().max(254, "Email is invalid").email("Email is invalid"))
      .transform((s) => s.toLowerCase()),
    countryCode: required("Country code").pipe(z.string().max(8, USER_PHONE_MSG.country)),
    cell: required("Cell"),
    userNotes: z.string().trim().pipe(freeText("Notes", 2000)).default(""),
    isSentinel: checkbox(),
    isSuperAdmin: checkbox(),
    isInstaller: checkbox(),
    isFob: checkbox(),
    isInactive: checkbox(),
    isSOInterrupt: checkbox(true),
    /** On a new user only: mail the invite now (decision 0055). The form's box starts ticked; the API's default is on. */
    sendInvite: checkbox(),
    /** The company's custom fields by key (decision 0095); checked against the definitions by the service. */
    customFields: customValuesSchema,
  })
  .superRefine((v, ctx) => checkPhonePair(v, ctx, { country: "countryCode", number: "cell" }, USER_PHONE_MSG))
  .transform((v) => {
    const { e164, countryCode } = phonePair(v.countryCode, v.cell);
    return { ...v, countryCode, cell: e164 };
  });
export type UserForm = z.input<typeof userFormSchema>;
export type UserInput = z.output<typeof userFormSchema>;

/** The admin API's '1'/'0' flags (booleans and "true"/"false" are accepted too). */
const flag = z.union([z.boolean(), z.enum(["1", "0", "true", "false"]), z.literal(1), z.literal(0)]).transform((v) => v === true || v === 1 || v === "1" || v === "true");

/** POST /user/addUser body, spec names (phoneNumer sic). Field checks happen in `userFormSchema`. */
export const addUserBody = z.object({
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  displayName: z.string().optional(),
  emailId: z.string().optional(),
  countryCode: z.string().optional(),
  phoneNumer: z.string().optional(),
  userNotes: z.string().optional(),
  isSentinel: flag.optional(),
  isSuperAdmin: flag.optional(),
  isInstaller: flag.optional(),
  isFob: flag.optional(),
  isInactive: flag.optional(),
  isSOInterrupt: flag.optional(),
  /** addUser only: mail the invite (set-password link) now; on unless '0'. */
  sendInvite: flag.optional(),
  /** Custom field values by key (decision 0095): text, number or date YYYY-MM-DD; null or "" clears. */
  custom_fields: customValuesSchema,
});
export const modifyUserBody = addUserBody.extend({ userId: z.coerce.number().int().positive("userId is required") });

/** Spec body → form input (the service validates it with `userFormSchema`). */
export function fromApiBody(b: z.infer<typeof addUserBody>): UserForm {
  return {
    firstName: b.firstName ?? "",
    lastName: b.lastName ?? "",
    displayName: b.displayName ?? "",
    email: b.emailId ?? "",
    countryCode: b.countryCode ?? "",
    cell: b.phoneNumer ?? "",
    userNotes: b.userNotes ?? "",
    isSentinel: b.isSentinel ?? false,
    isSuperAdmin: b.isSuperAdmin ?? false,
    isInstaller: b.isInstaller ?? false,
    isFob: b.isFob ?? false,
    isInactive: b.isInactive ?? false,
    isSOInterrupt: b.isSOInterrupt ?? true,
    sendInvite: b.sendInvite ?? true,
    customFields: b.custom_fields,
  };
}

/** 'last, first': the display name the form offers. */
export const autoDisplayName = (first: string, last: string) => [last.trim(), first.trim()].filter(Boolean).join(", ");

type Names = { firstName: string; lastName: string; displayName: string };

/**
 * The display name follows the first and last name as either is typed, in any order, until it is
 * edited by hand (it then no longer equals the name built from the previous values, or is cleared).
 */
export function followDisplayName<T extends Names>(prev: T, next: T): T {
  const named = next.firstName !== prev.firstName || next.lastName !== prev.lastName;
  const following = prev.displayName === autoDisplayName(prev.firstName, prev.lastName);
  return named && following ? { ...next, displayName: autoDisplayName(next.firstName, next.lastName) } : next;
}

/** Super admin implies sentinel web management (docs/ARCHITECTURE.md §3). */
export function applyPrivilegeRules<T extends { isSuperAdmin: boolean; isSentinel: boolean }>(v: T): T {
  return v.isSuperAdmin ? { ...v, isSentinel: true } : v;
}

/** Account Details: where one's own sign-in codes go (POST intent twoFactorChannel; PUT /user/setTwoFactorChannel). */
export const twoFactorChannelSchema = z.object({
  // Any case ('Text', 'EMAIL'): the API takes what a person would type.
  channel: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
    z.enum(TWO_FACTOR_CHANNELS, { errorMap: () => ({ message: "Choose e-mail or text message" }) }),
  ),
});
export type TwoFactorChannelInput = z.output<typeof twoFactorChannelSchema>;

export const idQuery = z.object({ id: z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required") });
export const userIdBody = z.object({ userId: z.coerce.number({ invalid_type_error: "userId must be a number" }).int().positive("userId is required") });
export const flaggedUserBody = userIdBody.extend({
  is_flagged: z.union([z.string(), z.number(), z.boolean()]).transform((v) => v === true || v === 1 || v === "1"),
  support_ticket_id: z.union([z.string(), z.number()]).nullish(),
});
