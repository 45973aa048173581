import { usePageForm } from "~/components/forms/use-page-form";
import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger, DialogCancel } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { removeConfigurationSchema } from "~/schemas/device-lifecycle";

type Props = { deviceId: number; displayName: string; lastResult?: SubmissionResult<string[]> };

/** Removing a configuration asks the user to type the device's display name first. */
export function RemoveConfigurationDialog({ deviceId, displayName, lastResult }: Props) {
  const { t } = useTranslation("lifecycle");
  const busy = useNavigation().state === "submitting";
  const [open, setOpen] = useState(!!lastResult && lastResult.status === "error");
  const { fields, err, formError, formProps } = usePageForm({
    id: "remove-configuration",
    schema: removeConfigurationSchema,
    ns: "lifecycle",
    lastResult,
    shouldValidate: "onSubmit",
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="destructive">{t("removeConfiguration")}</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("removeTitle")}</DialogTitle>
          <DialogDescription>{t("removeDescription", { name: displayName })}</DialogDescription>
        </DialogHeader>
        <Form method="post" {...formProps} className="grid gap-4">
          <FormAlert message={formError} />
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="id" value={deviceId} />
          <Field label={t("typeDisplayName", { name: displayName })} error={err(fields.displayName)} required>
            <Input {...getInputProps(fields.displayName, { type: "text" })} key={fields.displayName.key} autoComplete="off" maxLength={100} />
          </Field>
          <DialogFooter>
            <DialogCancel>{t("cancel")}</DialogCancel>
            <Button type="submit" variant="destructive" disabled={busy}>
              {t("removeConfiguration")}
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
