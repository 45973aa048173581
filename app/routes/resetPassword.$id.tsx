import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AuthCard } from "~/components/auth/auth-card";
import { AuthForm, SubmitAndBack } from "~/components/auth/form-parts";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { getLanguage } from "~/i18n/i18next.server";
import { webResetPassword } from "~/services/auth.server";
import { formAction } from "~/utils/form-action.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/toast.server";

/** The form's own fields; the link id comes from the URL. */
const schema = z
  .object({
    password: z.string({ required_error: "New password is required" }).min(1, "New password is required"),
    confirmPassword: z.string({ required_error: "Confirm password is required" }).min(1, "Confirm password is required"),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "The two passwords must match", path: ["confirmPassword"] });

export async function loader({ request }: LoaderFunctionArgs) {
  return { lng: await getLanguage(request) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return formAction(
    request,
    schema,
    async (input) => {
      const r = await webResetPassword(getDb(context), { uid: params.id ?? "", ...input }, nowMs());
      return redirectWithToast("/login", { type: "success", message: r.message }, context.cloudflare.env);
    },
    { hideFields: ["password", "confirmPassword"] },
  );
}

export default function ResetPassword() {
  const { lng } = useLoaderData<typeof loader>();
  const { formProps, fields, err, formError, busy, t } = useAuthForm("reset", schema);
  return (
    <AuthCard title={t("resetTitle")} lng={lng}>
      <AuthForm formProps={formProps} error={formError}>
        <NewPasswordFields password={fields.password} confirm={fields.confirmPassword} err={err} autoFocus />
        <SubmitAndBack label={t("submit")} busy={busy} />
      </AuthForm>
    </AuthCard>
  );
}
