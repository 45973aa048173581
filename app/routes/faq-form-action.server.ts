import type { AppLoadContext } from "@remix-run/cloudflare";
import { faqSchema, type FaqInput } from "~/schemas/support";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

/** The add and modify FAQ actions: the form's schema, then the service saves; back to the FAQ tab of the FAQ's language. */
export async function faqAction(request: Request, context: AppLoadContext, save: (value: FaqInput) => Promise<{ message: string }>) {
  return formAction(request, faqSchema, async (value) => {
    const r = await save(value);
    return redirectWithMessage({ request, context }, { to: `/adminSupport?tab=faqs&faqLanguage=${value.language}`, ns: "support", message: r.message });
  });
}
