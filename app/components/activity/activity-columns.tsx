import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import type { FilterType } from "~/schemas/activity";
import type { ActivityRow } from "~/services/activity.server";

/** A grid row: the service's row plus its time already formatted in the company's zone. */
export type ActivityGridRow = ActivityRow & { when: string; day: string };

/** Builds a link to /activity with some filter params replaced (null removes one); paging restarts. */
export type FilterHref = (changes: Record<string, string | null>) => string;

const linkClass = "text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring rounded-sm";

/** A cell that narrows the log to the thing it names (docs/ARCHITECTURE.md §7.1: clicking a cell filters). */
function FilterCell({ to, label, text }: { to: string; label: string; text: string }) {
  return (
    <Link to={to} aria-label={label} className={linkClass} preventScrollReset>
      {text}
    </Link>
  );
}

function byIdColumn(t: TFunction, href: FilterHref, id: string, type: FilterType, pick: (r: ActivityGridRow) => { id: number; name: string } | null): ColumnDef<ActivityGridRow> {
  return {
    id,
    header: t(`col.${id}`),
    enableSorting: true,
    accessorFn: (r) => pick(r)?.name ?? "",
    cell: ({ row }) => {
      const v = pick(row.original);
      return v ? <FilterCell to={href({ id: String(v.id), type })} label={t("filterBy", { what: t(`col.${id}`), name: v.name })} text={v.name} /> : "-";
    },
  };
}

/** /activity columns; ids match ACTIVITY_SORTS. */
export function activityColumns(t: TFunction, href: FilterHref): ColumnDef<ActivityGridRow>[] {
  return [
    {
      id: "date",
      header: t("col.date"),
      accessorKey: "when",
      enableSorting: true,
      cell: ({ row }) => (
        <FilterCell to={href({ filterFromDate: row.original.day, filterToDate: row.original.day })} label={t("filterByDay", { day: row.original.when })} text={row.original.when} />
      ),
    },
    {
      id: "activity",
      header: t("col.activity"),
      accessorKey: "activity_name",
      enableSorting: true,
      cell: ({ row }) => (
        <Link to={`/activityDetails?id=${row.original.id}`} className={linkClass} aria-label={t("openDetails", { name: row.original.activity_name })}>
          {row.original.activity_name}
        </Link>
      ),
    },
    {
      id: "trigger",
      header: t("col.trigger"),
      accessorKey: "operation_type",
      enableSorting: true,
      cell: ({ row }) => (
        <FilterCell
          to={href({ filterOperationType: row.original.operation_type })}
          label={t("filterBy", { what: t("col.trigger"), name: t(`op.${row.original.operation_type}`) })}
          text={t(`op.${row.original.operation_type}`)}
        />
      ),
    },
    byIdColumn(t, href, "triggeredBy", "Triggered By", (r) => r.created_by_user && { id: r.created_by_user.id, name: r.created_by_user.dispay_name }),
    byIdColumn(t, href, "user", "User", (r) => r.target_user && { id: r.target_user.id, name: r.target_user.dispay_name }),
    byIdColumn(t, href, "device", "Device", (r) => r.target_device && { id: r.target_device.id, name: r.target_device.display_name }),
    byIdColumn(t, href, "deviceGroup", "Device Group", (r) => r.target_device_group && { id: r.target_device_group.id, name: r.target_device_group.full_name }),
    { id: "summary", header: t("col.summary"), accessorKey: "summary", meta: { className: "whitespace-normal min-w-48" } },
  ];
}
