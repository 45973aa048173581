import { useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Checkbox } from "~/components/ui/checkbox";
import { ChevronDownIcon } from "~/components/ui/icons";
import { Label } from "~/components/ui/label";

export type ChoosableField = { key: string; label: string; showInList: boolean };

/** The custom fields the users list shows: the `cols` parameter (keys, "-" for none), else those marked "show in list". */
export function chosenFields<T extends ChoosableField>(fields: T[], cols: string | null): T[] {
  if (cols === null) return fields.filter((f) => f.showInList);
  const keys = new Set(cols.split(","));
  return fields.filter((f) => keys.has(f.key));
}

/**
 * The users list's column chooser for custom fields (decision 0095): a disclosure of boxes, one per field;
 * the choice is kept in the address (`cols`), so a link or a reload shows the same columns.
 */
export function ColumnChooser({ fields }: { fields: ChoosableField[] }) {
  const { t } = useTranslation("users");
  const [searchParams, setSearchParams] = useSearchParams();
  if (fields.length === 0) return null;
  const chosen = new Set(chosenFields(fields, searchParams.get("cols")).map((f) => f.key));
  const toggle = (key: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(key);
    else next.delete(key);
    const params = new URLSearchParams(searchParams);
    params.set(
      "cols",
      next.size
        ? fields
            .filter((f) => next.has(f.key))
            .map((f) => f.key)
            .join(",")
        : "-",
    );
    setSearchParams(params, { replace: true, preventScrollReset: true });
  };
  return (
    <details className="group relative">
      <summary className="inline-flex h-9 cursor-pointer list-none items-center gap-2 rounded-md border border-input bg-background px-3 text-sm font-medium shadow-xs hover:bg-accent [&::-webkit-details-marker]:hidden">
        {t("columns", { count: chosen.size })}
        <ChevronDownIcon className="size-4 transition-transform group-open:rotate-180" />
      </summary>
      <div
        role="group"
        aria-label={t("columnsLegend")}
        className="z-20 mt-1 grid w-64 max-w-[calc(100vw-2rem)] gap-2 rounded-md border bg-popover p-3 shadow-md sm:absolute sm:right-0"
      >
        {fields.map((f) => (
          <div key={f.key} className="flex items-center gap-2">
            <Checkbox id={`col-${f.key}`} checked={chosen.has(f.key)} onCheckedChange={(c) => toggle(f.key, c === true)} />
            <Label htmlFor={`col-${f.key}`} className="font-normal">
              {f.label}
            </Label>
          </div>
        ))}
      </div>
    </details>
  );
}
