import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth/auth-card";
import { AuthForm, SubmitAndBack } from "~/components/auth/form-parts";
import { PasswordInput } from "~/components/auth/password-input";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { getLanguage } from "~/i18n/i18next.server";
import { resetExpiredPasswordSchema } from "~/schemas/auth";
import { resetExpiredPassword } from "~/services/auth.server";
import { formAction } from "~/utils/form-action.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { lng: await getLanguage(request), username: url.searchParams.get("username") ?? "", companyCode: url.searchParams.get("companyCode") ?? "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(
    request,
    resetExpiredPasswordSchema,
    async (input) => {
      const r = await resetExpiredPassword(getDb(context), input, { request, kind: "web", now: nowMs() });
      return redirectWithToast("/login", { type: "success", message: r.message }, context.cloudflare.env);
    },
    { hideFields: ["currentPassword", "newPassword", "confirmPassword"] },
  );
}

export default function ResetExpired() {
  const { lng, username, companyCode } = useLoaderData<typeof loader>();
  const { formProps, fields, err, formError, busy, t } = useAuthForm("reset-expired", resetExpiredPasswordSchema);
  return (
    <AuthCard title={t("resetExpired")} lng={lng}>
      <AuthForm formProps={formProps} error={formError}>
        <Field label={t("companyId")} error={err(fields.companyId)}>
          <Input {...getInputProps(fields.companyId, { type: "text" })} defaultValue={companyCode} readOnly={Boolean(companyCode)} />
        </Field>
        <Field label={t("userName")} error={err(fields.userName)}>
          <Input {...getInputProps(fields.userName, { type: "text" })} defaultValue={username} readOnly={Boolean(username)} />
        </Field>
        <Field label={t("currentPassword")} error={err(fields.currentPassword)}>
          <PasswordInput {...getInputProps(fields.currentPassword, { type: "password" })} autoComplete="current-password" />
        </Field>
        <NewPasswordFields password={fields.newPassword} confirm={fields.confirmPassword} err={err} />
        <SubmitAndBack label={t("submit")} busy={busy} />
      </AuthForm>
    </AuthCard>
  );
}
