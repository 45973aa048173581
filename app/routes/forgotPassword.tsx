import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { AuthCard } from "~/components/auth/auth-card";
import { AuthForm, SubmitAndBack } from "~/components/auth/form-parts";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { getLanguage } from "~/i18n/i18next.server";
import { forgotPasswordSchema } from "~/schemas/auth";
import { webForgotPassword } from "~/services/auth.server";
import { deliverQueuedMail } from "~/services/mail/outbox.server";
import { formAction } from "~/utils/form-action.server";
import { requireAnonymous } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { publicOrigin } from "~/utils/origin.server";
import { clientIp } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return { lng: await getLanguage(request) };
}

/** `?from=m`: asked from the phone app, whose link signs in back there (decision 0055). */
const fromPhone = (request: Request) => new URL(request.url).searchParams.get("from") === "m";

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, forgotPasswordSchema, async (input) => {
    const phone = fromPhone(request);
    const r = await webForgotPassword(
      getDb(context),
      { ...input, landsOn: phone ? "phone" : "console" },
      { origin: publicOrigin(context.cloudflare.env, request), ip: clientIp(request), now: nowMs() },
    );
    deliverQueuedMail(context.cloudflare.env, context.cloudflare.ctx.waitUntil);
    return redirectWithToast(phone ? "/forgotPassword?from=m&sent=1" : "/login", { type: "success", message: r.message }, context.cloudflare.env);
  });
}

export default function ForgotPassword() {
  const { lng } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const phone = params.get("from") === "m";
  const { formProps, fields, err, formError, busy, t } = useAuthForm("forgot", forgotPasswordSchema);
  if (phone && params.get("sent")) {
    return (
      <AuthCard title={t("forgotTitle")} lng={lng}>
        <p role="status" className="mb-4 text-sm">
          {t("forgotSentPhone")}
        </p>
        <a href="/m" className="block text-center text-sm text-primary underline-offset-4 hover:underline">
          {t("backToPhoneApp")}
        </a>
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
