import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import type { StockRow } from "~/services/device-stock.server";

/** Columns of /viewDeviceStock: the caller's stock boards. */
export function stockColumns(t: TFunction): ColumnDef<StockRow>[] {
  return [
    { id: "serial", accessorKey: "serialNumber", header: t("col.serial"), meta: { className: "font-mono" } },
    { id: "front", accessorKey: "serialFront", header: t("col.serialFront"), meta: { className: "font-mono" } },
    { id: "back", accessorKey: "serialBack", header: t("col.serialBack"), meta: { className: "font-mono" } },
    { id: "type", accessorKey: "boardType", header: t("col.boardType") },
  ];
}
