import { Form } from "@remix-run/react";
import { useState } from "react";
import { namedOptions, SelectField } from "~/components/select-field";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogCancel } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";
import { BULK_USER_ACTIONS, bulkUsersSchema, type BulkUserAction } from "~/schemas/bulk";

export const BULK_FORM_ID = "bulk-users";

type Option = { id: number; fullName: string };

/**
 * The users list's bulk form (decision 0035): the selected ids, an action and, for a key, the group or
 * device. Deactivating asks for confirmation first; the result of each row shows after the action.
 */
export function BulkBar({ ids, groups, devices, onClear }: { ids: number[]; groups: Option[]; devices: Option[]; onClear: () => void }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: BULK_FORM_ID, schema: bulkUsersSchema, ns: "users" });
  const [action, setAction] = useState<BulkUserAction>("giveGroupKey");
  const [confirming, setConfirming] = useState(false);
  // A key's action asks for its group or device; the key remounts the select, so a switch starts it blank.
  const target =
    action === "giveGroupKey"
      ? { id: "bulk-group", label: t("bulk.group"), field: fields.groupId, rows: groups }
      : action === "giveDeviceKey"
        ? { id: "bulk-device", label: t("bulk.device"), field: fields.deviceId, rows: devices }
        : null;

  return (
    <Form
      method="post"
      {...formProps}
      onSubmit={(event) => {
        formProps.onSubmit(event);
        setConfirming(false);
      }}
      className="grid gap-3 rounded-lg border bg-muted/40 p-3"
      aria-label={t("bulk.label")}
    >
      <input type="hidden" name="intent" value="bulk" />
      <input type="hidden" name={fields.ids.name} value={ids.join(",")} />
      <div className="flex flex-wrap items-end gap-3">
        <p className="self-center text-sm font-medium" role="status">
          {t("bulk.selected", { count: ids.length })}
        </p>
        <Field label={t("bulk.action")} id="bulk-action" error={err(fields.action)} className="min-w-48">
          <NativeSelect
            id="bulk-action"
            name={fields.action.name}
            value={action}
            onChange={(e) => setAction(e.target.value as BulkUserAction)}
            options={BULK_USER_ACTIONS.map((a) => ({ value: a, label: t(`bulk.actions.${a}`) }))}
          />
        </Field>
        {target && (
          <SelectField
            key={target.id}
            id={target.id}
            label={target.label}
            error={err(target.field)}
            className="min-w-48"
            name={target.field.name}
            defaultValue=""
            blank={t("bulk.choose")}
            options={namedOptions(target.rows)}
          />
        )}
        {action === "deactivate" ? (
          <Button type="button" variant="destructive" onClick={() => setConfirming(true)}>
            {t("bulk.apply")}
          </Button>
        ) : (
          <Button type="submit">{t("bulk.apply")}</Button>
        )}
        <Button type="button" variant="outline" onClick={onClear}>
          {t("bulk.clear")}
        </Button>
      </div>
      {(formError || err(fields.ids)) && (
        <p className="text-sm text-destructive" role="alert">
          {formError ?? err(fields.ids)}
        </p>
      )}
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent role="alertdialog" closeLabel={t("cancel")}>
          <DialogHeader>
            <DialogTitle>{t("bulk.deactivateTitle", { count: ids.length })}</DialogTitle>
            <DialogDescription>{t("bulk.deactivateDescription")}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogCancel>{t("cancel")}</DialogCancel>
            <Button type="submit" form={BULK_FORM_ID} variant="destructive">
              {t("bulk.deactivateConfirm")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Form>
  );
}
