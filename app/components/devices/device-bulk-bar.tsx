import { Form } from "@remix-run/react";
import { useRef, useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { SelectField } from "~/components/select-field";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogCancel } from "~/components/ui/dialog";
import { addDevicesToGroupSchema } from "~/schemas/bulk";

export const DEVICE_BULK_FORM_ID = "bulk-devices";

type Group = { id: number; name: string };

/**
 * The devices list's bulk form (decision 0035): the selected devices and the group they join. The
 * schema's checks run first; a valid choice then asks for confirmation naming the group, and only the
 * dialog's button posts. The result of each device shows after the action.
 */
export function DeviceBulkBar({ ids, groups, onClear }: { ids: number[]; groups: Group[]; onClear: () => void }) {
  const confirmed = useRef(false);
  const [confirming, setConfirming] = useState(false);
  const [groupId, setGroupId] = useState("");
  const { fields, err, formError, formProps, t } = usePageForm({
    id: DEVICE_BULK_FORM_ID,
    schema: addDevicesToGroupSchema,
    ns: "devices",
    onSubmit: (event) => {
      if (confirmed.current) {
        confirmed.current = false;
        setConfirming(false);
        return;
      }
      event.preventDefault();
      setConfirming(true);
    },
  });
  const groupName = groups.find((g) => String(g.id) === groupId)?.name ?? "";
  const confirm = () => {
    confirmed.current = true;
    (document.getElementById(DEVICE_BULK_FORM_ID) as HTMLFormElement | null)?.requestSubmit();
  };

  return (
    <Form method="post" {...formProps} className="grid gap-3 rounded-lg border bg-muted/40 p-3" aria-label={t("bulk.label")}>
      <input type="hidden" name="intent" value="bulk" />
      <input type="hidden" name={fields.deviceIds.name} value={ids.join(",")} />
      <div className="flex flex-wrap items-end gap-3">
        <p className="self-center text-sm font-medium" role="status">
          {t("bulk.selected", { count: ids.length })}
        </p>
        <SelectField
          id="bulk-group"
          label={t("bulk.group")}
          error={err(fields.groupId)}
          className="min-w-48"
          name={fields.groupId.name}
          value={groupId}
          onChange={(e) => setGroupId(e.target.value)}
          blank={t("bulk.choose")}
          options={groups.map((g) => ({ value: g.id, label: g.name }))}
        />
        <Button type="submit">{t("bulk.addToGroup")}</Button>
        <Button type="button" variant="outline" onClick={onClear}>
          {t("bulk.clear")}
        </Button>
      </div>
      {(formError || err(fields.deviceIds)) && (
        <p className="text-sm text-destructive" role="alert">
          {formError ?? err(fields.deviceIds)}
        </p>
      )}
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent role="alertdialog" closeLabel={t("bulk.cancel")}>
          <DialogHeader>
            <DialogTitle>{t("bulk.confirmTitle", { count: ids.length, group: groupName })}</DialogTitle>
            <DialogDescription>{t("bulk.confirmDescription")}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogCancel>{t("bulk.cancel")}</DialogCancel>
            <Button type="button" onClick={confirm}>
              {t("bulk.addToGroup")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Form>
  );
}
