/**
 * SCIM PATCH requests (RFC 7644 §3.5.2) as Okta and Microsoft Entra send them, read into one shape:
 * ops in lower case (Entra writes `Replace`, `Add`, `Remove`), paths split into attribute, value
 * filter and sub-attribute (`emails[type eq "work"].value`), and a value object without a path
 * (`{"op":"replace","value":{"active":false}}`) spread into one op per key. Pure; the services apply it.
 */
import { ScimError } from "./errors";

export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const MAX_OPS = 1000;

/**
 * `attr` and `sub` lower case, without the core schema's URN; `filter` is `[attr eq value]`. An extension's
 * path keeps its schema URN in `schema` (lower case); `attr` is "" when the path names the whole extension.
 */
export type PatchPath = { attr: string; filter: { attr: string; value: string | boolean } | null; sub: string | null; extension: boolean; schema?: string };
export type PatchOp = { op: "add" | "replace" | "remove"; path: PatchPath | null; value: unknown };

const CORE_URN = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;
/** An extension schema's URN ends with its version and resource (`…:enterprise:2.0:User`), maybe followed by `:attribute`. */
const EXTENSION_PATH = /^(urn:[\w.:-]*?:\d+\.\d+:[A-Za-z]+)(?::([A-Za-z][\w$-]*))?$/i;
const PATH = /^([A-Za-z][\w-]*)(?:\[\s*([A-Za-z][\w.-]*)\s+eq\s+("(?:[^"\\]|\\.)*"|true|false)\s*\])?(?:\.([A-Za-z][\w-]*))?$/i;

const invalidPath = (path: string): never => {
  throw new ScimError(400, `The path ${path} is not one this service reads`, "invalidPath");
};

/**
 * A PATCH path, or a 400 `invalidPath`. Extension attributes (`urn:…:enterprise:2.0:User:department`) are
 * marked with their schema; the service reads its own extension's and ignores the others.
 */
export function parsePath(raw: string): PatchPath {
  const text = raw.trim();
  if (/^urn:/i.test(text) && !CORE_URN.test(text)) {
    const ext = EXTENSION_PATH.exec(text);
    if (ext) return { attr: ext[2]?.toLowerCase() ?? "", filter: null, sub: null, extension: true, schema: ext[1].toLowerCase() };
    const at = text.lastIndexOf(":");
    if (at < 0 || at === text.length - 1) invalidPath(raw);
    return { attr: text.slice(at + 1).toLowerCase(), filter: null, sub: null, extension: true };
  }
  const m = PATH.exec(text.replace(CORE_URN, ""));
  if (!m) return invalidPath(raw);
  const [, attr, fAttr, fValue, sub] = m;
  const filter = fAttr ? { attr: fAttr.toLowerCase(), value: fValue === "true" ? true : fValue === "false" ? false : (JSON.parse(fValue) as string) } : null;
  // `name.givenName` reads as attribute `name`, sub-attribute `givenname`.
  return { attr: attr.toLowerCase(), filter, sub: sub?.toLowerCase() ?? null, extension: false };
}

/** The request's operations, or a 400 (`invalidSyntax`, `invalidPath`, `invalidValue`). */
export function parsePatch(body: unknown): PatchOp[] {
  const b = body as { schemas?: unknown; Operations?: unknown; operations?: unknown } | null;
  if (!b || typeof b !== "object" || Array.isArray(b)) throw new ScimError(400, "A PATCH body is a JSON object", "invalidSyntax");
  if (!Array.isArray(b.schemas) || !b.schemas.includes(PATCH_SCHEMA)) throw new ScimError(400, `A PATCH body names the schema ${PATCH_SCHEMA}`, "invalidSyntax");
  const ops = b.Operations ?? b.operations;
  if (!Array.isArray(ops) || ops.length === 0) throw new ScimError(400, "A PATCH body has a non-empty Operations array", "invalidSyntax");
  if (ops.length > MAX_OPS) throw new ScimError(400, `At most ${MAX_OPS} operations in one PATCH`, "tooMany");
  return ops.flatMap((o: unknown): PatchOp[] => {
    const { op, path, value } = (o ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
    const kind = typeof op === "string" ? op.toLowerCase() : "";
    if (kind !== "add" && kind !== "replace" && kind !== "remove") throw new ScimError(400, `Unknown PATCH op ${String(op)}`, "invalidSyntax");
    if (path !== undefined && path !== null && typeof path !== "string") invalidPath(String(path));
    if (typeof path === "string" && path.trim() !== "") return [{ op: kind, path: parsePath(path), value }];
    if (kind === "remove") throw new ScimError(400, "A remove op names a path", "noTarget");
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new ScimError(400, "An op without a path carries an object value", "invalidValue");
    return Object.entries(value).map(([key, v]) => ({ op: kind, path: parsePath(key), value: v }));
  });
}

/** SCIM booleans as directories send them: `true`, and Entra's `"True"`/`"False"` strings. */
export function scimBoolean(v: unknown, what: string): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "string" && /^(true|false)$/i.test(v)) return v.toLowerCase() === "true";
  throw new ScimError(400, `${what} is true or false`, "invalidValue");
}
