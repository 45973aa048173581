import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import { addDevicesToGroupSchema, type BulkRowResult } from "~/schemas/bulk";
import type { DeviceOption } from "~/services/device-groups.server";
import type { FormReply } from "~/utils/form-action.server";

export const ADD_DEVICES_FORM_ID = "add-devices";

type PickerPage = { rows: DeviceOption[]; total: number; page: number; pageSize: number };
export type AddDevicesReply = FormReply & { added?: { rows: BulkRowResult[] } };

/**
 * The group page's "Add devices" dialog (decision 0035): the company's devices outside the group,
 * searched and paged on the server; ticked devices stay selected across searches and pages. "Add
 * selected" runs the schema's checks and asks for confirmation naming the group; only the
 * confirmation posts. The per-device results go to `onDone` and the dialog closes.
 */
export function DevicePicker({ group, onDone }: { group: { id: number; name: string }; onDone: (rows: BulkRowResult[]) => void }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const confirmingRef = useRef(false);
  const [search, setSearch] = useState({ q: "", page: 1 });
  const [selected, setSelected] = useState<Map<number, string>>(() => new Map());
  const list = useFetcher<PickerPage | { message: string }>();
  const submit = useFetcher<AddDevicesReply>();
  const addButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const { form, fields, err, formError, formProps, t } = usePageForm({
    id: ADD_DEVICES_FORM_ID,
    schema: addDevicesToGroupSchema,
    ns: "groups",
    lastResult: submit.data?.result ?? null,
    onSubmit: (event) => {
      if (confirmingRef.current) return;
      event.preventDefault();
      step(true);
    },
  });
  /** Each step's buttons replace the other's: focus moves to the new step's main button once it is drawn. */
  const step = (confirm: boolean) => {
    confirmingRef.current = confirm;
    setConfirming(confirm);
    requestAnimationFrame(() => (confirm ? confirmButton : addButton).current?.focus());
  };

  // A changed selection re-checks it, so "Select at least one row" clears once a device is ticked.
  const recheck = useRef(() => {});
  recheck.current = () => {
    if (fields.deviceIds.errors) form.validate({ name: fields.deviceIds.name });
  };
  useEffect(() => recheck.current(), [selected]);

  const { load } = list;
  useEffect(() => {
    if (!open) return;
    load(`/resources/group-devices?${new URLSearchParams({ groupId: String(group.id), q: search.q, page: String(search.page) })}`);
  }, [open, search, group.id, load]);

  // A finished add closes the dialog and hands its results to the page, which reloads the group's devices.
  useEffect(() => {
    if (submit.state !== "idle" || !submit.data?.added) return;
    onDone(submit.data.added.rows);
    setSelected(new Map());
    step(false);
    setOpen(false);
  }, [submit.state, submit.data, onDone]);

  const reset = (next: boolean) => {
    setOpen(next);
    if (!next) {
      step(false);
      setSearch({ q: "", page: 1 });
      setSelected(new Map());
    }
  };
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSearch({ q: String(new FormData(event.currentTarget).get("q") ?? "").trim(), page: 1 });
  };
  const toggle = (devices: DeviceOption[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const d of devices) {
        if (on) next.set(d.id, d.fullName);
        else next.delete(d.id);
      }
      return next;
    });

  const page = list.data && "rows" in list.data ? list.data : undefined;
  const rows = page?.rows ?? [];
  const shownSelected = rows.filter((d) => selected.has(d.id)).length;
  const allShown = rows.length > 0 && shownSelected === rows.length ? true : shownSelected > 0 ? "indeterminate" : false;
  const from = page && page.total > 0 ? (page.page - 1) * page.pageSize + 1 : 0;
  const to = page ? Math.min(page.page * page.pageSize, page.total) : 0;
  const loading = list.state !== "idle";

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button type="button">{t("picker.open")}</Button>
      </DialogTrigger>
      <DialogContent closeLabel={t("picker.cancel")} className="max-w-2xl" aria-describedby="add-devices-description">
        <DialogHeader>
          <DialogTitle>{confirming ? t("picker.confirmTitle", { count: selected.size, group: group.name }) : t("picker.title", { group: group.name })}</DialogTitle>
          <DialogDescription id="add-devices-description">{confirming ? t("picker.confirmDescription") : t("picker.description")}</DialogDescription>
        </DialogHeader>

        {!confirming && (
          <form role="search" aria-label={t("picker.search")} onSubmit={onSearch} className="grid gap-1">
            <Label htmlFor="picker-q">{t("picker.search")}</Label>
            <div className="flex gap-2">
              <Input id="picker-q" name="q" type="search" maxLength={100} defaultValue={search.q} placeholder={t("picker.searchPlaceholder")} />
              <Button type="submit" variant="outline">
                {t("picker.searchSubmit")}
              </Button>
            </div>
          </form>
        )}

        <submit.Form method="post" action={`/modifyDeviceGroup?id=${group.id}`} {...formProps} aria-label={t("picker.label")} className="grid gap-3">
          <input type="hidden" name="intent" value="addDevices" />
          <input type="hidden" name={fields.groupId.name} value={group.id} />
          <input type="hidden" name={fields.deviceIds.name} value={[...selected.keys()].join(",")} />
          {confirming ? (
            <ul className="grid max-h-64 gap-1 overflow-y-auto text-sm" data-testid="picker-confirm-list">
              {[...selected].map(([id, name]) => (
                <li key={id}>{name}</li>
              ))}
            </ul>
          ) : (
            <PickerList t={t} rows={rows} loading={loading && !page} failed={list.data != null && !page} q={search.q} selected={selected} allShown={allShown} onToggle={toggle} />
          )}
          {!confirming && page && page.total > page.pageSize && (
            <nav aria-label={t("picker.list")} className="flex items-center justify-between gap-2 text-sm">
              <span className="text-muted-foreground tabular-nums">{t("picker.range", { from, to, total: page.total })}</span>
              <span className="flex gap-1">
                <Button type="button" variant="outline" size="sm" disabled={page.page <= 1 || loading} onClick={() => setSearch((s) => ({ ...s, page: s.page - 1 }))}>
                  {t("picker.previous")}
                </Button>
                <Button type="button" variant="outline" size="sm" disabled={to >= page.total || loading} onClick={() => setSearch((s) => ({ ...s, page: s.page + 1 }))}>
                  {t("picker.next")}
                </Button>
              </span>
            </nav>
          )}
          <p className="text-sm font-medium" role="status">
            {t("picker.selected", { count: selected.size })}
          </p>
          {(formError || err(fields.deviceIds)) && (
            <p className="text-sm text-destructive" role="alert">
              {formError ?? err(fields.deviceIds)}
            </p>
          )}
          <DialogFooter>
            {confirming ? (
              <>
                <Button type="button" variant="outline" onClick={() => step(false)}>
                  {t("picker.back")}
                </Button>
                <Button type="submit" loading={submit.state !== "idle"} ref={confirmButton}>
                  {t("picker.confirm")}
                </Button>
              </>
            ) : (
              <>
                <Button type="button" variant="outline" onClick={() => reset(false)}>
                  {t("picker.cancel")}
                </Button>
                <Button type="submit" ref={addButton}>
                  {t("picker.add")}
                </Button>
              </>
            )}
          </DialogFooter>
        </submit.Form>
      </DialogContent>
    </Dialog>
  );
}

type ListProps = {
  t: ReturnType<typeof usePageForm>["t"];
  rows: DeviceOption[];
  loading: boolean;
  failed: boolean;
  q: string;
  selected: ReadonlyMap<number, string>;
  allShown: boolean | "indeterminate";
  onToggle: (devices: DeviceOption[], on: boolean) => void;
};

/** The shown page of devices, each with its checkbox, and "select all shown" above them. */
function PickerList({ t, rows, loading, failed, q, selected, allShown, onToggle }: ListProps) {
  if (loading)
    return (
      <p className="flex items-center gap-2 py-6 text-sm text-muted-foreground" role="status">
        <Spinner /> {t("picker.loading")}
      </p>
    );
  if (failed)
    return (
      <p className="text-sm text-destructive" role="alert">
        {t("picker.loadFailed")}
      </p>
    );
  if (rows.length === 0) return <EmptyState title={q ? t("picker.noMatches", { q }) : t("picker.allInGroup")} className="py-6" />;
  return (
    <fieldset className="grid gap-2">
      <legend className="sr-only">{t("picker.list")}</legend>
      <div className="flex items-center gap-2 border-b pb-2">
        <Checkbox id="picker-all" checked={allShown} onCheckedChange={(v) => onToggle(rows, v === true)} />
        <Label htmlFor="picker-all">{t("picker.selectAll")}</Label>
      </div>
      <ul className="grid max-h-72 gap-1 overflow-y-auto" data-testid="picker-devices">
        {rows.map((d) => (
          <li key={d.id} className="flex items-center gap-2 rounded-md px-1 py-1 hover:bg-muted/60">
            <Checkbox
              id={`picker-${d.id}`}
              aria-label={t("picker.selectRow", { name: d.fullName })}
              checked={selected.has(d.id)}
              onCheckedChange={(v) => onToggle([d], v === true)}
            />
            <label htmlFor={`picker-${d.id}`} className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2 text-sm">
              <span className="font-medium break-words">{d.fullName}</span>
              <span className="text-xs text-muted-foreground">{d.serialNumber}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
