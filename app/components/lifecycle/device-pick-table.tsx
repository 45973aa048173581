import { useSearchParams } from "@remix-run/react";
import { Checkbox } from "~/components/ui/checkbox";
import { Pagination } from "~/components/ui/pagination";

export type PickRow = { id: number; serial: string; front: string; back: string; type: string; status?: string };

type Props = {
  caption: string;
  rows: PickRow[];
  total: number;
  page: number;
  pageSize: number;
  /** The search param that pages this table, so two tables on one screen page independently. */
  pageParam: string;
  columns: { serial: string; type: string; status?: string; select?: string };
  empty: string;
  /** With a selection, rows get checkboxes; without, the table is read-only. */
  selected?: ReadonlySet<number>;
  onToggle?: (ids: number[], on: boolean) => void;
  selectLabel?: (serial: string) => string;
  selectAllLabel?: string;
};

/** A compact, independently paged device table for the transfer screen, with optional multi-select. */
export function DevicePickTable({ caption, rows, total, page, pageSize, pageParam, columns, empty, selected, onToggle, selectLabel, selectAllLabel }: Props) {
  const [search] = useSearchParams();
  const hrefForPage = (p: number) => {
    const next = new URLSearchParams(search);
    next.set(pageParam, String(p));
    return `?${next.toString()}`;
  };
  const selectable = !!selected && !!onToggle;
  const allOn = selectable && rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <div className="grid min-w-0 content-start gap-2">
      {/* Focusable, so a keyboard can scroll it when no row holds a checkbox (the read-only table). */}
      <div
        role="region"
        aria-label={caption}
        tabIndex={0}
        className="max-h-[520px] min-w-0 overflow-auto rounded-lg border bg-card focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <table className="w-full text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-muted">
            <tr className="border-b text-left">
              {selectable && (
                <th className="w-10 p-2">
                  <Checkbox
                    aria-label={selectAllLabel}
                    checked={allOn}
                    onCheckedChange={(on) =>
                      onToggle(
                        rows.map((r) => r.id),
                        on === true,
                      )
                    }
                    disabled={rows.length === 0}
                  />
                </th>
              )}
              <th className="p-2 font-medium">{columns.serial}</th>
              <th className="p-2 font-medium">{columns.type}</th>
              {columns.status && <th className="p-2 font-medium">{columns.status}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={4} className="p-4 text-center text-muted-foreground">
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((r) => (
                <tr key={r.id} className="border-b last:border-0" data-selected={selected?.has(r.id) || undefined}>
                  {selectable && (
                    <td className="p-2">
                      <Checkbox aria-label={selectLabel?.(r.serial)} checked={selected.has(r.id)} onCheckedChange={(on) => onToggle([r.id], on === true)} />
                    </td>
                  )}
                  <td className="p-2 font-mono">
                    {r.serial}
                    {(r.front || r.back) && (
                      <span className="block text-xs text-muted-foreground">
                        {r.front} / {r.back}
                      </span>
                    )}
                  </td>
                  <td className="p-2">{r.type}</td>
                  {columns.status && <td className="p-2">{r.status}</td>}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page} pageSize={pageSize} total={total} hrefForPage={hrefForPage} />
    </div>
  );
}
