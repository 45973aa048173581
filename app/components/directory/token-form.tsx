import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { scimTokenFormSchema, TOKEN_NAME_MAX } from "~/schemas/directory";

/** Creates a directory token, named for the directory it is for. */
export function TokenForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const { fields, err, formError, formProps, t } = usePageForm({
    id: "directory-token",
    schema: scimTokenFormSchema,
    ns: "directory",
    lastResult: lastResult ?? null,
    shouldValidate: "onSubmit",
  });
  const navigation = useNavigation();
  return (
    <Form method="post" {...formProps} className="grid max-w-xl gap-3">
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      <input type="hidden" name="intent" value="create" />
      <div className="flex flex-wrap items-end gap-3">
        <Field label={t("tokenName")} error={err(fields.name)} required className="min-w-56 flex-1">
          <Input id="directory-token-name" name="name" maxLength={TOKEN_NAME_MAX} autoComplete="off" placeholder={t("tokenNamePlaceholder")} />
        </Field>
        <Button type="submit" disabled={navigation.state === "submitting"}>
          {t("createToken")}
        </Button>
      </div>
    </Form>
  );
}
