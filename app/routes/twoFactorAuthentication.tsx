import { getInputProps } from "@conform-to/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth/auth-card";
import { AuthForm, SubmitAndBack } from "~/components/auth/form-parts";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { getLanguage } from "~/i18n/i18next.server";
import { textTwoFactorCodeSchema, twoFactorSchema } from "~/schemas/auth";
import { textTwoFactorCode, twoFactorAuthenticate } from "~/services/auth.server";
import { deliverQueuedMail } from "~/services/mail/outbox.server";
import { smsSender } from "~/services/sms/sender.server";
import { formAction } from "~/utils/form-action.server";
import { requireAnonymous } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { rememberCompany } from "~/utils/remembered-companies.server";
import { sessionCookie } from "~/utils/session.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { Button } from "~/components/ui/button";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  const url = new URL(request.url);
  return { lng: await getLanguage(request), username: url.searchParams.get("username") ?? "", companyCode: url.searchParams.get("companyCode") ?? "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const env = context.cloudflare.env;
  const formData = await request.formData();
  // "Send the code by text message instead": a new code to the phone, answered on this page as a toast.
  if (formData.get("intent") === "text") {
    const back = (type: "info" | "error", message: string) => redirectWithMessage({ request, context }, { ns: "auth", type, message });
    return formAction(
      request,
      textTwoFactorCodeSchema,
      async (input) => {
        const r = await textTwoFactorCode(getDb(context), input, { now: nowMs(), sms: smsSender(env) });
        deliverQueuedMail(env, context.cloudflare.ctx.waitUntil);
        return back("info", r.message);
      },
      { formData, onRefusal: async (message) => back("error", message) },
    );
  }
  return formAction(
    request,
    twoFactorSchema,
    async (input) => {
      const r = await twoFactorAuthenticate(getDb(context), input, { request, kind: "web", now: nowMs() });
      const headers = new Headers();
      headers.append("Set-Cookie", await sessionCookie(context.cloudflare.env).serialize(r.token));
      headers.append("Set-Cookie", await rememberCompany(request, r.payload.company.company_name, r.payload.company.company_id));
      return redirect("/", { headers });
    },
    { formData },
  );
}

export default function TwoFactor() {
  const { lng, username, companyCode } = useLoaderData<typeof loader>();
  const { formProps, fields, err, formError, busy, t } = useAuthForm("two-factor", twoFactorSchema);
  return (
    <AuthCard title={t("twoFactorTitle")} lng={lng}>
      <p className="mb-4 text-sm text-muted-foreground">{t("twoFactorBody")}</p>
      <AuthForm formProps={formProps} error={formError}>
        <Field label={t("companyId")} error={err(fields.companyId)}>
          <Input {...getInputProps(fields.companyId, { type: "text" })} defaultValue={companyCode} maxLength={4} className="uppercase" />
        </Field>
        <Field label={t("userName")} error={err(fields.userName)}>
          <Input {...getInputProps(fields.userName, { type: "text" })} defaultValue={username} />
        </Field>
        <Field label={t("code")} error={err(fields.code)}>
          <Input {...getInputProps(fields.code, { type: "text" })} inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
        </Field>
        <SubmitAndBack label={t("verify")} busy={busy} />
      </AuthForm>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="text" />
        <input type="hidden" name="companyId" value={companyCode} />
        <input type="hidden" name="userName" value={username} />
        <Button type="submit" variant="link" className="h-auto p-0">
          {t("codeByText")}
        </Button>
      </Form>
    </AuthCard>
  );
}
