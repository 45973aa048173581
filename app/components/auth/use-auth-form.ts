import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useActionData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { ZodTypeAny } from "zod";
import { toast } from "~/components/toast/toast-store";
import { translateMessage } from "~/i18n/messages";

export type AuthActionData = { result?: SubmissionResult<string[]>; message?: string | null } | undefined;

/** conform + zod on both sides, with server messages shown as a translated error toast and inline. */
export function useAuthForm(id: string, schema: ZodTypeAny) {
  const actionData = useActionData() as AuthActionData;
  const { t } = useTranslation("auth");
  const [form, fields] = useForm({
    id,
    lastResult: actionData?.result,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  useEffect(() => {
    if (actionData?.message) toast({ type: "error", message: translateMessage(t, actionData.message, "auth") });
  }, [actionData, t]);
  const err = (e?: string[]) => (e?.[0] ? translateMessage(t, e[0], "auth") : undefined);
  const formError = actionData?.message ? translateMessage(t, actionData.message, "auth") : null;
  const busy = useNavigation().state === "submitting";
  return { form, formProps: getFormProps(form), fields, err, formError, busy, t };
}
