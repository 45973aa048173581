import { z } from "zod";
import { callingCode, parsePhone, PHONE_INPUT_MAX, splitPhone } from "~/utils/phone";

/** A form's messages: a bad country, a bad number, and optionally the spec's own words for a +1 number. */
export type PhoneMessages = { country: string; number: string; usNumber?: string };

/**
 * The phone pair of a form (a country field and a number field) checked together: the number is read in
 * the chosen country unless it carries its own ('+…', '00…'). Each problem is reported once, on its field;
 * an empty field is left to its own "required" check. After parsing, the number field holds E.164 and the
 * country field the number's calling code in the spec's shape ('034').
 */
export function checkPhonePair(v: Record<string, unknown>, ctx: z.RefinementCtx, keys: { country: string; number: string }, messages: PhoneMessages) {
  const country = String(v[keys.country] ?? "");
  const number = String(v[keys.number] ?? "");
  if (!number.trim()) return;
  if (number.length > PHONE_INPUT_MAX) return ctx.addIssue({ code: "custom", path: [keys.number], message: messages.number });
  const r = parsePhone(country, number);
  if ("problem" in r) {
    if (r.problem === "country" && !country.trim()) return; // the country field's own "required" says it
    if (r.problem === "country") return ctx.addIssue({ code: "custom", path: [keys.country], message: messages.country });
    const us = number.trim().startsWith("+1") || (!/^\s*(\+|00)/.test(number) && callingCode(country) === "1");
    ctx.addIssue({ code: "custom", path: [keys.number], message: us && messages.usNumber ? messages.usNumber : messages.number });
  }
}

/** The parsed pair: E.164 and its calling code in the spec's shape ('034'). Only called on values `checkPhonePair` passed. */
export function phonePair(country: string, number: string): { e164: string; countryCode: string } {
  const r = parsePhone(country, number);
  const e164 = "e164" in r ? r.e164 : "";
  return { e164, countryCode: splitPhone(e164).countryCode };
}

/** The point-of-contact phone of companies and company requests (the spec's messages; +1 keeps its 10-digit wording). */
export const POC_PHONE_MSG = {
  country: "The country code must be between 1 to 3 digits",
  number: "Telephone number is invalid",
  usNumber: "Telephone number at least 10 digits",
} as const satisfies PhoneMessages;

const POC_KEYS = { country: "POCCountryCode", number: "POCPhoneNumber" } as const;

/** Adds the POC phone check to a company schema; after parsing, POCPhoneNumber is E.164 and POCCountryCode its calling code. */
export function pocPhone<T extends z.ZodTypeAny>(schema: T) {
  return schema
    .superRefine((v, ctx) => checkPhonePair(v, ctx, POC_KEYS, POC_PHONE_MSG))
    .transform((v: z.output<T> & { POCCountryCode: string; POCPhoneNumber: string }) => {
      const { e164, countryCode } = phonePair(v.POCCountryCode, v.POCPhoneNumber);
      return { ...v, POCCountryCode: countryCode, POCPhoneNumber: e164 };
    });
}

/** The point of contact in an API body: optional at the transport level, checked by the form's schema. */
export const pocBodyFields = {
  POCFirstName: z.string().optional(),
  POCLastName: z.string().optional(),
  POCEmail: z.string().optional(),
  POCCountryCode: z.string().optional(),
  POCPhoneNumber: z.string().optional(),
};
