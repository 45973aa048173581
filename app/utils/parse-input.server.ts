import type { z, ZodTypeAny } from "zod";
import { ServiceError } from "./errors.server";
import { issuesByField, type FieldKey } from "./field-errors";

/**
 * Validates `input` with `schema` and returns the parsed value, or throws
 * `ServiceError(400, <first message>, { fieldErrors })` — the one way services and actions turn a
 * zod failure into form errors (docs/CONVENTIONS.md, layers).
 */
export function parseInput<S extends ZodTypeAny>(schema: S, input: unknown, keyOf?: FieldKey): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data as z.output<S>;
  throw new ServiceError(400, r.error.issues[0]?.message ?? "Invalid input", { fieldErrors: issuesByField(r.error.issues, keyOf) });
}
