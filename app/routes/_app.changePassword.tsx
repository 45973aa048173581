import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";

import { AuthForm } from "~/components/auth/form-parts";
import { PasswordInput } from "~/components/auth/password-input";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { changePasswordSchema } from "~/schemas/auth";
import { changePassword } from "~/services/auth.server";
import { formAction } from "~/utils/form-action.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireModule(request, context, "change_password");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "change_password");
  return formAction(
    request,
    changePasswordSchema,
    async (input) => {
      const r = await changePassword(getDb(context), auth, input, nowMs());
      return redirectWithToast("/", { type: "success", message: r.message }, context.cloudflare.env);
    },
    { hideFields: ["currentPassword", "newPassword", "confirmPassword"] },
  );
}

export default function ChangePassword() {
  const { formProps, fields, err, formError, busy, t } = useAuthForm("change-password", changePasswordSchema);
  return (
    <div className="mx-auto max-w-md space-y-4">
      <h1 className="text-2xl font-semibold">{t("changePasswordTitle")}</h1>
      <AuthForm formProps={formProps} error={formError} className="space-y-4 rounded-xl border border-border bg-card p-6">
        <Field label={t("currentPassword")} error={err(fields.currentPassword)}>
          <PasswordInput {...getInputProps(fields.currentPassword, { type: "password" })} autoComplete="current-password" />
        </Field>
        <NewPasswordFields password={fields.newPassword} confirm={fields.confirmPassword} err={err} />
        <Button type="submit" loading={busy}>
          {t("submit")}
        </Button>
      </AuthForm>
    </div>
  );
}
