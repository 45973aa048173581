import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import type { CompanyDeviceRow } from "~/services/companies.server";
import { formatCalendarDate } from "~/utils/format";

/** Columns of /companyRelatedDevices; `today` (YYYY-MM-DD) tells a future start date, written in the reader's `language`. */
export function companyDeviceColumns(t: TFunction, today: string, language: string): ColumnDef<CompanyDeviceRow>[] {
  return [
    { id: "serial", accessorKey: "serialNumber", header: t("dev.serial"), meta: { className: "font-mono" } },
    { id: "front", accessorKey: "serialFront", header: t("dev.front"), meta: { className: "font-mono" } },
    { id: "back", accessorKey: "serialBack", header: t("dev.back"), meta: { className: "font-mono" } },
    { id: "name", accessorKey: "fullName", header: t("dev.name") },
    { id: "type", accessorKey: "boardType", header: t("dev.type") },
    {
      id: "status",
      header: t("dev.status"),
      // Spec §3: an unconfigured device with a start date in the future "will be activated on {date}".
      cell: ({ row }) =>
        row.original.status === "unconfigured" && row.original.startDate && row.original.startDate > today
          ? t("dev.willActivate", { date: formatCalendarDate(row.original.startDate, language) })
          : t(`dev.status.${row.original.status}`),
    },
  ];
}
