import { useTranslation } from "react-i18next";
import { LinkButton } from "~/components/ui/link-button";
import type { BulkRowResult } from "~/schemas/bulk";

/**
 * What adding devices to a group did to each selected device, e.g. "Lab A: added to Night Shift" (decision 0035).
 * The group's own page shows it without the link to itself.
 */
export function DeviceBulkResults({ group, rows, linkToGroup = true }: { group: { id: number; name: string }; rows: BulkRowResult[]; linkToGroup?: boolean }) {
  const { t } = useTranslation("devices");
  const done = rows.filter((r) => r.outcome === "done").length;
  return (
    <section aria-labelledby="bulk-results-title" className="grid gap-2 rounded-lg border p-3" role="status">
      <h2 id="bulk-results-title" className="text-sm font-semibold">
        {t("bulk.resultsTitle", { done, total: rows.length, group: group.name })}
      </h2>
      <ul className="grid max-h-64 gap-1 overflow-y-auto text-sm" data-testid="bulk-results">
        {rows.map((r) => (
          <li key={r.id} className={r.outcome === "done" ? "" : "text-muted-foreground"}>
            {t("bulk.row", { name: r.name ?? t("bulk.unknown", { id: r.id }), result: t(`bulk.outcome.${r.outcome}`, { group: group.name }) })}
          </li>
        ))}
      </ul>
      {linkToGroup && (
        <LinkButton variant="link" size="inline" to={`/modifyDeviceGroup?id=${group.id}`}>
          {t("bulk.openGroup", { group: group.name })}
        </LinkButton>
      )}
    </section>
  );
}
