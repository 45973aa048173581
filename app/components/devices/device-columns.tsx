import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deviceStatusText } from "~/components/lifecycle/device-status";
import { Badge } from "~/components/ui/badge";
import { formatDateTime, formatZonedTime } from "~/utils/format";
import { LockIcon } from "./device-icons";

export type DeviceListRow = {
  id: number;
  fullName: string;
  displayName: string;
  serialNumber: string;
  status: string;
  startDate: string | null;
  createdAt: number;
  lastActivityAt: number | null;
  deviceType: string | null;
  /** null: no gateway ever reported the board */
  online: boolean | null;
  onlineSince: number | null;
  lowBattery: boolean;
  firmwareVersion: string | null;
  firmwarePending: boolean;
  doorState: "open" | "closed" | null;
  doorStateAt: number | null;
};

/**
 * /devices columns (docs/ARCHITECTURE.md §7.1): the icon opens details, last activity opens that
 * device's activity; then the live status (decision 0033), each sortable on the server. Times are in
 * the company's zone, labelled.
 */
export function deviceColumns(t: TFunction, today: string, tz: string): ColumnDef<DeviceListRow>[] {
  return [
    {
      id: "icon",
      header: () => <span className="sr-only">{t("col.icon")}</span>,
      meta: { className: "w-12" },
      cell: ({ row }) => (
        <Link
          to={`/deviceDetails?id=${row.original.id}`}
          aria-label={t("openDetails", { name: row.original.fullName || row.original.serialNumber })}
          className="inline-flex size-8 items-center justify-center rounded-md text-primary hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <LockIcon className="size-4" />
        </Link>
      ),
    },
    { id: "fullName", accessorKey: "fullName", header: t("col.fullName"), enableSorting: true },
    { id: "displayName", accessorKey: "displayName", header: t("col.displayName"), enableSorting: true },
    { id: "serialNumber", accessorKey: "serialNumber", header: t("col.serialNumber"), enableSorting: true },
    { id: "status", header: t("lifecycle:col.status"), cell: ({ row }) => deviceStatusText(t, row.original.status, row.original.startDate, today) },
    { id: "createdAt", accessorKey: "createdAt", header: t("col.createdAt"), enableSorting: true, cell: ({ row }) => formatDateTime(row.original.createdAt) },
    {
      id: "lastActivity",
      accessorKey: "lastActivityAt",
      header: t("col.lastActivity"),
      enableSorting: true,
      cell: ({ row }) =>
        row.original.lastActivityAt == null ? (
          "-"
        ) : (
          <Link to={`/activity?id=${row.original.id}&type=Device`} className="text-primary underline-offset-4 hover:underline">
            {formatZonedTime(row.original.lastActivityAt, tz)}
          </Link>
        ),
    },
    {
      id: "online",
      accessorKey: "online",
      header: t("col.online"),
      enableSorting: true,
      cell: ({ row }) => {
        const { online, onlineSince } = row.original;
        if (online == null) return <Badge variant="outline">{t("online.never")}</Badge>;
        return (
          <span className="flex flex-col items-start gap-0.5">
            <Badge variant={online ? "success" : "secondary"}>{t(online ? "online.yes" : "online.no")}</Badge>
            {onlineSince != null && <span className="text-xs whitespace-nowrap text-muted-foreground">{t("online.since", { at: formatZonedTime(onlineSince, tz) })}</span>}
          </span>
        );
      },
    },
    {
      id: "battery",
      accessorKey: "lowBattery",
      header: t("col.battery"),
      enableSorting: true,
      cell: ({ row }) => (row.original.lowBattery ? <Badge variant="warning">{t("details.batteryLow")}</Badge> : t("details.batteryGood")),
    },
    {
      id: "firmware",
      accessorKey: "firmwareVersion",
      header: t("col.firmware"),
      enableSorting: true,
      cell: ({ row }) => (
        <span className="flex flex-wrap items-center gap-1">
          {row.original.firmwareVersion ?? "-"}
          {row.original.firmwarePending && <Badge variant="outline">{t("firmware.pending")}</Badge>}
        </span>
      ),
    },
    {
      id: "door",
      accessorKey: "doorState",
      header: t("col.door"),
      enableSorting: true,
      cell: ({ row }) =>
        row.original.doorState ? <Badge variant={row.original.doorState === "open" ? "warning" : "secondary"}>{t(`door.${row.original.doorState}`)}</Badge> : "-",
    },
  ];
}
