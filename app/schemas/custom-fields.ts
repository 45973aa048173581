import { z } from "zod";
import { checkbox } from "./flag";
import { FORBIDDEN_IN_NAMES, nameText } from "./text";

/**
 * Custom fields for users (issue 32, docs/decisions/0095-custom-fields.md): a company's definitions and
 * the checks of a user's values. Messages are English; the console translates them in `customFields`.
 */
export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "choice"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export const CUSTOM_FIELD_LIMITS = { fields: 30, label: 60, key: 40, value: 200, choices: 50, choice: 60 } as const;

export const CUSTOM_FIELD_MSG = {
  created: "Custom field created",
  modified: "Custom field modified",
  deleted: "Custom field deleted",
  notFound: "The provided custom field is invalid",
  keyTaken: "Another field already uses this key",
  keyInvalid: "Use lower case letters, digits and underscores, starting with a letter (at most 40)",
  tooMany: "A company has at most 30 custom fields",
  typeInvalid: "Type must be text, number, date or choice",
  choicesRequired: "A choice field needs at least one choice",
  choicesTooMany: "At most 50 choices",
  choiceTooLong: "A choice is too long (at most 60 characters)",
  choicesRepeated: "The same choice appears twice",
  typeLocked: "The type of a field cannot change once users have values",
  unknownField: "Unknown custom field",
  valueRequired: "This field is required",
  valueTooLong: "Too long (at most 200 characters)",
  valueChars: "Contains characters that are not allowed",
  valueNumber: "Enter a number",
  valueDate: "Enter a date as YYYY-MM-DD",
  valueChoice: "Choose one of the field's choices",
} as const;

const KEY = /^[a-z][a-z0-9_]{0,39}$/;

/** One line per choice in the form; an array in the API. Trimmed, empty lines dropped. */
const choices = z.preprocess(
  (v) => (typeof v === "string" ? v.split(/\r?\n/) : Array.isArray(v) ? v : v == null ? [] : [v]).map((c) => String(c).trim()).filter(Boolean),
  z
    .array(
      z
        .string()
        .max(CUSTOM_FIELD_LIMITS.choice, CUSTOM_FIELD_MSG.choiceTooLong)
        .refine((s) => !FORBIDDEN_IN_NAMES.test(s), CUSTOM_FIELD_MSG.choiceTooLong),
    )
    .max(CUSTOM_FIELD_LIMITS.choices, CUSTOM_FIELD_MSG.choicesTooMany)
    .refine((a) => new Set(a.map((c) => c.toLowerCase())).size === a.length, CUSTOM_FIELD_MSG.choicesRepeated),
);

const fieldObject = z.object({
  key: z.string({ required_error: "Key is required", invalid_type_error: "Key is required" }).trim().min(1, "Key is required").regex(KEY, CUSTOM_FIELD_MSG.keyInvalid),
  label: nameText("Label", CUSTOM_FIELD_LIMITS.label),
  type: z.enum(CUSTOM_FIELD_TYPES, { errorMap: () => ({ message: CUSTOM_FIELD_MSG.typeInvalid }) }),
  choices: choices.default([]),
  required: checkbox(),
  showInList: checkbox(),
  position: z.coerce.number().int().min(0).max(1000).default(0),
});

function checkChoices(v: { type: CustomFieldType; choices: string[] }, ctx: z.RefinementCtx) {
  if (v.type === "choice" && v.choices.length === 0) ctx.addIssue({ code: "custom", path: ["choices"], message: CUSTOM_FIELD_MSG.choicesRequired });
}
const onlyChoiceHasChoices = <T extends { type: CustomFieldType; choices: string[] }>(v: T): T => ({ ...v, choices: v.type === "choice" ? v.choices : [] });

/** The definition form (/addCustomField, /modifyCustomField) and the API's body. */
export const customFieldSchema = fieldObject.superRefine(checkChoices).transform(onlyChoiceHasChoices);
/** PUT /customFields/modifyField: the definition and its id. */
export const modifyCustomFieldBody = fieldObject
  .extend({ id: z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required") })
  .superRefine(checkChoices)
  .transform(onlyChoiceHasChoices);
export type CustomFieldForm = z.input<typeof customFieldSchema>;
export type CustomFieldInput = z.output<typeof customFieldSchema>;

/** A definition as a value check needs it. */
export type FieldDef = { id: number; key: string; label: string; type: CustomFieldType; choices: string[]; required: boolean };

/**
 * A value as stored: trimmed text; a number canonical (`Number(x).toString()`, a comma taken as the decimal
 * point); a date `YYYY-MM-DD` that exists; a choice spelt as defined (any case matches). Empty is `null`.
 * `error` is an English message of `CUSTOM_FIELD_MSG` ("Enter a number").
 */
export function normaliseValue(def: Pick<FieldDef, "type" | "choices">, raw: unknown): { value: string | null } | { error: string } {
  const s = raw == null ? "" : String(raw).trim();
  if (s === "") return { value: null };
  if (s.length > CUSTOM_FIELD_LIMITS.value) return { error: CUSTOM_FIELD_MSG.valueTooLong };
  switch (def.type) {
    case "text":
      // eslint-disable-next-line no-control-regex
      return /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(s) ? { error: CUSTOM_FIELD_MSG.valueChars } : { value: s };
    case "number": {
      const t = s.replace(/\s/g, "").replace(/^([+-]?\d*),(\d+)$/, "$1.$2");
      if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { error: CUSTOM_FIELD_MSG.valueNumber };
      const n = Number(t);
      return Number.isFinite(n) ? { value: String(n) } : { error: CUSTOM_FIELD_MSG.valueNumber };
    }
    case "date": {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
      if (!m) return { error: CUSTOM_FIELD_MSG.valueDate };
      const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
      return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3] ? { value: s } : { error: CUSTOM_FIELD_MSG.valueDate };
    }
    case "choice": {
      const hit = def.choices.find((c) => c.toLowerCase() === s.toLowerCase());
      return hit === undefined ? { error: CUSTOM_FIELD_MSG.valueChoice } : { value: hit };
    }
  }
}

/** A value's error as the API and the CSV report name it: "department: This field is required". */
export const valueMessage = (key: string, message: string) => `${key}: ${message}`;

/**
 * The values a user ends with, checked against the company's definitions. `given` maps keys to values
 * (null or "" clears); with `replace` (the form, a CSV row) a field not given is cleared, otherwise
 * (the API) it keeps `current`. Errors (messages of `CUSTOM_FIELD_MSG`) are keyed by field key; a required
 * field left empty is one.
 */
export function resolveValues(
  defs: FieldDef[],
  current: Map<number, string>,
  given: Record<string, unknown> | undefined,
  replace: boolean,
): { values: Map<number, string>; errors: Record<string, string> } {
  const values = new Map<number, string>();
  const errors: Record<string, string> = {};
  const byKey = new Map(defs.map((d) => [d.key, d]));
  for (const key of Object.keys(given ?? {})) if (!byKey.has(key)) errors[key] = CUSTOM_FIELD_MSG.unknownField;
  for (const def of defs) {
    const has = given !== undefined && Object.prototype.hasOwnProperty.call(given, def.key);
    let value: string | null;
    if (has) {
      const r = normaliseValue(def, given![def.key]);
      if ("error" in r) {
        errors[def.key] = r.error;
        continue;
      }
      value = r.value;
    } else value = replace ? null : (current.get(def.id) ?? null);
    if (value === null && def.required) errors[def.key] = CUSTOM_FIELD_MSG.valueRequired;
    else if (value !== null) values.set(def.id, value);
  }
  return { values, errors };
}

/** The user form's and the API's `customFields`: key → value (a form's empty input arrives as undefined). */
export const customValuesSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]).optional()).optional();

/**
 * The users list's filter by choice fields (decision 0095): `field.<key>=<choice>` in the page's address and
 * in the admin API's getAllUsers; `field.<key>=-` lists the users without a value (unless "-" is one of the
 * field's choices, then it is that choice). An empty value is no filter.
 */
export const FIELD_FILTER_PREFIX = "field.";
export const FIELD_NOT_SET = "-";
export const fieldFilterName = (key: string) => `${FIELD_FILTER_PREFIX}${key}`;

/** The `field.<key>` parameters with a value, key → value (the last one of a repeated key). */
export function fieldFilterParams(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!name.startsWith(FIELD_FILTER_PREFIX)) continue;
    const v = value.trim();
    if (v === "") delete out[name.slice(FIELD_FILTER_PREFIX.length)];
    else out[name.slice(FIELD_FILTER_PREFIX.length)] = v.slice(0, CUSTOM_FIELD_LIMITS.value);
  }
  return out;
}

/** A filter the list applies: the users whose field `fieldId` holds `value`, or (null) holds none. */
/** `value` null: users without a value. A text field's value matches whatever its case (`anyCase`). */
export type FieldFilter = { fieldId: number; key: string; value: string | null; anyCase?: boolean };

/** "Not set" is offered unless a choice is spelt "-". */
export const offersNotSet = (def: Pick<FieldDef, "choices">) => !def.choices.includes(FIELD_NOT_SET);

/**
 * The filters of `given` (key → value) against the company's definitions, "-" for none: a choice matched
 * whatever its case and spelt as defined, a number or a date read as a value of the field is (so "1,5" finds
 * 1.5), a text matched whole, whatever its case. Errors (messages of `CUSTOM_FIELD_MSG`) are keyed by field
 * key: an unknown key, a value the field could not hold.
 */
export function resolveFieldFilters(
  defs: Pick<FieldDef, "id" | "key" | "type" | "choices">[],
  given: Record<string, string>,
): { filters: FieldFilter[]; errors: Record<string, string> } {
  const filters: FieldFilter[] = [];
  const errors: Record<string, string> = {};
  const byKey = new Map(defs.map((d) => [d.key, d]));
  for (const [key, raw] of Object.entries(given)) {
    const def = byKey.get(key);
    if (!def) errors[key] = CUSTOM_FIELD_MSG.unknownField;
    else if (raw === FIELD_NOT_SET && offersNotSet(def)) filters.push({ fieldId: def.id, key, value: null });
    else {
      const read = normaliseValue(def, raw);
      if ("error" in read) errors[key] = read.error;
      else if (read.value !== null) filters.push({ fieldId: def.id, key, value: read.value, anyCase: def.type === "text" });
    }
  }
  return { filters, errors };
}
