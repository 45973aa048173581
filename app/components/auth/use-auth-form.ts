import type { SubmissionResult } from "@conform-to/react";
import { useActionData, useNavigation } from "@remix-run/react";
import type { ZodTypeAny } from "zod";
import { usePageForm } from "~/components/forms/use-page-form";
import { translateMessage } from "~/i18n/messages";

export type AuthActionData = { result?: SubmissionResult<string[]>; message?: string | null } | undefined;

/**
 * The page form of the sign-in screens (`usePageForm`, namespace "auth"). A refusal is shown once, as
 * the form's banner (`formError`), never also as a toast.
 */
export function useAuthForm<S extends ZodTypeAny>(id: string, schema: S) {
  const actionData = useActionData() as AuthActionData;
  const page = usePageForm({ id, schema, ns: "auth" });
  const formError = actionData?.message ? translateMessage(page.t, actionData.message, "auth") : null;
  const busy = useNavigation().state === "submitting";
  return { ...page, formError, busy };
}
