import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancel, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { webhookReplayFormSchema } from "~/schemas/webhooks";

/**
 * "Replay a time range": two local date and times in the company's zone, posted as `intent=replayRange`.
 * The dialog closes once the post has gone through (the action redirects with a toast); a refusal keeps
 * it open with the errors on their fields.
 */
export function ReplayRangeDialog({ zone, initial }: { zone: string; initial: { from: string; to: string } }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "webhook-replay", schema: webhookReplayFormSchema, ns: "webhooks", shouldValidate: "onSubmit" });
  const [open, setOpen] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const navigation = useNavigation();
  const busy = submitted && navigation.state !== "idle";
  const refused = Boolean(formError || err(fields.from) || err(fields.to));
  useEffect(() => {
    if (submitted && navigation.state === "idle") {
      setSubmitted(false);
      if (!refused) setOpen(false);
    }
  }, [submitted, navigation.state, refused]);
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <DialogTrigger asChild>
        <Button variant="outline">{t("replayRange")}</Button>
      </DialogTrigger>
      <DialogContent closeLabel={t("cancel")}>
        <DialogHeader>
          <DialogTitle>{t("replayRange")}</DialogTitle>
          <DialogDescription>{t("replayRangeDescription", { zone })}</DialogDescription>
        </DialogHeader>
        <Form method="post" {...formProps} onSubmit={(e) => (formProps.onSubmit(e), setSubmitted(true))} className="grid gap-4">
          <input type="hidden" name="intent" value="replayRange" />
          {formError && (
            <Alert variant="destructive">
              <AlertDescription>{formError}</AlertDescription>
            </Alert>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={t("from")} error={err(fields.from)} required>
              <Input id="webhook-replay-from" name={fields.from.name} type="datetime-local" defaultValue={initial.from} />
            </Field>
            <Field label={t("to")} error={err(fields.to)} required>
              <Input id="webhook-replay-to" name={fields.to.name} type="datetime-local" defaultValue={initial.to} />
            </Field>
          </div>
          <DialogFooter>
            <DialogCancel disabled={busy}>{t("cancel")}</DialogCancel>
            <Button type="submit" loading={busy}>
              {t("replayConfirm")}
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
