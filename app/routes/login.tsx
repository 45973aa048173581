import { getInputProps } from "@conform-to/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth/auth-card";
import { FormAlert } from "~/components/auth/form-parts";
import { SessionEndedNotice } from "~/components/auth/session-ended-notice";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { PasswordInput } from "~/components/auth/password-input";
import { Button } from "~/components/ui/button";
import { LinkButton } from "~/components/ui/link-button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { getLanguage, languageCookie } from "~/i18n/i18next.server";
import { loginSchema } from "~/schemas/auth";
import { AUTH_MSG, login } from "~/services/auth.server";
import { deliverQueuedMail } from "~/services/mail/outbox.server";
import { requireAnonymous } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formAction } from "~/utils/form-action.server";
import { safeRedirect } from "~/utils/redirect";
import { readRemembered, rememberCompany } from "~/utils/remembered-companies.server";
import { deleteSession, readSessionToken, sessionCookie } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { sha256Hex } from "~/utils/tokens.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return { lng: await getLanguage(request), remembered: await readRemembered(request) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const env = context.cloudflare.env;
  const db = getDb(context);
  return formAction(
    request,
    loginSchema,
    async (input) => {
      const who = new URLSearchParams({ username: input.userName, companyCode: input.companyId }).toString();
      const r = await login(db, input, { request, kind: "web", now: nowMs() }).catch((e) => {
        // Two refusals are a next step, not an error: the page that takes it.
        if (!(e instanceof ServiceError)) throw e;
        if (e.details.errorCode === "password-expired") return redirectWithToast(`/ResetExpiredPassword?${who}`, { type: "info", message: AUTH_MSG.expired }, env);
        if (e.details.errorCode !== "2fa-required") throw e;
        deliverQueuedMail(env, context.cloudflare.ctx.waitUntil);
        return redirectWithToast(`/twoFactorAuthentication?${who}`, { type: "info", message: AUTH_MSG.twoFactor }, env);
      });
      if (r instanceof Response) return r;
      // Rotate: a session the browser already held is ended, the new one replaces it.
      const previous = await readSessionToken(request, env);
      if (previous) await deleteSession(db, await sha256Hex(previous));
      const headers = new Headers();
      headers.append("Set-Cookie", await sessionCookie(env).serialize(r.token));
      headers.append("Set-Cookie", await rememberCompany(request, r.payload.company.company_name, r.payload.company.company_id));
      if (input.language) headers.append("Set-Cookie", await languageCookie.serialize(input.language));
      return redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo")), { headers });
    },
    { hideFields: ["password"] },
  );
}

export default function Login() {
  const { lng, remembered } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const { fields, err, formError, formProps } = useAuthForm("login", loginSchema);
  const companies = Object.entries(remembered);

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
