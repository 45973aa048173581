import type { AppLoadContext } from "@remix-run/cloudflare";
import { z, type ZodTypeAny } from "zod";
import { formAction } from "./form-action.server";
import { redirectWithMessage } from "./toast.server";

/** A list row's post: the row id, and the button's intent where a row has more than one action. */
export const rowSchema = z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required"), intent: z.string().max(40).optional() });

/**
 * A row's action (delete, activate, accept…), the form path for a button without fields: the post
 * parsed with the row schema, the change run, then back to the same page with a toast, translated in
 * `ns`, saying what happened or why not. `run` returns the service's success message, and where to go
 * when not back (`to`). `formData`: the post, when the action read it first (to pick by its intent).
 */
export async function rowAction<S extends ZodTypeAny>(
  request: Request,
  context: AppLoadContext,
  ns: string,
  schema: S,
  run: (value: z.output<S>) => Promise<string | { message: string; to: string }>,
  formData?: FormData,
) {
  const page = { request, context };
  return formAction(
    request,
    schema,
    async (value) => {
      const r = await run(value);
      return redirectWithMessage(page, typeof r === "string" ? { ns, message: r } : { ns, ...r });
    },
    { formData, onRefusal: (message) => redirectWithMessage(page, { ns, message, type: "error" }) },
  );
}
