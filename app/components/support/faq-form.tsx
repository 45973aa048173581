import { usePageForm } from "~/components/forms/use-page-form";
import { getInputProps, getSelectProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { FAQ_ANSWER_MAX, FAQ_LANGUAGES, FAQ_QUESTION_MAX, faqSchema, type FaqInput } from "~/schemas/support";

/** Root's add/modify FAQ form: language, question and answer (`faqSchema` in the browser and on the server). */
export function FaqForm({ initial, lastResult, submitLabel }: { initial: FaqInput; lastResult?: SubmissionResult<string[]>; submitLabel: string }) {
  const { t } = useTranslation("support");
  const navigation = useNavigation();
  const { fields, err, formError, formProps } = usePageForm({ id: "faq", schema: faqSchema, ns: "support", lastResult, defaultValue: initial });
  return (
    <Form method="post" {...formProps} className="grid max-w-2xl gap-4">
      <FormAlert message={formError} />
      <Field label={t("faqLanguage")} error={err(fields.language)} required>
        <NativeSelect {...getSelectProps(fields.language)} className="w-48" options={FAQ_LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) }))} />
      </Field>
      <Field label={t("question")} error={err(fields.question)} required>
        <Input {...getInputProps(fields.question, { type: "text" })} maxLength={FAQ_QUESTION_MAX} autoComplete="off" />
      </Field>
      <Field label={t("answer")} error={err(fields.answer)} required>
        <Textarea {...getTextareaProps(fields.answer)} maxLength={FAQ_ANSWER_MAX} rows={6} />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" loading={navigation.state === "submitting"}>
          {submitLabel}
        </Button>
        <Button asChild variant="outline">
          <Link to={`/adminSupport?tab=faqs&faqLanguage=${initial.language}`}>{t("cancel")}</Link>
        </Button>
      </div>
    </Form>
  );
}
