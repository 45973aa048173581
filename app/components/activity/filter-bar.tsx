import { Form, Link, useSubmit } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { FilterDisclosure } from "~/components/ui/filter-disclosure";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { canApplyFilter, OPERATION_TYPES } from "~/schemas/activity";

/** The fields behind the phone's "Filters (n)" button, counted on it when set. */
const FIELDS = ["filterFromDate", "filterToDate", "filterFromTime", "filterToTime", "filterOperationType"] as const;

type Values = { filterFromDate: string; filterToDate: string; filterFromTime: string; filterToTime: string };

/**
 * Date and time range, operation type, Filter, Remove filter and Download report
 * (docs/ARCHITECTURE.md §7.1, §7.2). A GET form, so the filter lives in the URL; the id/type filter of a clicked cell and
 * the sort ride along as hidden fields. Remount it (key) when the URL changes. On phones the fields fold
 * behind a "Filters (n)" button, so the log starts on the first screen.
 */
export function FilterBar({
  current,
  anyFilter,
  reportHref,
  archivedBefore,
}: {
  /** The filter params in the URL now. */
  current: Record<string, string | undefined>;
  anyFilter: boolean;
  reportHref: string;
  /** The date (as shown) before which entries are in the archive, reached by dates; none while nothing is archived. */
  archivedBefore: string | null;
}) {
  const { t } = useTranslation("activity");
  const submit = useSubmit();
  const [values, setValues] = useState<Values>({
    filterFromDate: current.filterFromDate ?? "",
    filterToDate: current.filterToDate ?? "",
    filterFromTime: current.filterFromTime ?? "",
    filterToTime: current.filterToTime ?? "",
  });
  const set = (key: keyof Values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const chosen = FIELDS.filter((k) => current[k] && !(k === "filterOperationType" && current[k] === "All")).length;
  const hidden = (["id", "type", "additionalFilter", "sort"] as const).filter((k) => current[k]);

  return (
    <Form
      method="get"
      className="grid gap-3 rounded-lg border bg-card p-4"
      aria-label={t("filters")}
      onSubmit={(e) => {
        // Empty fields stay out of the URL.
        e.preventDefault();
        const next = new URLSearchParams();
        for (const [k, v] of new FormData(e.currentTarget)) if (typeof v === "string" && v && !(k === "filterOperationType" && v === "All")) next.set(k, v);
        submit(next, { method: "get", preventScrollReset: true });
      }}
    >
      <FilterDisclosure active={chosen} panelClassName="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        {/* With the date fields it is about (folded with them on phones). */}
        {archivedBefore && (
          <p className="text-sm text-muted-foreground sm:col-span-2 lg:col-span-5" data-testid="hot-window">
            {t("archivedBefore", { date: archivedBefore })}
          </p>
        )}
        <Field label={t("fromDate")}>
          <Input type="date" name="filterFromDate" value={values.filterFromDate} onChange={set("filterFromDate")} max={values.filterToDate || undefined} />
        </Field>
        <Field label={t("toDate")}>
          <Input type="date" name="filterToDate" value={values.filterToDate} onChange={set("filterToDate")} min={values.filterFromDate || undefined} />
        </Field>
        <Field label={t("fromTime")}>
          <Input type="time" name="filterFromTime" value={values.filterFromTime} onChange={set("filterFromTime")} />
        </Field>
        <Field label={t("toTime")}>
          <Input type="time" name="filterToTime" value={values.filterToTime} onChange={set("filterToTime")} />
        </Field>
        <Field label={t("operationType")}>
          {/* Changing the type applies at once, with the filter already in the URL. */}
          <NativeSelect
            name="filterOperationType"
            defaultValue={current.filterOperationType ?? "All"}
            onChange={(e) => {
              const next = new URLSearchParams(Object.entries(current).filter((kv): kv is [string, string] => !!kv[1]));
              if (e.target.value === "All") next.delete("filterOperationType");
              else next.set("filterOperationType", e.target.value);
              submit(next, { method: "get", preventScrollReset: true });
            }}
            options={OPERATION_TYPES.map((op) => ({ value: op, label: t(`op.${op}`) }))}
          />
        </Field>
      </FilterDisclosure>
      {hidden.map((k) => (
        <input key={k} type="hidden" name={k} value={current[k]} />
      ))}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={!canApplyFilter(values)}>
          {t("filter")}
        </Button>
        {anyFilter ? (
          <Button asChild variant="outline">
            <Link to="/activity">{t("removeFilter")}</Link>
          </Button>
        ) : (
          <Button type="button" variant="outline" disabled>
            {t("removeFilter")}
          </Button>
        )}
        <Button asChild variant="secondary" className="sm:ml-auto">
          <a href={reportHref} download="activity_report.csv">
            {t("download")}
          </a>
        </Button>
      </div>
    </Form>
  );
}
