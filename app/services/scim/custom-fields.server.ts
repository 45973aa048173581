/**
 * A company's custom user fields (decision 0095) as a SCIM schema extension of User (RFC 7643 §3.3):
 * `urn:ietf:params:scim:schemas:extension:kac:2.0:User`, one attribute per live field named by its key.
 * Values go through the console's own check (`checkedValues`), so a directory stores exactly what the user
 * form, the admin API and the CSV would; a bad one is SCIM's 400 `invalidValue` naming the attribute.
 * Attributes of the extension that name no live field are ignored, as core attributes the console does not
 * keep are: a field deleted in the console must not stop a directory's pushes (deactivations among them).
 */
import { sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { normaliseValue } from "~/schemas/custom-fields";
import { checkedValues, type CustomField } from "~/services/custom-fields.server";
import { schema } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { invalidValue, ScimError } from "./errors";
import type { FilterColumn } from "./filter-sql.server";
import type { PatchOp } from "./patch";

export const CUSTOM_FIELDS_SCHEMA = "urn:ietf:params:scim:schemas:extension:kac:2.0:User";
const SCHEMA_LOWER = CUSTOM_FIELDS_SCHEMA.toLowerCase();

/** A user's values by field key, as stored (normalised text). */
export type FieldValues = Record<string, string>;

/** SCIM's type per field type: a date is a string `YYYY-MM-DD` (SCIM's dateTime would need a time and a zone). */
const SCIM_TYPE = { text: "string", number: "decimal", date: "string", choice: "string" } as const;

/** The extension's attributes: the key as name, the label as description, choices as canonicalValues. */
export function extensionAttributes(fields: CustomField[]) {
  return fields.map((f) => ({
    name: f.key,
    type: SCIM_TYPE[f.type],
    multiValued: false,
    description: f.type === "date" ? `${f.label} (a date, YYYY-MM-DD)` : f.label,
    required: f.required,
    ...(f.type === "choice" && { canonicalValues: f.choices }),
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
  }));
}

/** The extension object of a user (a number as a JSON number), or null when the user has no value. */
export function extensionOf(fields: CustomField[], values: FieldValues): Record<string, string | number> | null {
  const out: Record<string, string | number> = {};
  for (const f of fields) {
    const v = values[f.key];
    if (v !== undefined) out[f.key] = f.type === "number" ? Number(v) : v;
  }
  return Object.keys(out).length ? out : null;
}

/** `values` by field id, as `checkedValues` reads the current ones. */
export const valuesById = (fields: CustomField[], values: FieldValues) => new Map(fields.filter((f) => values[f.key] !== undefined).map((f) => [f.id, values[f.key]]));

/** Stored values by id back to keys. */
export const valuesByKey = (fields: CustomField[], values: Map<number, string>): FieldValues =>
  Object.fromEntries(fields.filter((f) => values.has(f.id)).map((f) => [f.key, values.get(f.id)!]));

function scalar(key: string, v: unknown): unknown {
  if (v === null || typeof v === "string" || typeof v === "number") return v;
  return invalidValue(`${CUSTOM_FIELDS_SCHEMA}:${key} is a string or a number`);
}

/** Adds `obj`'s attributes that name a live field (names are case-insensitive, RFC 7643 §2.1) to `given`. */
function addAttributes(given: Record<string, unknown>, obj: unknown, fields: CustomField[]) {
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) invalidValue(`${CUSTOM_FIELDS_SCHEMA} is an object`);
  const keys = new Set(fields.map((f) => f.key));
  for (const [name, v] of Object.entries(obj as Record<string, unknown>)) {
    const key = name.toLowerCase();
    if (keys.has(key)) given[key] = scalar(key, v);
  }
}

/** A POST or PUT body's extension: key → value sent, or undefined when the body has no extension object. */
export function givenInResource(body: Record<string, unknown>, fields: CustomField[]): Record<string, unknown> | undefined {
  const name = Object.keys(body).find((k) => k.toLowerCase() === SCHEMA_LOWER);
  if (name === undefined) return undefined;
  const given: Record<string, unknown> = {};
  addAttributes(given, body[name], fields);
  return given;
}

/**
 * What PATCH ops do to the extension: key → value (null clears), later ops over earlier ones, or undefined
 * when no op touches a live field. Okta's and Entra's forms: a path `urn:…:User:key` with a value, `remove`
 * with that path, the path `urn:…:User` with an object, and no path with `{"urn:…:User": {key: value}}` or
 * `{"urn:…:User:key": value}` (parsePatch gives the last two as one op per key). `add` and `replace` of the
 * extension both change only the attributes they name (RFC 7644 §3.5.2.1, §3.5.2.3).
 */
export function givenInPatch(ops: PatchOp[], fields: CustomField[]): Record<string, unknown> | undefined {
  const keys = new Set(fields.map((f) => f.key));
  const given: Record<string, unknown> = {};
  for (const { op, path, value } of ops) {
    if (!path?.extension || path.schema !== SCHEMA_LOWER) continue;
    if (path.attr === "") {
      if (op === "remove") for (const k of keys) given[k] = null;
      else addAttributes(given, value, fields);
    } else if (keys.has(path.attr)) given[path.attr] = op === "remove" ? null : scalar(path.attr, value);
  }
  return Object.keys(given).length ? given : undefined;
}

/**
 * The values a user ends with: `checkedValues` (the console's check, required fields included) over `current`,
 * as SCIM's 400 `invalidValue` naming the attribute (`urn:…:User:department: Choose one of the field's choices`).
 */
export function scimCheckedValues(fields: CustomField[], current: FieldValues, given: Record<string, unknown> | undefined, replace: boolean): FieldValues {
  try {
    return valuesByKey(fields, checkedValues(fields, valuesById(fields, current), given, replace));
  } catch (e) {
    if (e instanceof ServiceError) throw new ScimError(400, `${CUSTOM_FIELDS_SCHEMA}:${e.message}`, "invalidValue");
    throw e;
  }
}

export const sameValues = (a: FieldValues, b: FieldValues) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};

/**
 * Filters on the extension's attributes (`urn:…:User:department eq "Sales"`): eq, ne and pr, the value read
 * as the field's check reads it (a number canonical, a choice in any case); one that could never be stored
 * matches nothing.
 */
export function extensionFilters(fields: CustomField[], userId: SQLiteColumn): Record<string, FilterColumn> {
  const v = schema.userFieldValues;
  return Object.fromEntries(
    fields.map((f) => [
      `${SCHEMA_LOWER}:${f.key}`,
      {
        col: sql`(select ${v.value} from ${v} where ${v.userId} = ${userId} and ${v.fieldId} = ${f.id})`,
        type: "value",
        normalise: (raw: string | number) => {
          const r = normaliseValue(f, raw);
          return "value" in r ? r.value : null;
        },
      } satisfies FilterColumn,
    ]),
  );
}

/** Whether a filter names an attribute of the extension (its lists then read the definitions first). */
export const filterNamesExtension = (filterText: string | null) => filterText !== null && filterText.toLowerCase().includes(SCHEMA_LOWER);
