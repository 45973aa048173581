import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/cloudflare";
import type { z, ZodTypeAny } from "zod";
import { ServiceError } from "./errors.server";

/**
 * What a page action returns when it does not redirect: Conform's reply, read by `usePageForm` as
 * `lastResult`, and the service's message for a toast (fetcher forms show one).
 */
export type FormReply = { result: SubmissionResult<string[]>; message?: string };

/**
 * A refused submission as Conform's reply: the service's field errors on their fields; its `_` errors,
 * or its message when it names no field, as the form's error. The status is the service's.
 */
export function errorReply(submission: Submission<unknown>, e: ServiceError) {
  const { _: formLevel, ...fieldErrors } = e.details.fieldErrors ?? {};
  const formErrors = formLevel ?? (e.details.fieldErrors ? [] : [e.message]);
  return data({ result: submission.reply({ formErrors, fieldErrors }), message: e.message } satisfies FormReply, { status: e.status });
}

/**
 * The one shape of a form action: validate the post with the form's zod schema, run the change,
 * and answer a validation failure or a ServiceError with Conform's reply (anything else is a bug).
 * `disableAutoCoercion` hands the schema the posted strings as they are (schemas written for the API's strings).
 */
export async function formAction<S extends ZodTypeAny, R>(
  formData: FormData,
  schema: S,
  run: (value: z.output<S>, submission: Submission<z.output<S>>) => Promise<R>,
  options: { disableAutoCoercion?: boolean } = {},
) {
  const submission = parseWithZod(formData, { schema, ...options });
  if (submission.status !== "success") return data({ result: submission.reply() } satisfies FormReply, { status: 400 });
  try {
    return await run(submission.value, submission);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return errorReply(submission, e);
  }
}
