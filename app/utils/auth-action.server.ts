import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/cloudflare";
import type { z, ZodTypeAny } from "zod";
import { ServiceError } from "./errors.server";
import { pageMessage } from "./page-message.server";

/**
 * Runs a form action: validates with the form's zod schema, calls `run`, and turns a
 * ServiceError into field errors and a message for `useAuthForm`.
 */
export async function formAction<S extends ZodTypeAny>(request: Request, schema: S, run: (value: z.infer<S>) => Promise<Response>, hideFields: string[] = []) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }), message: null }, { status: 400 });
  try {
    return await run(submission.value);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    const fieldErrors = e.details.fieldErrors;
    return data({ result: submission.reply({ fieldErrors, hideFields }), message: await pageMessage(request, e) }, { status: e.status });
  }
}
