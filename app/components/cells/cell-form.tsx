import { Form, useNavigation } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancel, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { cellFormSchema, type CellInput } from "~/schemas/cell-records";

/**
 * Add or modify a cell (docs/decisions/0065-cells-managed-in-the-console.md). Modifying keeps the name; a new
 * endpoint for a cell companies are in is confirmed first, since every board of those companies is told to
 * connect there.
 */
export function CellForm({ initial, companies, submitLabel }: { initial?: CellInput; companies?: number; submitLabel: string }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "cell", schema: cellFormSchema, ns: "cells" });
  const navigation = useNavigation();
  const form = useRef<HTMLFormElement>(null);
  const [confirming, setConfirming] = useState(false);
  const confirmed = useRef(false);
  const busy = navigation.state === "submitting";
  const askFirst = (e: FormEvent<HTMLFormElement>) => {
    const url = new FormData(e.currentTarget).get("mqttUrl");
    if (
      !initial ||
      !companies ||
      confirmed.current ||
      String(url ?? "")
        .trim()
        .toLowerCase() === initial.mqttUrl
    )
      return formProps.onSubmit?.(e);
    e.preventDefault();
    setConfirming(true);
  };
  return (
    <Form method="post" {...formProps} ref={form} onSubmit={askFirst} className="grid max-w-xl gap-4">
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      <Field label={t("name")} error={err(fields.name)} hint={initial ? undefined : t("nameHint")} required>
        <Input id="cell-name" name="name" defaultValue={initial?.name ?? ""} readOnly={Boolean(initial)} maxLength={32} autoComplete="off" className="font-mono" />
      </Field>
      <Field label={t("mqttUrl")} error={err(fields.mqttUrl)} hint={t("mqttUrlHint")} required>
        <Input id="cell-mqttUrl" name="mqttUrl" defaultValue={initial?.mqttUrl ?? ""} maxLength={200} autoComplete="off" inputMode="url" className="font-mono" />
      </Field>
      <Field label={t("label")} error={err(fields.label)}>
        <Input id="cell-label" name="label" defaultValue={initial?.label ?? ""} maxLength={64} autoComplete="off" />
      </Field>
      <div>
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </div>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent role="alertdialog" closeLabel={t("cancel")}>
          <DialogHeader>
            <DialogTitle>{t("confirmEndpointTitle", { name: initial?.name })}</DialogTitle>
            <DialogDescription>{t("confirmEndpointDescription", { count: companies ?? 0, from: initial?.mqttUrl })}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogCancel>{t("cancel")}</DialogCancel>
            <Button
              type="button"
              variant="destructive"
              onClick={() => {
                confirmed.current = true;
                form.current?.requestSubmit();
                confirmed.current = false;
                setConfirming(false);
              }}
            >
              {t("confirmEndpoint")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Form>
  );
}
