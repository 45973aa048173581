import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { AlertTriangleIcon } from "~/components/ui/icons";
import type { LockdownPlan } from "~/services/lockdown.server";
import { StartDialog } from "./start-dialog";

export type LockdownPlanRow = Pick<LockdownPlan, "id" | "name" | "mode" | "scope" | "durationMinutes">;

/** Columns of /lockdown: open (modify), name, mode, scope, duration, start, delete. */
export function lockdownColumns(t: TFunction, can: { modify: boolean; start: boolean; delete: boolean }): ColumnDef<LockdownPlanRow>[] {
  const cols: ColumnDef<LockdownPlanRow>[] = [
    openColumn<LockdownPlanRow>({
      header: t("open"),
      icon: <AlertTriangleIcon className="size-5" />,
      href: (r) => (can.modify ? `/modifyLockdownPlan?id=${r.id}` : null),
      label: (r) => t("openPlan", { name: r.name }),
    }),
    { id: "name", accessorKey: "name", header: t("name") },
    { id: "mode", header: t("mode"), cell: ({ row }) => t(`mode.${row.original.mode}`) },
    { id: "scope", header: t("scope"), cell: ({ row }) => t(`scope.${row.original.scope}`) },
    {
      id: "duration",
      header: t("durationMinutes"),
      cell: ({ row }) => (row.original.durationMinutes == null ? t("untilEnded") : t("minutes", { count: row.original.durationMinutes })),
    },
  ];
  if (can.start) cols.push({ id: "start", header: () => <span className="sr-only">{t("start")}</span>, cell: ({ row }) => <StartDialog plan={row.original} /> });
  if (can.delete) cols.push(deleteColumn<LockdownPlanRow>(t, (r) => ({ name: r.name })));
  return cols;
}
