import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { countryDefaults } from "~/utils/country-defaults";
import { callingCode, wireCallingCode } from "~/utils/phone";
import { languageField } from "./auth";
import { pocBodyFields, pocPhone, POC_PHONE_MSG } from "./phone";

/**
 * Companies (spec part 2 §3, §4, §5, §9): the create/modify form shared by the form, the service
 * and the admin API. Messages are the spec's English texts; the console translates them in the
 * `companies` namespace.
 */

export const COMPANY_TYPES = ["ec", "var", "oem"] as const;
export type CreatableCompanyType = (typeof COMPANY_TYPES)[number];

/** Discount options (spec §9): percentage and its label. */
export const DISCOUNTS = [
  { value: 0, label: "Retail" },
  { value: 15, label: "1-24 units/year" },
  { value: 19, label: "25-99" },
  { value: 24, label: "100-249" },
  { value: 30, label: "250-999" },
  { value: 40, label: "1000+" },
  { value: 50, label: "International" },
] as const;
const DISCOUNT_VALUES: readonly number[] = DISCOUNTS.map((d) => d.value);

/** An end consumer (ec) starts at 0 % (Retail); oem and var at 15 % (spec §4, §9). */
export const defaultDiscount = (type: string) => (type === "ec" ? 0 : 15);

/** Which company types may be a parent of a new company of `type` (spec §5). */
export function allowedParentTypes(type: string): readonly string[] {
  if (type === "oem") return ["root"];
  if (type === "var" || type === "ec") return ["root", "var"];
  return [];
}

/** Company codes: 4 characters, upper-case letters except V, and digits (spec §5). */
export const CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUWXYZ0123456789";
export const CODE_PATTERN = /^[A-UW-Z0-9]{4}$/;

/** A random code; `random` returns numbers in [0, 1) (crypto-backed by default). */
export function generateCompanyCode(random: () => number = cryptoRandom): string {
  let code = "";
  for (let i = 0; i < 4; i++) code += CODE_ALPHABET[Math.floor(random() * CODE_ALPHABET.length)];
  return code;
}

function cryptoRandom(): number {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return a[0] / 2 ** 32;
}

const text = (message: string) => z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message);

const flag = z.union([z.boolean(), z.enum(["1", "0", "true", "false"]), z.literal(1), z.literal(0)]).transform((v) => v === true || v === 1 || v === "1" || v === "true");

/** The fields both create and modify check (spec §5 "Modify company: the same rules except type, parent and ID"). */
/** The point of contact a company and a company request both name, with the spec's messages. */
export const pocFormFields = {
  POCFirstName: text("Required first name").pipe(z.string().max(100)),
  POCLastName: text("Required last name").pipe(z.string().max(100)),
  POCEmail: text("Required email")
    .pipe(z.string().email("Email invalid").max(200))
    .transform((s) => s.toLowerCase()),
  POCCountryCode: text("Required country code").pipe(z.string().max(8, POC_PHONE_MSG.country)),
  POCPhoneNumber: text("Required telephone"),
};

const commonFields = {
  companyName: text("Required company name").pipe(z.string().max(200)),
  discountPercentage: z
    .union([z.number(), z.string()], { required_error: "Required discount percentage", invalid_type_error: "Required discount percentage" })
    .refine((v) => String(v).trim() !== "", "Required discount percentage")
    .transform((v) => Number(v))
    .refine((v) => DISCOUNT_VALUES.includes(v), "Required discount percentage"),
  nextBillingDate: z
    .string()
    .nullish()
    .transform((v) => v?.trim() || null)
    .refine((v) => v == null || /^\d{4}-\d{2}-\d{2}$/.test(v), "Next billing date is invalid"),
  ...pocFormFields,
  isDeactive: flag.default(false),
};

/** The new company's settings asked at creation (decision 0055), with their messages. */
export const COMPANY_SETUP_MSG = {
  timeZone: "Time zone is required",
  badTimeZone: "The time zone is not one the console knows",
  country: "The country is invalid",
} as const;

/** What the company's settings start with: its zone (IANA name), default phone country ('034') and mail language. */
export type CompanySetup = { timeZone: string; countryCode: string; language: "en" | "es" };

/**
 * Zone, country and language of a new company. The form always posts all three (prefilled from the
 * contact phone's country; an emptied zone is refused). An API caller may leave out the language (the
 * country's), the country (the contact phone's) and the zone only when it names the country: then the
 * country's main zone. A company without a zone is never created.
 */
function withSetup<T extends z.ZodTypeAny>(schema: T) {
  return schema
    .superRefine((v: { country?: string; timeZone?: string; POCCountryCode: string }, ctx) => {
      if (v.country && callingCode(v.country) === null) ctx.addIssue({ code: "custom", path: ["country"], message: COMPANY_SETUP_MSG.country });
      const derived = v.country ? countryDefaults(v.country)?.timeZone : null;
      if (v.timeZone === undefined && !derived) ctx.addIssue({ code: "custom", path: ["timeZone"], message: COMPANY_SETUP_MSG.timeZone });
    })
    .transform((v: z.output<T> & { country?: string; timeZone?: string; language?: "en" | "es"; POCCountryCode: string }) => {
      const country = v.country || v.POCCountryCode;
      const defaults = countryDefaults(country);
      const setup: CompanySetup = {
        timeZone: v.timeZone ?? countryDefaults(v.country)!.timeZone!,
        countryCode: wireCallingCode(callingCode(country) ?? "1"),
        language: v.language ?? defaults?.language ?? "en",
      };
      return { ...v, setup };
    });
}

/** Create payload (spec §3): companyId is the 4-character code, parentCompanyId the parent's code. */
export const companyCreateSchema = readsPostedStrings(
  withSetup(
    pocPhone(
      z.object({
        companyType: z.enum(COMPANY_TYPES, { errorMap: () => ({ message: "Required company type" }) }),
        parentCompanyId: text("Required parent company code").transform((s) => s.toUpperCase()),
        companyId: text("Required company ID")
          .transform((s) => s.toUpperCase())
          .pipe(z.string().regex(CODE_PATTERN, "The company ID must be 4 characters: letters except V, and digits")),
        ...commonFields,
        // Posted empty (the form's blank choice): refused here; left out (an API call): see withSetup.
        timeZone: z.string({ invalid_type_error: COMPANY_SETUP_MSG.timeZone }).trim().min(1, COMPANY_SETUP_MSG.timeZone).max(64, COMPANY_SETUP_MSG.badTimeZone).optional(),
        country: z.string({ invalid_type_error: COMPANY_SETUP_MSG.country }).trim().max(8, COMPANY_SETUP_MSG.country).optional(),
        language: languageField,
      }),
    ),
  ),
);
export type CompanyCreateInput = z.output<typeof companyCreateSchema>;

/** Update payload: the same plus id; type, parent and code are locked (spec §2) and ignored if sent. */
export const companyUpdateSchema = readsPostedStrings(
  pocPhone(
    z.object({
      id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required"),
      ...commonFields,
    }),
  ),
);
export type CompanyUpdateInput = z.output<typeof companyUpdateSchema>;

/** The API bodies: every field optional at the transport level; the service runs the schemas above. */
export const addCompanyBody = z
  .object({
    companyName: z.string().optional(),
    companyType: z.string().optional(),
    parentCompanyId: z.union([z.string(), z.number()]).optional(),
    discountPercentage: z.union([z.number(), z.string()]).optional(),
    nextBillingDate: z.string().nullish(),
    ...pocBodyFields,
    companyId: z.string().optional(),
    isDeactive: z.union([z.boolean(), z.string(), z.number()]).optional(),
  })
  .passthrough();
export const updateCompanyBody = addCompanyBody.extend({ id: z.union([z.number(), z.string()]).optional() });
/** addCompany also takes the new company's settings (decision 0055). */
export const addCompanySetupBody = addCompanyBody.extend({
  timeZone: z.string().optional().describe("IANA zone, e.g. Europe/Madrid. Required unless country is sent (then the country's main zone)."),
  country: z.string().optional().describe("Default phone country of the company's users: a region ('ES') or calling code ('034'). Default: the contact phone's."),
  language: z.string().optional().describe("Language of the company's mails: En or Es. Default: the country's."),
});

export const companyIdQuery = z.object({
  id: z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required"),
});

/** A company in a query: its id or its 4-character code (the spec's company_id); `companyIdOf` resolves it. */
const companyRef = z
  .string({ required_error: "company_id is required" })
  .trim()
  .regex(/^(\d{1,12}|[A-Za-z0-9]{4})$/, "company_id must be a company id or code");
export const companyRefQuery = z.object({ company_id: companyRef });
/** The same, where an empty or absent company_id means the caller's default. */
export const optionalCompanyRefQuery = z.object({ company_id: z.preprocess((v) => (v === "" || v == null ? undefined : v), companyRef.optional()) });

/** Turns a validation failure into `{field: [messages]}` and the first message. */
export function issuesOf(error: z.ZodError): { message: string; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
  return { message: error.issues[0]?.message ?? "Invalid input", fieldErrors };
}
