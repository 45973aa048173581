import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { translateMessage } from "~/i18n/messages";
import type { ImportCounts, ImportRow } from "~/schemas/user-import";
import { cn } from "~/utils/cn";

/** A row's message in the reader's language: the import's own texts, else the user form's (the rows are checked with its schema). */
export function importMessage(t: TFunction, message: string): string {
  const own = translateMessage(t, message, "userImport");
  if (own !== message) return own;
  // "Text: name": a group key's message names the group after the text.
  const named = /^(.+?): (.+)$/s.exec(message);
  if (named) {
    const text = translateMessage(t, named[1], "userImport");
    if (text !== named[1]) return `${text}: ${named[2]}`;
  }
  return translateMessage(t, message, "users");
}

const COUNT_KEYS = ["create", "change", "unchanged", "refuse"] as const;

/** The four counts of a preview or of a finished import. */
export function ImportCounts({ counts }: { counts: ImportCounts }) {
  const { t } = useTranslation("userImport");
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="import-counts">
      {COUNT_KEYS.map((k) => (
        <div key={k} className="rounded-lg border bg-card p-3" data-outcome={k}>
          <dt className="text-xs text-muted-foreground">{t(`count.${k}`)}</dt>
          <dd className={cn("text-2xl font-semibold tabular-nums", k === "refuse" && counts.refuse > 0 && "text-destructive")}>{counts[k].toLocaleString()}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What each listed row will do: refused rows first, with every reason on its column. */
export function ImportPreviewTable({ rows, total }: { rows: ImportRow[]; total: number }) {
  const { t } = useTranslation(["userImport", "users"]);
  const result = (r: ImportRow) => {
    if (r.outcome === "create") return t("outcome.create");
    if (r.outcome === "change") return t("outcome.change", { columns: (r.changes ?? []).join(", ") });
    return (r.errors ?? []).map((e) => (e.column ? t("error", { column: e.column, message: importMessage(t, e.message) }) : importMessage(t, e.message))).join(" · ");
  };
  return (
    <div className="grid gap-2">
      {rows.length < total && <p className="text-sm text-muted-foreground">{t("shownOf", { shown: rows.length, total })}</p>}
      {/* On a phone, a card a row: a table's four columns would break the e-mails letter by letter. */}
      <ul className="grid gap-2 sm:hidden" data-testid="import-preview-cards">
        {rows.map((r) => (
          <li key={r.line} data-outcome={r.outcome} className="grid gap-1 rounded-lg border bg-card p-3 text-sm">
            <div className="flex justify-between gap-2">
              <span className="font-medium break-words">{r.name}</span>
              <span className="shrink-0 text-muted-foreground tabular-nums">
                {t("col.line")} {r.line}
              </span>
            </div>
            <span className="break-words text-muted-foreground">{r.email}</span>
            <span className={cn(r.outcome === "refuse" && "text-destructive")}>
              {r.outcome === "refuse" && <span className="font-medium">{t("outcome.refuse")}: </span>}
              {result(r)}
            </span>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border bg-card sm:block">
        <Table data-testid="import-preview">
          <TableCaption className="sr-only">{t("previewTitle")}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead numeric>{t("col.line")}</TableHead>
              <TableHead>{t("col.name")}</TableHead>
              <TableHead>{t("col.email")}</TableHead>
              <TableHead>{t("col.result")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.line} data-outcome={r.outcome}>
                <TableCell numeric>{r.line}</TableCell>
                <TableCell className="break-words">{r.name}</TableCell>
                <TableCell className="break-words">{r.email}</TableCell>
                <TableCell className={cn("min-w-48", r.outcome === "refuse" && "text-destructive")}>
                  {r.outcome === "refuse" && <span className="font-medium">{t("outcome.refuse")}: </span>}
                  {result(r)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
