import { z } from "zod";
import { ServiceError } from "~/utils/errors.server";

/**
 * Runs a service call whose input was mapped from the spec's field names, and names a refusal's field
 * errors back in the spec's names (`names`: domain name → wire name), so an API caller reads the fields
 * it sent. Keys without a wire name pass unchanged.
 */
export async function withWireFields<T>(names: Readonly<Record<string, string>>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof ServiceError) || !e.details.fieldErrors) throw e;
    const fieldErrors = Object.fromEntries(Object.entries(e.details.fieldErrors).map(([k, v]) => [names[k] ?? k, v]));
    throw new ServiceError(e.status, e.message, { ...e.details, fieldErrors });
  }
}

/**
 * A domain object's checks under the spec's field names (`names`: domain name → wire name): the body is
 * checked field by field as the form is, so messages and field-error keys are the spec's, and it parses
 * to the domain value the service takes. Object-wide rules go after it, naming fields through `names`.
 */
export function wireObject<S extends z.ZodRawShape, const W extends { readonly [K in keyof S]: string }>(domain: z.ZodObject<S>, names: W) {
  const keys = Object.keys(domain.shape) as (keyof S & string)[];
  const shape = Object.fromEntries(keys.map((k) => [names[k], domain.shape[k]])) as { [K in keyof S as W[K]]: S[K] };
  return z.object(shape).transform((v) => Object.fromEntries(keys.map((k) => [k, (v as Record<string, unknown>)[names[k]]])) as z.output<z.ZodObject<S>>);
}
