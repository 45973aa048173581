import type { ColumnDef } from "@tanstack/react-table";
import { ZonedTime } from "~/components/ui/zoned-time";

/**
 * A moment column in the given zone, labelled ("11/20/2026 13:00:05 CET"). With `sortable` its
 * header sorts by its id, which must then be one of the loader's sortable keys.
 */
export function dateColumn<T>(o: { id: string; header: string; value: (row: T) => number | null; timeZone: string; sortable?: boolean }): ColumnDef<T> {
  return {
    id: o.id,
    ...(o.sortable ? { accessorFn: o.value, enableSorting: true } : {}),
    header: o.header,
    cell: ({ row }) => <ZonedTime value={o.value(row.original)} timeZone={o.timeZone} />,
  };
}
