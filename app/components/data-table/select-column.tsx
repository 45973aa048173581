import type { ColumnDef } from "@tanstack/react-table";
import { Checkbox } from "~/components/ui/checkbox";

export type Selection = {
  /** Ids selected, on this page and others (a selection survives paging). */
  selected: ReadonlySet<number>;
  onChange: (next: Set<number>) => void;
};

/**
 * A leading checkbox column for a `DataTable` with bulk actions. The header box selects or clears every
 * row of the page (mixed when only some are); each box has its own accessible name and toggles with Space.
 *
 *   columns = [selectColumn<UserRow>({ ...selection, idOf: (u) => u.id, rowLabel: (u) => t("select", { name: u.displayName }), pageLabel: t("selectPage") }), ...]
 */
export function selectColumn<T>({
  selected,
  onChange,
  idOf,
  rowLabel,
  pageLabel,
}: Selection & { idOf: (row: T) => number; rowLabel: (row: T) => string; pageLabel: string }): ColumnDef<T> {
  const toggle = (ids: number[], on: boolean) => {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange(next);
  };
  return {
    id: "select",
    meta: { className: "w-10" },
    header: ({ table }) => {
      const ids = table.getRowModel().rows.map((r) => idOf(r.original));
      const count = ids.filter((id) => selected.has(id)).length;
      const state = count > 0 && count === ids.length ? true : count > 0 ? "indeterminate" : false;
      return <Checkbox aria-label={pageLabel} checked={state} disabled={ids.length === 0} onCheckedChange={(v) => toggle(ids, v === true)} />;
    },
    cell: ({ row }) => {
      const id = idOf(row.original);
      return <Checkbox aria-label={rowLabel(row.original)} checked={selected.has(id)} onCheckedChange={(v) => toggle([id], v === true)} />;
    },
  };
}
