import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { alertAddFormSchema, alertModifyFormSchema, alertTestFormSchema, type AlertActionData } from "~/schemas/alert-form";
import { ALERT_MSG, type ModifyAlertInput } from "~/schemas/alerts";
import { addAlert, modifyAlert, sendAlertTestEmail } from "~/services/alerts.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import type { Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

/**
 * The add and modify actions. intent "test" sends the test mail to the form's recipients (after the
 * page's confirmation); otherwise the alert is saved and the page goes to /modifyAlert?id=… .
 */
export async function alertFormAction(request: Request, context: AppLoadContext, auth: Auth, mode: "add" | "modify") {
  const formData = await request.formData();
  const db = getDb(context);
  if (formData.get("intent") === "test") {
    return formAction(
      request,
      alertTestFormSchema,
      async (value) => {
        await sendAlertTestEmail(db, auth, value, nowMs());
        deliverQueued(context.cloudflare.env, (p) => context.cloudflare.ctx.waitUntil(p));
        const t = await getFixedT(await getLanguage(request), "alerts");
        return data({ sent: translateMessage(t, ALERT_MSG.emailSent, "alerts") } satisfies AlertActionData);
      },
      { formData },
    );
  }
  return formAction(
    request,
    mode === "add" ? alertAddFormSchema : alertModifyFormSchema,
    async (parsed) => {
      // The alert mails in the language its editor uses.
      const value = { ...(parsed as ModifyAlertInput), language: await getLanguage(request) };
      const id = mode === "modify" ? (await modifyAlert(db, auth, value, nowMs(), context.core), value.id) : await addAlert(db, auth, value, nowMs(), context.core);
      const message = mode === "add" ? ALERT_MSG.created : ALERT_MSG.modified;
      return redirectWithMessage({ request, context }, { to: `/modifyAlert?id=${id}`, ns: "alerts", message });
    },
    { formData },
  );
}
