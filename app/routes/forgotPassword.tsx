import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { AuthCard } from "~/components/auth/auth-card";
import { AuthForm, SubmitAndBack } from "~/components/auth/form-parts";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { LinkButton } from "~/components/ui/link-button";
import { getLanguage } from "~/i18n/i18next.server";
import { forgotPasswordSchema } from "~/schemas/auth";
import { RESET_MSG, webForgotPassword } from "~/services/password-reset.server";
import { smsSender } from "~/services/sms/sender.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import { formAction } from "~/utils/form-action.server";
import { requireAnonymous } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formatPhone } from "~/utils/format";
import { publicOrigin } from "~/utils/origin.server";
import { splitPhone } from "~/utils/phone";
import { clientIp } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return { lng: await getLanguage(request) };
}

/** `?from=m`: asked from the phone app, whose link signs in back there (decision 0055). */
const fromPhone = (request: Request) => new URL(request.url).searchParams.get("from") === "m";

/**
 * The answer follows the company's reset mode (decision 0062): a link (and a code) sent, back to the
 * sign-in with a toast; a request waiting for a super admin, this page again with the contact phone.
 * The phone app's requests stay here, with a way back to the app.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const env = context.cloudflare.env;
  return formAction(request, forgotPasswordSchema, async (input) => {
    const phone = fromPhone(request);
    const r = await webForgotPassword(
      getDb(context),
      { ...input, landsOn: phone ? "phone" : "console" },
      { origin: publicOrigin(env, request), ip: clientIp(request), now: nowMs(), sms: smsSender(env) },
    );
    deliverQueued(env, context.cloudflare.ctx.waitUntil);
    const answer = new URLSearchParams(phone ? { from: "m" } : {});
    if (r.payload) answer.set("requested", r.payload.contactPhone);
    else if (phone) answer.set("sent", r.message === RESET_MSG.text ? "text" : "email");
    else return redirectWithToast("/login", { type: "success", message: r.message }, env);
    return redirectWithToast(`/forgotPassword?${answer}`, { type: "success", message: r.message }, env);
  });
}

export default function ForgotPassword() {
  const { lng } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const phone = params.get("from") === "m";
  const { formProps, fields, err, formError, busy, t } = useAuthForm("forgot", forgotPasswordSchema);
  const requested = params.get("requested");
  const sent = params.get("sent");
  if (requested !== null || (phone && sent)) {
    return (
      <AuthCard title={t("forgotTitle")} lng={lng}>
        <p role="status" className="mb-4 text-sm">
          {requested !== null ? t("forgotRequested") : t(sent === "text" ? "forgotSentPhoneText" : "forgotSentPhone")}
        </p>
        {requested && (
          <p className="mb-4 text-sm" data-testid="reset-contact-phone">
            {t("forgotContactPhone", { phone: formatPhone(splitPhone(requested).countryCode, requested) })}
          </p>
        )}
        <LinkButton variant="link" size="inline" to={phone ? "/m" : "/login"} className="block text-center" reloadDocument={phone}>
          {t(phone ? "backToPhoneApp" : "backToLogin")}
        </LinkButton>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("forgotTitle")} lng={lng}>
      <p className="mb-4 text-sm text-muted-foreground">{t("forgotBody")}</p>
      <AuthForm formProps={formProps} error={formError}>
        <Field label={t("companyId")} error={err(fields.companyId)}>
          <Input {...getInputProps(fields.companyId, { type: "text" })} maxLength={4} className="uppercase" autoFocus />
        </Field>
        <Field label={t("userName")} error={err(fields.userName)}>
          <Input {...getInputProps(fields.userName, { type: "text" })} />
        </Field>
        <SubmitAndBack label={t("sendLink")} busy={busy} back={phone ? { to: "/m", label: t("backToPhoneApp") } : undefined} />
      </AuthForm>
    </AuthCard>
  );
}
