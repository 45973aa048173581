import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deleteColumn } from "~/components/data-table/delete-column";
import { CircleCheckIcon, CircleOffIcon } from "~/components/devices/device-icons";
import { CheckIcon } from "~/components/ui/icons";
import type { GroupRow } from "~/services/device-groups.server";
import { WEEKDAYS } from "~/schemas/week";

const DAY_KEYS = ["schMonday", "schTuesday", "schWednesday", "schThursday", "schFriday", "schSaturday", "schSunday"] as const satisfies readonly (keyof GroupRow)[];

/** From 1280 px each weekday, the start and the end have a column; below, one "Days" and one "Hours" column hold them (decision 0038). */
const WIDE = "hidden xl:table-cell";
const NARROW = "whitespace-normal xl:hidden";

/** /deviceGroups columns (docs/ARCHITECTURE.md §7.1): the status icon opens modify; delete asks first. */
export function groupColumns(t: TFunction, canDelete: boolean): ColumnDef<GroupRow>[] {
  const columns: ColumnDef<GroupRow>[] = [
    {
      id: "status",
      accessorKey: "status",
      header: t("col.status"),
      enableSorting: true,
      meta: { className: "w-16" },
      cell: ({ row }) => {
        const active = row.original.status === 1 || row.original.status === 2;
        const Icon = active ? CircleCheckIcon : CircleOffIcon;
        return (
          <Link
            to={`/modifyDeviceGroup?id=${row.original.id}`}
            aria-label={t(active ? "active" : "inactive", { name: row.original.fullName })}
            data-status={active ? "active" : "inactive"}
            className="inline-flex size-8 items-center justify-center rounded-md hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <Icon className={active ? "size-4 text-green-600" : "size-4 text-muted-foreground"} />
          </Link>
        );
      },
    },
    { id: "fullName", accessorKey: "fullName", header: t("col.fullName"), enableSorting: true, meta: { className: "whitespace-normal min-w-28" } },
    { id: "displayName", accessorKey: "displayName", header: t("col.displayName"), enableSorting: true, meta: { className: "whitespace-normal min-w-24" } },
    {
      id: "days",
      header: t("col.days"),
      meta: { className: NARROW },
      cell: ({ row }) => {
        const on = DAY_KEYS.flatMap((key, i) => (row.original[key] ? [i] : []));
        if (on.length === 0) return "-";
        return (
          <ul className="flex flex-wrap gap-x-1.5">
            {on.map((i) => (
              <li key={i}>
                <span aria-hidden="true">{t(`day.short.${i}`)}</span>
                <span className="sr-only">{t(`day.${i}`)}</span>
              </li>
            ))}
          </ul>
        );
      },
    },
    {
      id: "hours",
      header: t("col.hours"),
      meta: { className: NARROW },
      cell: ({ row }) => (row.original.isAllDay ? t("allDay") : `${row.original.startAt ?? "-"}–${row.original.endAt ?? "-"}`),
    },
    ...DAY_KEYS.map((key, i): ColumnDef<GroupRow> => ({
      id: WEEKDAYS[i],
      header: () => (
        <abbr title={t(`day.${i}`)} className="no-underline">
          {t(`day.short.${i}`)}
        </abbr>
      ),
      meta: { className: `w-12 text-center ${WIDE}` },
      cell: ({ row }) =>
        row.original[key] ? <CheckIcon className="mx-auto size-4" aria-label={t("yes")} aria-hidden={false} role="img" /> : <span className="sr-only">{t("no")}</span>,
    })),
    ...(["startAt", "endAt"] as const).map((key): ColumnDef<GroupRow> => ({
      id: key,
      accessorKey: key,
      header: t(key === "startAt" ? "col.start" : "col.end"),
      enableSorting: true,
      meta: { className: WIDE },
      cell: ({ row }) => (row.original.isAllDay ? t("allDay") : (row.original[key] ?? "-")),
    })),
    {
      id: "timeZone",
      accessorKey: "timeZoneLabel",
      header: t("col.timeZone"),
      enableSorting: true,
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => row.original.timeZoneLabel ?? "-",
    },
  ];
  if (!canDelete) return columns;
  return [...columns, deleteColumn<GroupRow>(t, (g) => ({ name: g.fullName }))];
}
