import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { BulkRowResult, BulkUserAction } from "~/schemas/bulk";

/** The locale key of a row's result: the action's own wording when done or already so, else the outcome (or the refusal's rule). */
function resultKey(action: BulkUserAction, r: BulkRowResult): string {
  if (r.outcome === "done" || r.outcome === "already") return `bulk.${r.outcome}.${action}`;
  if (r.outcome === "refused" && r.reason) return `bulk.refused.${r.reason}`;
  return `bulk.outcome.${r.outcome}`;
}

/**
 * What a bulk action did to each selected user, e.g. "Ana: key given" (decision 0035). It takes the
 * focus when a result arrives: the bulk bar that had it disappears with the cleared selection.
 */
export function BulkResults({ action, rows }: { action: BulkUserAction; rows: BulkRowResult[] }) {
  const { t } = useTranslation("users");
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [rows]);
  const done = rows.filter((r) => r.outcome === "done").length;
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="bulk-results-title"
      className="grid gap-2 rounded-lg border p-3 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      role="status"
      data-testid="bulk-results-section"
    >
      <h2 id="bulk-results-title" className="text-sm font-semibold">
        {t("bulk.resultsTitle", { done, total: rows.length })}
      </h2>
      <ul className="grid max-h-64 gap-1 overflow-y-auto text-sm" data-testid="bulk-results">
        {rows.map((r) => (
          <li key={r.id} className={r.outcome === "done" ? "" : "text-muted-foreground"}>
            {t("bulk.row", { name: r.name ?? t("bulk.unknown", { id: r.id }), result: t(resultKey(action, r)) })}
          </li>
        ))}
      </ul>
    </section>
  );
}
