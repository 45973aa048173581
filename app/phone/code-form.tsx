import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { translateMessage } from "~/i18n/messages";
import { twoFactorSchema } from "~/schemas/auth";
import { phoneApi } from "./phone-api";
import type { CodeStep, PhoneSession } from "./phone-store";
import { keepSession, phoneFields, refusalText } from "./phone-sign-in";

const codeSchema = twoFactorSchema.pick({ code: true });

/**
 * The second step of a sign-in when the company requires two-factor authentication: says where the
 * code went, takes it, and offers a text message instead (as the console's /twoFactorAuthentication
 * does, decision 0062). The console checks the code and answers; this screen only shows its answers.
 */
export function CodeForm({ step, onStep, onSignedIn }: { step: CodeStep; onStep: (step: CodeStep | null) => void; onSignedIn: (s: PhoneSession) => void }) {
  const { t, i18n } = useTranslation("mobile");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const who = { companyId: step.companyId, userName: step.userName };
  const [form, fields] = useForm({
    id: "phone-code",
    constraint: getZodConstraint(codeSchema),
    // Checked when sent: leaving the empty field for "by text message" is no mistake.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: codeSchema }),
    async onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setBusy(true);
      setError(null);
      try {
        onSignedIn(keepSession(await phoneApi.twoFactor({ ...who, code: submission.value.code, ...phoneFields(i18n.language) }), who));
      } catch (e) {
        setError(refusalText(t, e));
      } finally {
        setBusy(false);
      }
    },
  });

  async function byText() {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await phoneApi.codeByText(who);
      onStep({ ...step, channel: r.payload.channel });
      setNotice(translateMessage(t, r.message, "mobile"));
    } catch (e) {
      setError(refusalText(t, e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <p className="text-sm" data-testid="code-sent-to">
        {step.channel === "text" ? t("codeSentByText", { phone: step.phone }) : t("codeSentByMail", { email: step.email })}
      </p>
      <p role="status" className="text-sm font-medium empty:hidden">
        {notice}
      </p>
      <form {...getFormProps(form)} className="space-y-4" aria-describedby={error ? "phone-code-alert" : undefined}>
        {error && (
          <p id="phone-code-alert" role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
            {error}
          </p>
        )}
        <Field label={t("code")} error={fields.code.errors?.map((m) => translateMessage(t, m, "mobile"))} required>
          <Input {...getInputProps(fields.code, { type: "text" })} inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
        </Field>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? t("verifying") : t("verify")}
        </Button>
      </form>
      {/* Offered while the code went by mail and the person has a phone number to text it to. */}
      {step.channel === "email" && step.phone && (
        <Button type="button" variant="link" className="h-auto w-full p-0" disabled={busy} onClick={byText}>
          {t("codeByText")}
        </Button>
      )}
      <Button type="button" variant="outline" className="w-full" onClick={() => onStep(null)}>
        {t("startOver")}
      </Button>
    </div>
  );
}
