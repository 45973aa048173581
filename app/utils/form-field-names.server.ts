import { ServiceError } from "./errors.server";

/** A service's field key (`lineItems.0.qty`) as Conform names the form's field (`lineItems[0].qty`). */
const formFieldName = (key: string) => key.replace(/\.(\d+)(?=\.|$)/g, "[$1]");

/**
 * Runs a service call from a form with list fields, so that a refusal's field errors land on the form's
 * own fields. With `showMessage` the refusal's message also stands above the form beside them.
 */
export async function inFormFieldNames<T>(run: () => Promise<T>, { showMessage = false } = {}): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof ServiceError) || (!e.details.fieldErrors && !showMessage)) throw e;
    const fieldErrors = Object.fromEntries(Object.entries(e.details.fieldErrors ?? {}).map(([k, v]) => [formFieldName(k), v]));
    throw new ServiceError(e.status, e.message, { ...e.details, fieldErrors: showMessage ? { ...fieldErrors, _: [e.message] } : fieldErrors });
  }
}
