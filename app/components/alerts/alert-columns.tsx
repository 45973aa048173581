import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deleteColumn } from "~/components/data-table/delete-column";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import type { AlertListRow } from "~/services/alerts.server";
import { activityName } from "./activity-name";

export type AlertGridRow = AlertListRow & { lastRun: string | null };

const linkClass = "text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring rounded-sm";
const Bell = NAV_ICONS.alerts;

/** /alerts columns: the icon opens modify, the last run opens its activity, delete asks with the alert's name. */
export function alertColumns(t: TFunction, canDelete: boolean): ColumnDef<AlertGridRow>[] {
  const columns: ColumnDef<AlertGridRow>[] = [
    {
      id: "icon",
      header: () => <span className="sr-only">{t("col.open")}</span>,
      meta: { className: "w-12" },
      cell: ({ row }) => (
        <Link
          to={`/modifyAlert?id=${row.original.id}`}
          aria-label={t("open", { name: row.original.name })}
          className="inline-flex size-8 items-center justify-center rounded-md hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <Bell className="size-4" />
        </Link>
      ),
    },
    { id: "name", accessorKey: "name", header: t("col.name") },
    { id: "activity", accessorKey: "activityName", header: t("col.activity"), cell: ({ row }) => activityName(t, row.original.activityName) },
    {
      id: "lastRun",
      header: t("col.lastRun"),
      cell: ({ row }) =>
        row.original.lastActivityId && row.original.lastRun ? (
          <Link to={`/activityDetails?id=${row.original.lastActivityId}`} className={linkClass} aria-label={t("openLastRun", { name: row.original.name })}>
            {row.original.lastRun}
          </Link>
        ) : (
          t("never")
        ),
    },
  ];
  if (!canDelete) return columns;
  return [
    ...columns,
    deleteColumn<AlertGridRow>({
      header: t("col.delete"),
      label: (a) => t("delete.label", { name: a.name }),
      title: t("delete.title"),
      description: (a) => t("delete.description", { name: a.name }),
      confirm: t("delete.confirm"),
      cancel: t("cancel"),
    }),
  ];
}
