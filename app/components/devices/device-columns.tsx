import { Link } from "@remix-run/react";
import { LinkButton } from "~/components/ui/link-button";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deviceStatusText } from "~/components/lifecycle/device-status";
import { shortHeader } from "~/components/data-table/short-header";
import { Badge } from "~/components/ui/badge";
import { ZonedTime } from "~/components/ui/zoned-time";
import { LockIcon } from "./device-icons";
import { DoorState } from "./door-state";

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

/** Cells that may wrap (names, times, badges) so the table fits the page instead of scrolling sideways. */
const WRAP = "whitespace-normal";

/**
 * /devices columns (docs/ARCHITECTURE.md §7.1): the icon opens details, last activity opens that
 * device's activity; then the live status (decision 0033), each sortable on the server. Times are in
 * the company's zone, labelled, dates in the reader's `language`. To fit 1440 px without sideways scrolling, times break between date
 * and time, and the display name's own column shows from 1536 px (below that it is the second line of
 * the full name); below 1280 px "Date added" is left to the details page, and on phones the serial
 * number moves under the name.
 */
export function deviceColumns(t: TFunction, today: string, tz: string, language: string): ColumnDef<DeviceListRow>[] {
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
    {
      id: "fullName",
      accessorKey: "fullName",
      header: t("col.fullName"),
      enableSorting: true,
      meta: { className: `${WRAP} min-w-32` },
      cell: ({ row }) => (
        <span className="flex flex-col">
          <span>{row.original.fullName}</span>
          {row.original.displayName && row.original.displayName !== row.original.fullName && (
            <span className="text-xs text-muted-foreground 2xl:hidden">
              <span className="sr-only">{t("col.displayName")}: </span>
              {row.original.displayName}
            </span>
          )}
          <span className="text-xs text-muted-foreground md:hidden">
            <span className="sr-only">{t("col.serialNumber")}: </span>
            {row.original.serialNumber}
          </span>
        </span>
      ),
    },
    { id: "displayName", accessorKey: "displayName", header: t("col.displayName"), enableSorting: true, meta: { className: `${WRAP} hidden 2xl:table-cell` } },
    {
      id: "serialNumber",
      accessorKey: "serialNumber",
      header: shortHeader(t("col.serialShort"), t("col.serialNumber")),
      enableSorting: true,
      meta: { className: "hidden md:table-cell" },
    },
    {
      id: "status",
      header: t("lifecycle:col.status"),
      meta: { className: WRAP },
      cell: ({ row }) => deviceStatusText(t, row.original.status, row.original.startDate, today, language),
    },
    {
      id: "createdAt",
      accessorKey: "createdAt",
      header: t("col.createdAt"),
      enableSorting: true,
      meta: { className: `${WRAP} hidden xl:table-cell` },
      cell: ({ row }) => <ZonedTime value={row.original.createdAt} timeZone={tz} />,
    },
    {
      id: "lastActivity",
      accessorKey: "lastActivityAt",
      header: t("col.lastActivity"),
      enableSorting: true,
      // Below 1280 px the status card of the details has it: the live status columns need the room.
      meta: { className: `${WRAP} hidden xl:table-cell` },
      cell: ({ row }) =>
        row.original.lastActivityAt == null ? (
          "-"
        ) : (
          <LinkButton variant="link" size="inline" to={`/activity?id=${row.original.id}&type=Device`}>
            <ZonedTime value={row.original.lastActivityAt} timeZone={tz} />
          </LinkButton>
        ),
    },
    {
      id: "online",
      accessorKey: "online",
      header: t("col.online"),
      enableSorting: true,
      meta: { className: WRAP },
      cell: ({ row }) => {
        const { online, onlineSince } = row.original;
        if (online == null) return <Badge variant="outline">{t("online.never")}</Badge>;
        return (
          <span className="flex flex-col items-start gap-0.5">
            <Badge variant={online ? "success" : "secondary"}>{t(online ? "online.yes" : "online.no")}</Badge>
            {onlineSince != null && (
              <span className="text-xs text-muted-foreground">
                {t("online.sinceLabel")} <ZonedTime value={onlineSince} timeZone={tz} />
              </span>
            )}
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
      meta: { className: WRAP },
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
      meta: { className: WRAP },
      cell: ({ row }) => <DoorState t={t} online={row.original.online} doorState={row.original.doorState} />,
    },
  ];
}
