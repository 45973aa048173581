import { parseWithZod } from "@conform-to/zod";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { z, type ZodTypeAny } from "zod";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { ServiceError } from "./errors.server";
import { redirectWithToast } from "./toast.server";

/** A list row's post: the row id, and the button's intent where a row has more than one action. */
export const rowSchema = z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required"), intent: z.string().max(40).optional() });

/**
 * A list's row action (delete, activate, accept…): the post parsed with Conform and the row schema,
 * the change run, then back to the same list page with a toast, translated in `ns`, saying what
 * happened or why not. `run` returns the service's success message.
 */
export async function rowAction<S extends ZodTypeAny>(request: Request, context: AppLoadContext, ns: string, schema: S, run: (value: z.output<S>) => Promise<string>) {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  const t = await getFixedT(await getLanguage(request), ns);
  const toast = (type: "success" | "error", message: string) => redirectWithToast(back, { type, message: translateMessage(t, message, ns) }, context.cloudflare.env);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return toast("error", Object.values(submission.error ?? {}).flat()[0] ?? "id is required");
  try {
    return toast("success", await run(submission.value));
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return toast("error", e.message);
  }
}
