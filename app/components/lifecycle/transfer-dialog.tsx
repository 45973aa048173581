import { usePageForm } from "~/components/forms/use-page-form";
import { getInputProps, type SubmissionResult } from "@conform-to/react";
import type { FetcherWithComponents } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogCancel } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { SUBSCRIPTION_TERMS, transferSchema } from "~/schemas/device-lifecycle";

export type TransferActionData = { result?: SubmissionResult<string[]>; ok?: boolean; message?: string };

type Props = {
  fetcher: FetcherWithComponents<TransferActionData>;
  target: { id: number; name: string; type: string };
  deviceIds: number[];
  today: string;
};

/**
 * The transfer dialog's form. The page mounts a fresh one each time the dialog opens, so it starts
 * over every time (spec part 2 §2): the shipping date at today in the company's zone (decision 0057),
 * the term and the stock box empty. An ec target cannot take stock: the box is hidden and off.
 */
export function TransferDialogForm({ fetcher, target, deviceIds, today }: Props) {
  const { t } = useTranslation("lifecycle");
  const schema = transferSchema(today);
  const canStock = target.type !== "ec";
  const [asStock, setAsStock] = useState(false);
  const { fields, err, formError, formProps } = usePageForm({
    id: "transfer",
    schema,
    ns: "lifecycle",
    lastResult: fetcher.state === "idle" && !fetcher.data?.ok ? fetcher.data?.result : null,
    defaultValue: { shippingDate: today },
    shouldValidate: "onSubmit",
  });
  const busy = fetcher.state !== "idle";
  return (
    <DialogContent>
      <DialogHeader>
        <DialogTitle>{t("transferTitle")}</DialogTitle>
        <DialogDescription>{t("transferDescription", { count: deviceIds.length, name: target.name })}</DialogDescription>
      </DialogHeader>
      <fetcher.Form method="post" {...formProps} className="grid gap-4">
        <FormAlert message={formError ?? err(fields.transferDevices) ?? err(fields.status)} />
        <input type="hidden" name="toCompany" value={target.id} />
        <input type="hidden" name="status" value={asStock && canStock ? "stock" : "unconfigured"} />
        {deviceIds.map((id, i) => (
          <input key={id} type="hidden" name={`transferDevices[${i}]`} value={id} />
        ))}
        {canStock && (
          <Field label={t("sendAsStock")} orientation="horizontal" hint={t("sendAsStockHint")}>
            <Checkbox checked={asStock} onCheckedChange={(on) => setAsStock(on === true)} />
          </Field>
        )}
        {!(asStock && canStock) && (
          <>
            <Field label={t("shippingDate")} error={err(fields.shippingDate)} required>
              <Input {...getInputProps(fields.shippingDate, { type: "date" })} min={today} key={fields.shippingDate.key} />
            </Field>
            <Field label={t("subscriptionTerm")} error={err(fields.subscriptionTerm)} required>
              <NativeSelect
                name={fields.subscriptionTerm.name}
                defaultValue=""
                key={fields.subscriptionTerm.key}
                options={SUBSCRIPTION_TERMS.map((n) => ({ value: n, label: t("term", { n }) }))}
              >
                <option value="">{t("choose")}</option>
              </NativeSelect>
            </Field>
          </>
        )}
        <DialogFooter>
          <DialogCancel>{t("cancel")}</DialogCancel>
          <Button type="submit" disabled={busy || deviceIds.length === 0}>
            {t("transfer")}
          </Button>
        </DialogFooter>
      </fetcher.Form>
    </DialogContent>
  );
}
