import { useTranslation } from "react-i18next";
import type { BulkRowResult, BulkUserAction } from "~/schemas/bulk";

const resultKey = (action: BulkUserAction, r: BulkRowResult) =>
  r.outcome === "done" ? `bulk.done.${action}` : r.outcome === "already" ? `bulk.already.${action}` : `bulk.outcome.${r.outcome}`;

/** What a bulk action did to each selected user, e.g. "Ana: key given" (decision 0035). */
export function BulkResults({ action, rows }: { action: BulkUserAction; rows: BulkRowResult[] }) {
  const { t } = useTranslation("users");
  const done = rows.filter((r) => r.outcome === "done").length;
  return (
    <section aria-labelledby="bulk-results-title" className="grid gap-2 rounded-lg border p-3" role="status">
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
