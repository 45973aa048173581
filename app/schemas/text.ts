import { z } from "zod";

/**
 * Names that people read in the console, the activity log, CSV reports and on every gateway. They
 * have a length limit and may not carry control characters (NUL, line breaks), bidirectional
 * overrides and isolates (a name that reads backwards, U+202E) or invisible zero-width characters.
 */
// eslint-disable-next-line no-control-regex
export const FORBIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

export const NAME_MAX = 100;
export const FOB_NUMBER_MAX = 32;

export const nameMessages = (label: string, max = NAME_MAX) => ({
  required: `${label} is required`,
  tooLong: `${label} is too long (at most ${max} characters)`,
  badCharacters: `${label} contains characters that are not allowed`,
});

/** A required display name: trimmed, 1..max characters, no control or direction-changing characters. */
export function nameText(label: string, max = NAME_MAX, required = `${label} is required`) {
  const m = nameMessages(label, max);
  return z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(max, m.tooLong)
    .refine((s) => !FORBIDDEN_IN_NAMES.test(s), m.badCharacters);
}

/** Free text (notes, descriptions): line breaks and tabs allowed, other control and override characters not. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
export function freeText(label: string, max: number) {
  return z
    .string()
    .max(max, `${label} is too long (at most ${max} characters)`)
    .refine((s) => !FORBIDDEN_IN_TEXT.test(s), `${label} contains characters that are not allowed`);
}
