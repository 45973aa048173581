import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { ReactNode } from "react";

/**
 * The grids' leading icon cell that opens a row's page (modify or details), named for the row.
 * Where `href` gives null (no right to open), the icon shows alone.
 */
export function openColumn<T>(o: { header: string; icon: ReactNode; href: (row: T) => string | null; label: (row: T) => string }): ColumnDef<T> {
  return {
    id: "icon",
    header: () => <span className="sr-only">{o.header}</span>,
    meta: { className: "w-10" },
    cell: ({ row }) => {
      const href = o.href(row.original);
      return href ? (
        <Link to={href} aria-label={o.label(row.original)} className="text-muted-foreground hover:text-foreground">
          {o.icon}
        </Link>
      ) : (
        <span className="text-muted-foreground">{o.icon}</span>
      );
    },
  };
}
