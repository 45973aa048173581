import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { LinkButton } from "~/components/ui/link-button";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import type { AlertListRow } from "~/services/alerts.server";
import { activityName } from "./activity-name";

export type AlertGridRow = AlertListRow & { lastRun: string | null };

const Bell = NAV_ICONS.alerts;

/** /alerts columns: the icon opens modify, the last run opens its activity, delete asks with the alert's name. */
export function alertColumns(t: TFunction, canDelete: boolean): ColumnDef<AlertGridRow>[] {
  const columns: ColumnDef<AlertGridRow>[] = [
    openColumn<AlertGridRow>({ header: t("col.open"), icon: <Bell className="size-4" />, href: (a) => `/modifyAlert?id=${a.id}`, label: (a) => t("open", { name: a.name }) }),
    { id: "name", accessorKey: "name", header: t("col.name") },
    {
      id: "activity",
      accessorKey: "activityName",
      header: t("col.activity"),
      cell: ({ row }) => row.original.activityNames.map((n) => activityName(t, n)).join(", "),
    },
    {
      id: "lastRun",
      header: t("col.lastRun"),
      cell: ({ row }) =>
        row.original.lastActivityId && row.original.lastRun ? (
          <LinkButton to={`/activityDetails?id=${row.original.lastActivityId}`} variant="link" size="inline" aria-label={t("openLastRun", { name: row.original.name })}>
            {row.original.lastRun}
          </LinkButton>
        ) : (
          t("never")
        ),
    },
  ];
  if (!canDelete) return columns;
  return [...columns, deleteColumn<AlertGridRow>(t, (a) => ({ name: a.name }))];
}
