import type { SubmissionResult } from "@conform-to/react";
import { useActionData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import type { ZodTypeAny } from "zod";
import { usePageForm } from "~/components/forms/use-page-form";
import { toast } from "~/components/toast/toast-store";
import { translateMessage } from "~/i18n/messages";

export type AuthActionData = { result?: SubmissionResult<string[]>; message?: string | null } | undefined;

/** The page form of the sign-in screens (`usePageForm`, namespace "auth"), whose refusals also show as an error toast. */
export function useAuthForm<S extends ZodTypeAny>(id: string, schema: S) {
  const actionData = useActionData() as AuthActionData;
  const page = usePageForm({ id, schema, ns: "auth" });
  const { t } = page;
  useEffect(() => {
    if (actionData?.message) toast({ type: "error", message: translateMessage(t, actionData.message, "auth") });
  }, [actionData, t]);
  const formError = actionData?.message ? translateMessage(t, actionData.message, "auth") : null;
  const busy = useNavigation().state === "submitting";
  return { ...page, formError, busy };
}
