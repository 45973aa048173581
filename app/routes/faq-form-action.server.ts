import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/cloudflare";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { faqSchema } from "~/schemas/support";
import type { Auth } from "~/utils/auth-guards.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

export type FaqActionData = { result: SubmissionResult<string[]> };

/** The add and modify FAQ actions: Conform parses with the form's schema, the service re-checks and saves. */
export async function faqAction(request: Request, env: Env, auth: Auth, save: (value: unknown) => Promise<{ message: string }>) {
  const submission = parseWithZod(await request.formData(), { schema: faqSchema });
  if (submission.status !== "success") return data({ result: submission.reply() } satisfies FaqActionData, { status: 400 });
  try {
    const r = await save(submission.value);
    const t = await getFixedT(await getLanguage(request), "support");
    return redirectWithToast(`/adminSupport?tab=faqs&faqLanguage=${submission.value.language}`, { type: "success", message: translateMessage(t, r.message, "support") }, env);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status === 403) throw e;
    return data({ result: submission.reply({ fieldErrors: e.details.fieldErrors ?? { "": [e.message] } }) } satisfies FaqActionData, { status: e.status });
  }
}
