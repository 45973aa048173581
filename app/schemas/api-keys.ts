import { z } from "zod";
import { MODULES } from "~/utils/permissions";
import { checkbox } from "./flag";

/**
 * API keys for machines (decision 0075): a name, modules and actions in the role model (view is implied),
 * and an optional lifetime in days. Shared by the keys screen's form, the service and the admin API.
 */
export const API_KEY_MSG = {
  nameRequired: "Required key name",
  nameTooLong: "The key name is too long",
  atLeastOne: "Please choose at least one module",
  expiry: "Choose how long the key lasts",
  created: "API key created",
  revoked: "API key revoked",
  notFound: "The provided API key is invalid",
  escalation: "You cannot grant a module or permission you do not hold",
  notByKey: "API keys are managed by people, not by other keys",
} as const;

/** How long a new key lasts: never or a number of days ("never" is a word: the form drops empty values before the schema sees them). */
export const API_KEY_LIFETIMES = ["never", "30", "90", "365"] as const;

/** Modules a key never holds: changing a password is a person's. */
export const KEYLESS_MODULES = ["change_password"] as const;
export const KEY_MODULES = MODULES.filter((m) => !(KEYLESS_MODULES as readonly string[]).includes(m));

export const apiKeyFormSchema = z.object({
  name: z
    .string({ required_error: API_KEY_MSG.nameRequired, invalid_type_error: API_KEY_MSG.nameRequired })
    .trim()
    .min(1, API_KEY_MSG.nameRequired)
    .max(100, API_KEY_MSG.nameTooLong),
  // One ticked module posts a single value, none posts nothing.
  modules: z
    .preprocess((m) => (m === undefined ? [] : [m].flat()), z.array(z.string()))
    .transform((m) => KEY_MODULES.filter((k) => m.includes(k)))
    .refine((m) => m.length > 0, API_KEY_MSG.atLeastOne),
  canAdd: checkbox(),
  canModify: checkbox(),
  canDelete: checkbox(),
  // The form posts a string, the admin API may send a number or null.
  lifetime: z.preprocess((v) => (v == null || v === "" ? "never" : String(v)), z.enum(API_KEY_LIFETIMES, { errorMap: () => ({ message: API_KEY_MSG.expiry }) })),
});
export type ApiKeyInput = z.output<typeof apiKeyFormSchema>;
