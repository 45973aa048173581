/**
 * What a page action returns instead of redirecting, in one shape for every form that does not use
 * Conform's `submission.reply()` yet: a message and the errors per field (`_` for the form itself).
 */
export type FormFailure = { ok: false; message: string; fieldErrors: Record<string, string[]> };
export type FormResult = { ok: true; message: string } | FormFailure;

/** A failure from a ServiceError's message and field errors; `translate` maps each text for display. */
export function formFailure(e: { message: string; details: { fieldErrors?: Record<string, string[]> } }, translate: (m: string) => string = (m) => m): FormFailure {
  const fieldErrors = Object.fromEntries(Object.entries(e.details.fieldErrors ?? {}).map(([k, v]) => [k, v.map(translate)]));
  return { ok: false, message: translate(e.message), fieldErrors };
}
