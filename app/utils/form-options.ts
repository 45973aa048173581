import type { ZodTypeAny } from "zod";

const postedStringSchemas = new WeakSet<ZodTypeAny>();

/**
 * Marks a form schema that reads the posted strings itself (written for the admin API's strings:
 * companies, roles, invoices, scheduled open…): Conform then hands it the strings unchanged instead of
 * turning empty fields into `undefined`, so its own messages and whole-form checks apply. The mark
 * travels with the schema, so the form (`usePageForm`) and its action (`formAction`) read a post alike.
 */
export function readsPostedStrings<S extends ZodTypeAny>(schema: S): S {
  postedStringSchemas.add(schema);
  return schema;
}

/** Conform's parse option for `schema`: see `readsPostedStrings`. */
export const parseOptionsFor = (schema: ZodTypeAny) => ({ disableAutoCoercion: postedStringSchemas.has(schema) });
