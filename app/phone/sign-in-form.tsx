import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordInput } from "~/components/auth/password-input";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { translateMessage } from "~/i18n/messages";
import { mobileLoginSchema } from "~/schemas/mobile";
import { PhoneApiError, phoneApi } from "./phone-api";
import { phoneStore, type CodeStep, type PhoneSession } from "./phone-store";
import { codeStepOf, keepSession, phoneFields, refusalText } from "./phone-sign-in";

/**
 * Sign-in with company ID, e-mail or phone and password; the same schema checks here and on the server.
 * A company that requires two-factor authentication answers 402: the code step takes over.
 */
export function SignInForm({ onSignedIn, onCodeStep }: { onSignedIn: (s: PhoneSession) => void; onCodeStep: (step: CodeStep) => void }) {
  const { t, i18n } = useTranslation("mobile");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Arriving from a set-password link whose automatic sign-in was refused: say why and what to do, once.
  useEffect(() => {
    const refused = phoneStore.takeRefusedSignIn();
    if (!refused) return;
    const next = refused.code === "single-device" ? refused.code : "other";
    setError(`${t("passwordSetRefused", { reason: translateMessage(t, refused.message, "mobile") })} ${t(`passwordSetRefusedNext.${next}`)}`);
  }, [t]);
  const [form, fields] = useForm({
    id: "phone-sign-in",
    constraint: getZodConstraint(mobileLoginSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(withPhoneFields(formData, i18n.language), { schema: mobileLoginSchema }),
    async onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setBusy(true);
      setError(null);
      const who = { companyId: submission.value.companyId, userName: submission.value.userName };
      try {
        onSignedIn(keepSession(await phoneApi.login(submission.value), who));
      } catch (e) {
        if (e instanceof PhoneApiError && e.code === "2fa-required") onCodeStep(codeStepOf(e, who));
        else setError(refusalText(t, e));
      } finally {
        setBusy(false);
      }
    },
  });
  return (
    <form {...getFormProps(form)} className="space-y-4" aria-describedby={error ? "phone-sign-in-alert" : undefined}>
      {error && (
        <p id="phone-sign-in-alert" role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
          {error}
        </p>
      )}
      <Field label={t("companyId")} error={fields.companyId.errors?.map((m) => translateMessage(t, m, "mobile"))} required>
        <Input {...getInputProps(fields.companyId, { type: "text" })} autoComplete="organization" maxLength={4} />
      </Field>
      <Field label={t("userName")} error={fields.userName.errors?.map((m) => translateMessage(t, m, "mobile"))} required>
        <Input {...getInputProps(fields.userName, { type: "text" })} autoComplete="username" maxLength={254} />
      </Field>
      <Field label={t("password")} error={fields.password.errors?.map((m) => translateMessage(t, m, "mobile"))} required>
        <PasswordInput {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" maxLength={256} />
      </Field>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? t("signingIn") : t("signIn")}
      </Button>
      {/* The console's reset page, asked to send a link that signs in back here (decision 0055). */}
      <a href="/forgotPassword?from=m" className="block text-center text-sm text-primary underline-offset-4 hover:underline">
        {t("forgotPassword")}
      </a>
    </form>
  );
}

/** The form's fields and the phone's own (installation id, app version, language). */
function withPhoneFields(formData: FormData, language: string): FormData {
  const out = new FormData();
  for (const [k, v] of formData) out.append(k, v);
  for (const [k, v] of Object.entries(phoneFields(language))) out.set(k, v);
  return out;
}
