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
