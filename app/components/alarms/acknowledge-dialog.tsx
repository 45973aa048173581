import { getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancel, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { acknowledgeAlarmSchema, NOTE_MAX } from "~/schemas/door-alarms";

type Props = { id: number; door: string; kind: string; lastResult?: SubmissionResult<string[]> };

/** Acknowledging an alarm asks what was found; the note goes into the alarm and the activity log. */
export function AcknowledgeDialog({ id, door, kind, lastResult }: Props) {
  const { t } = useTranslation("alarms");
  const busy = useNavigation().state === "submitting";
  const [open, setOpen] = useState(lastResult?.status === "error");
  const { fields, err, formError, formProps } = usePageForm({ id: `acknowledge-${id}`, schema: acknowledgeAlarmSchema, ns: "alarms", lastResult, shouldValidate: "onSubmit" });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={t("acknowledgeDoor", { door })}>
          {t("acknowledge")}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("acknowledgeTitle")}</DialogTitle>
          <DialogDescription>{t("acknowledgeDescription", { door, kind: t(`kind.${kind}`) })}</DialogDescription>
        </DialogHeader>
        <Form method="post" {...formProps} className="grid gap-4">
          <FormAlert message={formError} />
          <input type="hidden" name="id" value={id} />
          <Field label={t("note")} error={err(fields.note)} required>
            <Textarea {...getTextareaProps(fields.note)} key={fields.note.key} maxLength={NOTE_MAX} rows={3} />
          </Field>
          <DialogFooter>
            <DialogCancel>{t("cancel")}</DialogCancel>
            <Button type="submit" disabled={busy}>
              {t("acknowledge")}
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
