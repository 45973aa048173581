import { useTranslation } from "react-i18next";
import { EmptyState } from "~/components/ui/empty-state";
import type { HistoryRow } from "./phone-store";
import { phoneTime } from "./phone-time";

/** The caller's own activity, newest first, as last fetched. */
export function HistoryList({ rows }: { rows: HistoryRow[] }) {
  const { t, i18n } = useTranslation("mobile");
  if (rows.length === 0) return <EmptyState title={t("historyEmpty")} />;
  return (
    <ul className="divide-y rounded-lg border bg-card">
      {rows.map((r) => (
        <li key={r.id} className="p-3 text-sm">
          <p className="font-medium">{t(`activity.${r.name}`, { defaultValue: r.name })}</p>
          <p className="text-muted-foreground">{r.summary}</p>
          <p className="text-xs text-muted-foreground">
            <time dateTime={new Date(r.at).toISOString()}>{phoneTime(r.at, i18n.language)}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}
