import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import { MAIN_CELL } from "~/schemas/cell-records";
import type { CellRow } from "~/services/cells.server";

export type CellListRow = CellRow & { id: string };

/** Columns of /cells; sortable ids match `CELL_SORTS`. The icon opens modify; only an empty cell other than main can be removed. */
export function cellColumns(t: TFunction, can: { modify: boolean; delete: boolean }): ColumnDef<CellListRow>[] {
  const cols: ColumnDef<CellListRow>[] = [
    openColumn<CellListRow>({
      header: t("open"),
      icon: <NAV_ICONS.cells className="size-5" />,
      href: (r) => (can.modify ? `/modifyCell?name=${encodeURIComponent(r.name)}` : null),
      label: (r) => t("openCell", { name: r.name }),
    }),
    { id: "name", accessorKey: "name", header: t("name"), enableSorting: true, meta: { className: "font-mono" } },
    { id: "label", accessorKey: "label", header: t("label"), enableSorting: true },
    { id: "mqttUrl", accessorKey: "mqttUrl", header: t("mqttUrl"), enableSorting: true, meta: { className: "font-mono break-all" } },
    { id: "companies", accessorKey: "companies", header: t("companies"), enableSorting: true, meta: { className: "text-right" } },
  ];
  if (can.delete)
    cols.push(
      deleteColumn<CellListRow>(
        t,
        (r) => ({ name: r.name }),
        {},
        (r) => r.name === MAIN_CELL || r.companies > 0,
      ),
    );
  return cols;
}
