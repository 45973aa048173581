import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { dateColumn } from "~/components/data-table/date-column";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import type { DeviceTypeRow } from "~/services/device-types.server";

/** Columns of /deviceType; sortable ids match `DEVICE_TYPE_SORTS`. The icon opens modify. */
export function deviceTypeColumns(t: TFunction, can: { modify: boolean; delete: boolean }): ColumnDef<DeviceTypeRow>[] {
  const cols: ColumnDef<DeviceTypeRow>[] = [
    openColumn<DeviceTypeRow>({
      header: t("open"),
      icon: <NAV_ICONS.deviceType className="size-5" />,
      href: (r) => (can.modify ? `/modifyDeviceType?id=${r.id}` : null),
      label: (r) => t("openType", { name: r.deviceType }),
    }),
    { id: "code", accessorKey: "deviceCode", header: t("deviceCode"), enableSorting: true, meta: { className: "font-mono" } },
    { id: "type", accessorKey: "deviceType", header: t("deviceType"), enableSorting: true },
    { id: "devices", accessorKey: "devices", header: t("devices"), enableSorting: true, meta: { className: "text-right" } },
    dateColumn<DeviceTypeRow>({ id: "createdAt", header: t("createdAt"), value: (r) => r.createdAt, timeZone: "UTC" }),
  ];
  if (can.delete)
    cols.push(
      deleteColumn<DeviceTypeRow>(t, (r) => ({ name: r.deviceType, code: r.deviceCode }), {
        header: "delete",
        label: "deleteType",
        title: "deleteTitle",
        description: "deleteDescription",
        confirm: "delete",
      }),
    );
  return cols;
}
