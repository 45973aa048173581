import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/cloudflare";
import type { z, ZodTypeAny } from "zod";
import { ServiceError } from "./errors.server";
import { parseOptionsFor } from "./form-options";
import { pageMessage } from "./page-message.server";

/**
 * What a page action returns when it does not redirect: Conform's reply, read by `usePageForm` as
 * `lastResult`, and the refusal's message (a fetcher form toasts it; sign-in pages show it inline too).
 */
export type FormReply = { result: SubmissionResult<string[]>; message?: string; payload?: unknown };

export type FormActionOptions<E extends object> = {
  /** The post, when the action had to read it first (to pick a schema by its intent). */
  formData?: FormData;
  /** Fields never echoed back in a reply (passwords). */
  hideFields?: string[];
  /** Sent with every refusal too, so the page can tell which of its forms was refused. */
  extra?: E;
  /**
   * For a post without fields to show errors on (a list row's button): answers a refusal, the first
   * validation message or the service's message, its own way (a toast back on the same page).
   */
  onRefusal?: (message: string) => Promise<Response>;
};

/**
 * The one shape of a page action: parse the post with the form's zod schema, run the change, and answer
 * a validation failure or a `ServiceError` with Conform's reply: the service's field errors on their
 * fields, its `_` errors (or its message, when it names no field) as the form's error, its status.
 * (with the service's `payload`, e.g. a per-row report). Anything else is a bug and propagates. `run` returns the page's answer: a redirect, usually with
 * `redirectWithMessage`, or `{ result: submission.reply({ resetForm: true }), … }` for a form that stays.
 */
export async function formAction<S extends ZodTypeAny, R, E extends object = object>(
  request: Request,
  schema: S,
  run: (value: z.output<S>, submission: Submission<z.output<S>>) => Promise<R>,
  { formData, hideFields, extra = {} as E, onRefusal }: FormActionOptions<E> = {},
) {
  const submission = parseWithZod(formData ?? (await request.formData()), { schema, ...parseOptionsFor(schema) });
  if (submission.status !== "success") {
    if (onRefusal) return onRefusal(Object.values(submission.error ?? {}).flat()[0] ?? "Invalid request");
    return data({ ...extra, result: submission.reply({ hideFields }) } satisfies FormReply & E, { status: 400 });
  }
  try {
    return await run(submission.value, submission);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    if (onRefusal) return onRefusal(e.message);
    const { _: formLevel, ...fieldErrors } = e.details.fieldErrors ?? {};
    const formErrors = formLevel ?? (e.details.fieldErrors ? [] : [e.message]);
    const reply = { ...extra, result: submission.reply({ formErrors, fieldErrors, hideFields }), message: await pageMessage(request, e), payload: e.details.payload };
    return data(reply satisfies FormReply & E, { status: e.status });
  }
}
