import { Form } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { BoardClock } from "~/components/devices/board-clock";
import { dateColumn } from "~/components/data-table/date-column";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { LinkButton } from "~/components/ui/link-button";
import { ZonedTime } from "~/components/ui/zoned-time";
import type { FleetTrouble } from "~/schemas/fleet";
import type { FleetBoardRow, FleetCompanyRow } from "~/services/fleet.server";

/** A count that opens the boards it counts; zero is plain text, since there is nothing to open. */
function countLink(value: number, to: string, label: string): ReactNode {
  if (value === 0) return <span className="text-muted-foreground">0</span>;
  return (
    <LinkButton variant="link" size="inline" to={to} aria-label={label}>
      {value}
    </LinkButton>
  );
}

const troubleColumn = (t: TFunction, id: FleetTrouble, value: (r: FleetCompanyRow) => number): ColumnDef<FleetCompanyListRow> => ({
  id,
  accessorFn: value,
  enableSorting: true,
  header: t(`col.${id}`),
  meta: { className: "text-right" },
  cell: ({ row }) =>
    countLink(value(row.original), `/fleetBoards?company=${row.original.id}&trouble=${id}`, t(`open.${id}`, { count: value(row.original), company: row.original.name })),
});

/** A fleet row with the support access its company granted the viewer, if any is in force (decision 0093). */
export type FleetCompanyListRow = FleetCompanyRow & { supportGrant: { id: number; expiresAt: number } | null };

/** Opens the customer's console as support while its grant lasts; without a grant, health only. */
function SupportCell({ t, row, zone }: { t: TFunction; row: FleetCompanyListRow; zone: string }) {
  if (!row.supportGrant) return <span className="text-muted-foreground">{t("support.none")}</span>;
  return (
    <Form method="post" action="/resources/support-session" className="grid justify-items-start gap-0.5">
      <input type="hidden" name="intent" value="open" />
      <input type="hidden" name="grant" value={row.supportGrant.id} />
      <Button type="submit" size="sm" variant="outline" aria-label={t("support.openFor", { company: row.name })}>
        {t("support.open")}
      </Button>
      <span className="text-xs text-muted-foreground">
        {t("support.until")} <ZonedTime value={row.supportGrant.expiresAt} timeZone={zone} />
      </span>
    </Form>
  );
}

/** Columns of /fleet; sortable ids match `FLEET_COMPANY_SORTS`. The name opens the company's boards. */
export function fleetCompanyColumns(t: TFunction, o: { zone: string }): ColumnDef<FleetCompanyListRow>[] {
  return [
    {
      id: "name",
      accessorKey: "name",
      enableSorting: true,
      header: t("col.company"),
      meta: { className: "whitespace-normal min-w-40" },
      // The company ID under the name: one column less, so the health columns fit beside it.
      cell: ({ row }) => (
        <span className="grid gap-0.5">
          <LinkButton variant="link" size="inline" to={`/fleetBoards?company=${row.original.id}`} className="w-fit">
            {row.original.name}
          </LinkButton>
          <span className="text-xs text-muted-foreground">{row.original.code}</span>
        </span>
      ),
    },
    {
      id: "boards",
      accessorKey: "boards",
      enableSorting: true,
      header: t("col.boards"),
      meta: { className: "text-right" },
      cell: ({ row }) => t("onlineOf", { online: row.original.online, count: row.original.boards }),
    },
    {
      ...troubleColumn(t, "offline", (r) => r.offline),
      // The count, and since when the longest-offline board has been gone.
      cell: ({ row }) => {
        const r = row.original;
        return (
          <span className="grid justify-items-end gap-0.5">
            {countLink(r.offline, `/fleetBoards?company=${r.id}&trouble=offline`, t("open.offline", { count: r.offline, company: r.name }))}
            {r.offlineSince != null && (
              <span className="text-xs text-muted-foreground">
                {t("offlineSinceShort")} <ZonedTime value={r.offlineSince} timeZone={o.zone} />
              </span>
            )}
          </span>
        );
      },
    },
    troubleColumn(t, "lowBattery", (r) => r.lowBattery),
    troubleColumn(t, "behind", (r) => r.behind),
    troubleColumn(t, "alarms", (r) => r.alarms),
    troubleColumn(t, "clock", (r) => r.clock),
    dateColumn<FleetCompanyListRow>({ id: "lastSync", header: t("col.lastSync"), value: (r) => r.lastSync, timeZone: o.zone, sortable: true }),
    { id: "support", header: t("col.support"), cell: ({ row }) => <SupportCell t={t} row={row.original} zone={o.zone} /> },
  ];
}

/** Columns of /fleetBoards; sortable ids match `FLEET_BOARD_SORTS`. Health only: no one's name or key. */
export function fleetBoardColumns(t: TFunction, o: { zone: string }): ColumnDef<FleetBoardRow>[] {
  return [
    { id: "name", accessorKey: "name", enableSorting: true, header: t("col.board"), meta: { className: "whitespace-normal min-w-40" } },
    { id: "serialNumber", accessorKey: "serialNumber", enableSorting: true, header: t("col.serial") },
    { id: "deviceType", header: t("col.type"), cell: ({ row }) => row.original.deviceType ?? "" },
    {
      id: "since",
      accessorFn: (r) => r.since,
      enableSorting: true,
      header: t("col.connection"),
      cell: ({ row }) => {
        const r = row.original;
        if (r.online == null) return <Badge variant="secondary">{t("never")}</Badge>;
        return (
          <span className="grid gap-0.5">
            <Badge variant={r.online ? "success" : "destructive"} className="w-fit">
              {t(r.online ? "online" : "offline")}
            </Badge>
            {r.since != null && (
              <span className="text-xs text-muted-foreground">
                {t(r.online ? "onlineSince" : "offlineSinceShort")} <ZonedTime value={r.since} timeZone={o.zone} />
              </span>
            )}
          </span>
        );
      },
    },
    { id: "battery", header: t("col.battery"), cell: ({ row }) => (row.original.lowBattery ? <Badge variant="warning">{t("lowBattery")}</Badge> : t("batteryOk")) },
    {
      id: "firmwareVersion",
      accessorFn: (r) => r.firmwareVersion,
      enableSorting: true,
      header: t("col.firmware"),
      cell: ({ row }) => {
        const r = row.original;
        return (
          <span className="grid gap-0.5">
            <span>{r.firmwareVersion ?? t("unknownVersion")}</span>
            {r.behind && r.latestVersion && <span className="text-xs text-muted-foreground">{t("behindOf", { version: r.latestVersion })}</span>}
          </span>
        );
      },
    },
    { id: "alarms", accessorKey: "alarms", enableSorting: true, header: t("col.alarms"), meta: { className: "text-right" } },
    {
      id: "clock",
      accessorFn: (r) => r.driftMs,
      enableSorting: true,
      header: t("col.clock"),
      meta: { className: "whitespace-normal min-w-36" },
      cell: ({ row }) => <BoardClock reading={row.original} />,
    },
    { id: "gateway", header: t("col.gateway"), cell: ({ row }) => row.original.gateway ?? "" },
  ];
}
