import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { dateColumn } from "~/components/data-table/date-column";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { icon } from "~/components/ui/icons";
import { LinkButton } from "~/components/ui/link-button";
import type { CalendarRow } from "~/services/holidays.server";

const CalendarIcon = icon(<path d="M8 2v4M16 2v4M3 10h18M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />);

/** Columns of /holidayCalendars; sortable ids match `CALENDAR_SORTS`. */
export function calendarColumns(t: TFunction, opts: { canModify: boolean; canDelete: boolean; timeZone: string }): ColumnDef<CalendarRow>[] {
  const cols: ColumnDef<CalendarRow>[] = [
    openColumn<CalendarRow>({
      header: t("col.name"),
      icon: <CalendarIcon className="size-4" />,
      href: (r) => `/modifyHolidayCalendar?id=${r.id}`,
      label: (r) => t("open", { name: r.name }),
    }),
    {
      id: "name",
      accessorKey: "name",
      enableSorting: true,
      header: t("col.name"),
      cell: ({ row }) => (
        <LinkButton variant="link" size="inline" to={`/modifyHolidayCalendar?id=${row.original.id}`}>
          {row.original.name}
        </LinkButton>
      ),
    },
    { id: "source", header: t("col.source"), cell: ({ row }) => row.original.source ?? "" },
    { id: "dates", accessorKey: "dates", enableSorting: true, header: t("col.dates"), meta: { className: "text-right" } },
    dateColumn<CalendarRow>({ id: "updatedAt", header: t("col.updatedAt"), value: (r) => r.updatedAt, timeZone: opts.timeZone, sortable: true }),
  ];
  if (opts.canDelete)
    cols.push(
      deleteColumn<CalendarRow>(t, (r) => ({ name: r.name }), {
        header: "delete",
        label: "deleteLabel",
        title: "deleteTitle",
        description: "deleteDescription",
        confirm: "delete",
      }),
    );
  return cols;
}
