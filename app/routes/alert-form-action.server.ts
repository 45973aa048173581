import { parseWithZod } from "@conform-to/zod";
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { alertAddFormSchema, alertModifyFormSchema, alertTestFormSchema, type AlertActionData } from "~/schemas/alert-form";
import { ALERT_MESSAGES, type ModifyAlertInput } from "~/schemas/alerts";
import { addAlert, modifyAlert, sendAlertTestEmail } from "~/services/alerts.server";
import { deliverQueuedMail } from "~/services/mail/outbox.server";
import type { Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * The add and modify actions. intent "test" sends the test mail to the form's recipients (after the
 * page's confirmation); otherwise the alert is saved and the page goes to /modifyAlert?id=… .
 */
export async function alertFormAction(request: Request, context: AppLoadContext, auth: Auth, mode: "add" | "modify") {
  const formData = await request.formData();
  const t = await getFixedT(await getLanguage(request), "alerts");
  const db = getDb(context);
  const env = context.cloudflare.env;
  if (formData.get("intent") === "test") {
    const submission = parseWithZod(formData, { schema: alertTestFormSchema, disableAutoCoercion: true });
    if (submission.status !== "success") return data({ result: submission.reply() } satisfies AlertActionData, { status: 400 });
    try {
      await sendAlertTestEmail(db, auth, submission.value, nowMs());
      deliverQueuedMail(env, context.cloudflare.ctx.waitUntil);
      return data({ sent: translateMessage(t, ALERT_MESSAGES.emailSent, "alerts") } satisfies AlertActionData);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      return data({ result: submission.reply({ fieldErrors: e.details.fieldErrors ?? { "": [e.message] } }) } satisfies AlertActionData, { status: e.status });
    }
  }
  const submission = parseWithZod(formData, { schema: mode === "add" ? alertAddFormSchema : alertModifyFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return data({ result: submission.reply() } satisfies AlertActionData, { status: 400 });
  try {
    const value = submission.value as ModifyAlertInput;
    const id = mode === "modify" ? (await modifyAlert(db, auth, value, nowMs(), context.core), value.id) : await addAlert(db, auth, value, nowMs(), context.core);
    const message = mode === "add" ? ALERT_MESSAGES.created : ALERT_MESSAGES.modified;
    return redirectWithToast(`/modifyAlert?id=${id}`, { type: "success", message: translateMessage(t, message, "alerts") }, env);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return data({ result: submission.reply({ fieldErrors: e.details.fieldErrors ?? { "": [e.message] } }) } satisfies AlertActionData, { status: e.status });
  }
}
