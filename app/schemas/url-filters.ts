/**
 * A list's filters as URL params (the devices list, door alarms, the fleet views): lenient like the table
 * params, so a value that does not parse is ignored and the list shows unfiltered, never an error.
 */
import type { z } from "zod";

type Fields = Record<string, z.ZodTypeAny>;
export type UrlFilters<F extends Fields> = { [K in keyof F]?: z.infer<F[K]> };

/** The filter names, in the fields' order. */
export const filterKeys = <F extends Fields>(fields: F) => Object.keys(fields) as (keyof F & string)[];

export function parseUrlFilters<F extends Fields>(fields: F, params: URLSearchParams): UrlFilters<F> {
  const out: Record<string, unknown> = {};
  for (const key of filterKeys(fields)) {
    const parsed = fields[key].safeParse(params.get(key) || undefined);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as UrlFilters<F>;
}
