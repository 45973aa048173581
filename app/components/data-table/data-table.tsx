/**
 * Generic server-driven table (shadcn "data table" recipe on TanStack Table 8). The page owns
 * its columns in a `columns.tsx` next to the route; the loader reads page/sort with
 * `parseTableParams`, queries one page and returns it with the total count.
 *
 *   // app/routes/users/columns.tsx
 *   export const columns: ColumnDef<UserRow>[] = [
 *     { accessorKey: "displayName", header: "Display name", enableSorting: true },
 *     { accessorKey: "email", header: "Email", enableSorting: true,
 *       cell: ({ row }) => <a href={`mailto:${row.original.email}`}>{row.original.email}</a> },
 *     { accessorKey: "lastActivity", header: "Last activity", enableSorting: true,
 *       cell: ({ getValue }) => formatDateTime(getValue<number | null>(), timeZone, i18n.language) || "-" },
 *     { id: "actions", header: () => <span className="sr-only">Actions</span>, meta: { className: "w-12" },
 *       cell: ({ row }) => <ConfirmDialog … fields={{ intent: "delete", id: row.original.id }} /> },
 *   ];
 *
 *   // app/routes/users/route.tsx
 *   export async function loader({ request }: LoaderFunctionArgs) {
 *     const params = parseTableParams(request.url, { defaultSort: "displayName", sortable: ["displayName", "email", "lastActivity"] });
 *     const { rows, total } = await listUsers(db, params); // LIMIT params.pageSize OFFSET params.offset
 *     return json({ rows, total, params });
 *   }
 *   export default function Users() {
 *     const { rows, total, params } = useLoaderData<typeof loader>();
 *     return <DataTable columns={columns} data={rows} total={total} params={params} caption="Users"
 *                       onRowClick={(u) => navigate(`/modifyUser?id=${u.id}`)} emptyState={<EmptyState title="No users" />} />;
 *   }
 *
 * Only columns with `enableSorting: true` and an accessor get a sort link; their id must be in
 * the loader's `sortable` list. Filters are ordinary search params (set by a `<Form method="get">`)
 * and survive sorting and paging.
 */
import { Link, useLocation, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type Header, type Row, type RowData } from "@tanstack/react-table";
import type { KeyboardEvent, MouseEvent, ReactNode } from "react";
import { ChevronDownIcon, ChevronsUpDownIcon, ChevronUpIcon } from "~/components/ui/icons";
import { Pagination, type PaginationLabels } from "~/components/ui/pagination";
import { useKeyboardScroll } from "~/components/ui/use-keyboard-scroll";
import { cn } from "~/utils/cn";
import { nextSort, pageCount, tableSearch, type TableParams } from "./params";

declare module "@tanstack/react-table" {
  // Type parameters must match TanStack's declaration to merge, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for this column's header and body cells, e.g. "w-12 text-right"; cells don't wrap unless given "whitespace-normal". */
    className?: string;
  }
}

export interface DataTableProps<TData> {
  // TValue differs per column, so the array can only be typed loosely (as in TanStack's own examples).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each column has its own value type
  columns: ColumnDef<TData, any>[];
  /** The rows of the current page only. */
  data: TData[];
  /** Row count across all pages. */
  total: number;
  /** What the loader used (from `parseTableParams`), so headers and pager show the real state. */
  params: Pick<TableParams, "page" | "pageSize" | "sort">;
  /** Accessible name of the table (rendered as a visually hidden caption). */
  caption: string;
  /** Stable row keys (e.g. `(u) => u.id`); defaults to the row index. */
  getRowId?: (row: TData) => string;
  /** Makes rows clickable and focusable (Enter opens). Clicks on links or buttons inside a row are left to them. */
  onRowClick?: (row: TData) => void;
  /**
   * For rows that already hold a link to the same place (the icon column): a click anywhere on the row
   * opens it, while the keyboard keeps using that link, so no focusable row wraps focusable cells.
   */
  rowHref?: (row: TData) => string;
  /** Shown instead of rows when the page is empty. */
  emptyState?: ReactNode;
  paginationLabels?: Partial<PaginationLabels>;
  /** Below 768 px, the rows as a list of these cards instead of the table (a log too wide for a phone). */
  renderCard?: (row: TData) => ReactNode;
  className?: string;
}

export function DataTable<TData>({
  columns,
  data,
  total,
  params,
  caption,
  getRowId,
  onRowClick,
  rowHref,
  emptyState = "No results.",
  paginationLabels,
  renderCard,
  className,
}: DataTableProps<TData>) {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  // Dim the rows while this same page reloads (sort, page or filter change, or a submission).
  const pending = navigation.state !== "idle" && navigation.location?.pathname === location.pathname;
  const navigate = useNavigate();

  const table = useReactTable({
    data,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: getRowId ? (row) => getRowId(row) : undefined,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    rowCount: total,
    pageCount: pageCount(total, params.pageSize),
    defaultColumn: { enableSorting: false },
    state: {
      sorting: [{ id: params.sort.key, desc: params.sort.desc }],
      pagination: { pageIndex: params.page - 1, pageSize: params.pageSize },
    },
  });

  const hrefFor = (search: string) => ({ pathname: location.pathname, search });
  const rows = table.getRowModel().rows;
  const scroll = useKeyboardScroll<HTMLDivElement>();

  return (
    // min-w-0 lets the table scroll inside its own box instead of widening a grid or flex parent;
    // `relative` keeps absolutely positioned sr-only text inside that box.
    <div className={cn("grid min-w-0 gap-3", className)}>
      {renderCard && (
        <ul className={cn("grid gap-2 transition-opacity md:hidden", pending && "opacity-60")} aria-label={caption} aria-busy={pending || undefined}>
          {rows.length === 0 ? (
            <li className="rounded-lg border bg-card p-4 text-center text-muted-foreground">{emptyState}</li>
          ) : (
            rows.map((row) => (
              <li key={row.id} className="rounded-lg border bg-card p-3">
                {renderCard(row.original)}
              </li>
            ))
          )}
        </ul>
      )}
      <div
        {...scroll}
        className={cn(
          "relative min-w-0 overflow-x-auto rounded-lg border bg-card focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
          renderCard && "max-md:hidden",
        )}
        aria-busy={pending || undefined}
      >
        <table className={cn("w-full caption-bottom text-sm transition-opacity", pending && "opacity-60")}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-muted/60">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id} className="border-b">
                {group.headers.map((header) => (
                  <HeaderCell key={header.id} header={header} href={hrefFor(tableSearch(searchParams, { sort: nextSort(params.sort, header.column.id) }))} />
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={table.getVisibleLeafColumns().length} className="p-4 text-center text-muted-foreground">
                  {emptyState}
                </td>
              </tr>
            ) : (
              rows.map((row) => <BodyRow<TData> key={row.id} row={row} onRowClick={onRowClick} onRowPointer={rowHref && ((r: TData) => navigate(rowHref(r)))} />)
            )}
          </tbody>
        </table>
      </div>
      <Pagination
        page={params.page}
        pageSize={params.pageSize}
        total={total}
        hrefForPage={(page) => {
          const { pathname, search } = hrefFor(tableSearch(searchParams, { page }));
          return pathname + search;
        }}
        labels={paginationLabels}
      />
    </div>
  );
}

function HeaderCell<TData>({ header, href }: { header: Header<TData, unknown>; href: { pathname: string; search: string } }) {
  const { column } = header;
  const content = header.isPlaceholder ? null : flexRender(column.columnDef.header, header.getContext());
  const sorted = column.getIsSorted();
  const canSort = column.getCanSort();

  return (
    <th
      scope="col"
      colSpan={header.colSpan}
      aria-sort={canSort && sorted ? (sorted === "desc" ? "descending" : "ascending") : undefined}
      className={cn("h-10 px-3 text-left align-middle font-medium whitespace-nowrap text-muted-foreground", column.columnDef.meta?.className)}
    >
      {canSort ? (
        <Link
          to={href}
          preventScrollReset
          className="-mx-1.5 inline-flex items-center gap-1 rounded-sm px-1.5 py-1 hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {content}
          {sorted === "asc" ? (
            <ChevronUpIcon className="size-3.5 text-foreground" />
          ) : sorted === "desc" ? (
            <ChevronDownIcon className="size-3.5 text-foreground" />
          ) : (
            <ChevronsUpDownIcon className="size-3.5 opacity-50" />
          )}
        </Link>
      ) : (
        content
      )}
    </th>
  );
}

const interactiveSelector = "a, button, input, select, textarea, label, [role='button'], [role='checkbox'], [role='switch']";

/** True when the event started on a control inside the row, which handles it itself. */
function startedOnControl(event: MouseEvent<HTMLElement> | KeyboardEvent<HTMLElement>): boolean {
  const target = event.target as Element;
  // A click in a portal (a row's confirmation dialog) bubbles through React, not through the DOM: not the row's.
  if (!event.currentTarget.contains(target)) return true;
  const control = target.closest(interactiveSelector);
  return control !== null && control !== event.currentTarget && event.currentTarget.contains(control);
}

function BodyRow<TData>({ row, onRowClick, onRowPointer }: { row: Row<TData>; onRowClick?: (row: TData) => void; onRowPointer?: (row: TData) => void }) {
  const clickable = onRowClick !== undefined;
  const open = onRowClick ?? onRowPointer;
  return (
    <tr
      className={cn(
        "border-b transition-colors last:border-b-0 hover:bg-muted/40",
        open && "cursor-pointer",
        clickable && "focus-visible:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
      )}
      tabIndex={clickable ? 0 : undefined}
      onClick={open ? (event) => !startedOnControl(event) && open(row.original) : undefined}
      onKeyDown={
        clickable
          ? (event) => {
              if (event.key === "Enter" && event.target === event.currentTarget) onRowClick(row.original);
            }
          : undefined
      }
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} className={cn("px-3 py-2.5 align-middle whitespace-nowrap", cell.column.columnDef.meta?.className)}>
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </td>
      ))}
    </tr>
  );
}
