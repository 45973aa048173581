import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth/auth-card";
import { FormAlert } from "~/components/auth/form-parts";
import { SessionEndedNotice } from "~/components/auth/session-ended-notice";
import { useAuthForm, type AuthActionData } from "~/components/auth/use-auth-form";
import { PasswordInput } from "~/components/auth/password-input";
import { Button } from "~/components/ui/button";
import { LinkButton } from "~/components/ui/link-button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { getLanguage } from "~/i18n/i18next.server";
import { loginSchema, NO_CONSOLE_MSG } from "~/schemas/auth";
import { signInToConsole } from "~/routes/web-sign-in.server";
import { requireAnonymous } from "~/utils/auth-guards.server";
import { formAction } from "~/utils/form-action.server";
import { safeRedirect } from "~/utils/redirect";
import { readRemembered } from "~/utils/remembered-companies.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return { lng: await getLanguage(request), remembered: await readRemembered(request) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, loginSchema, (input) => signInToConsole({ request, context }, input, safeRedirect(new URL(request.url).searchParams.get("redirectTo"))), {
    hideFields: ["password"],
  });
}

export default function Login() {
  const { lng, remembered } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as AuthActionData;
  const { t } = useTranslation("auth");
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const { fields, err, formError, formProps } = useAuthForm("login", loginSchema);
  const companies = Object.entries(remembered);
  /** Single sign-on (decision 0121) needs only the company ID: the password fields are neither checked nor sent. */
  const continueWithSso = () => {
    const code = (document.getElementById(fields.companyId.id) as HTMLInputElement | null)?.value ?? "";
    const q = new URLSearchParams({ company: code });
    if (params.get("redirectTo")) q.set("redirectTo", params.get("redirectTo")!);
    window.location.assign(`/sso/start?${q}`);
  };

  return (
    <AuthCard title={t("signIn")} lng={lng}>
      <Form
        method="post"
        {...formProps}
        action={`/login${params.get("redirectTo") ? `?redirectTo=${encodeURIComponent(params.get("redirectTo")!)}` : ""}`}
        className="space-y-4"
        noValidate
      >
        <FormAlert message={formError} />
        {actionData?.message === NO_CONSOLE_MSG && (
          <p className="rounded-md border bg-muted/60 px-3 py-2 text-sm" data-testid="use-phone-app">
            {t("noConsoleHint")}{" "}
            <LinkButton variant="link" size="inline" to="/m" reloadDocument>
              {t("openPhoneApp")}
            </LinkButton>
          </p>
        )}
        {!actionData && <SessionEndedNotice reason={params.get("reason")} />}
        <Field label={t("companyId")} error={err(fields.companyId)} hint={companies.length ? t("companyHint") : undefined}>
          <Input {...getInputProps(fields.companyId, { type: "text" })} maxLength={4} autoComplete="organization" list="remembered-companies" className="uppercase" autoFocus />
        </Field>
        <datalist id="remembered-companies">
          {companies.map(([name, code]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </datalist>
        <Field label={t("userName")} error={err(fields.userName)}>
          <Input {...getInputProps(fields.userName, { type: "text" })} autoComplete="username" />
        </Field>
        <Field label={t("password")} error={err(fields.password)}>
          <PasswordInput {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
        </Field>
        <input type="hidden" name="language" value={lng} />
        <Button type="submit" className="w-full" loading={navigation.state === "submitting"}>
          {t("login")}
        </Button>
        <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
          <span className="h-px flex-1 bg-border" />
          {t("ssoOr")}
          <span className="h-px flex-1 bg-border" />
        </div>
        <Button type="button" variant="outline" className="w-full" onClick={continueWithSso} aria-describedby="sso-hint" data-testid="continue-with-sso">
          {t("continueWithSso")}
        </Button>
        <p id="sso-hint" className="sr-only">
          {t("ssoHint")}
        </p>
        <div className="flex items-center justify-between text-sm">
          <LinkButton variant="link" size="inline" to="/forgotPassword">
            {t("forgotPassword")}
          </LinkButton>
          <LinkButton variant="link" size="inline" to="/terms" className="text-muted-foreground">
            {t("terms")}
          </LinkButton>
        </div>
      </Form>
    </AuthCard>
  );
}
