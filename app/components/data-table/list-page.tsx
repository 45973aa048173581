import type { ReactNode } from "react";
import { EmptyState } from "~/components/ui/empty-state";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { cn } from "~/utils/cn";
import { DataTable, type DataTableProps } from "./data-table";

export interface ListPageProps<TData extends { id: number | string }> extends Omit<DataTableProps<TData>, "caption" | "emptyState" | "className" | "data" | "total" | "params"> {
  /** The loader's page, as `tablePage(...)` returns it: this page's rows, the total and the table params. */
  page: { rows: TData[]; total: number; params: DataTableProps<TData>["params"] };
  /** The page's `<h1>`, and the table's caption unless `caption` is given. */
  title: string;
  description?: ReactNode;
  caption?: string;
  /** Header links before the add button (e.g. "Assign role"). */
  actions?: ReactNode;
  /** The way back (e.g. to the parent list), an outline button after the others. */
  back?: { to: string; label: string } | false;
  /** The header's primary button; leave it out (or `false`) without the add right. */
  add?: { to: string; label: string } | false;
  /** What an empty page says, and an optional hint below it. */
  empty: ReactNode;
  emptyHint?: ReactNode;
  /** Filters, bulk bars and their results: between the header and the table. */
  children?: ReactNode;
  className?: string;
}

/**
 * A list screen: header with its add button, whatever filters the page has, and the server-paged
 * `DataTable` with its empty state. Rows are keyed by their `id`. The loader returns
 * `tablePage(...)` (`{rows, total, params}`); the columns live in `components/<feature>/columns.tsx`.
 */
export function ListPage<TData extends { id: number | string }>({
  title,
  description,
  caption,
  actions,
  back,
  add,
  empty,
  emptyHint,
  children,
  className,
  getRowId = (row) => String(row.id),
  page,
  ...table
}: ListPageProps<TData>) {
  const headerActions =
    actions || add ? (
      <>
        {actions}
        {add && <LinkButton to={add.to}>{add.label}</LinkButton>}
      </>
    ) : undefined;
  return (
    <div className={cn("grid gap-4", className)}>
      <PageHeader title={title} description={description} actions={headerActions} back={back || undefined} />
      {children}
      <DataTable
        {...table}
        data={page.rows}
        total={page.total}
        params={page.params}
        caption={caption ?? title}
        getRowId={getRowId}
        emptyState={<EmptyState title={empty} description={emptyHint} />}
      />
    </div>
  );
}
