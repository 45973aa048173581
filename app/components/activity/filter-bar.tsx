import { Form, Link, useSubmit } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { FilterDisclosure } from "~/components/ui/filter-disclosure";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { TimeInput } from "~/components/ui/time-input";
import { SearchPicker, type PickerOption, type PickerSource } from "~/components/ui/search-picker";
import { fold, matchesText } from "~/components/ui/search-picker-state";
import { OPERATION_TYPES, type UrlFilter } from "~/schemas/activity";

/** The fields behind the phone's "Filters (n)" button, counted on it when set. */
const FOLDED = ["person", "door", "filterFromDate", "filterToDate", "filterFromTime", "filterToTime", "filterOperationType"] as const;

type Named = { id: number; name: string } | null;

/** The answer of resources.activity-options. */
type ActivityOptions = { options: { value: string; name: string; detail: string | null }[] };

/**
 * A picker's entries from resources.activity-options: people and doors searched on the server, the
 * (short) list of event types asked for once and matched by the shown or the catalogue name.
 */
function activitySource(kind: "event" | "person" | "door", label: (name: string) => string = (n) => n): PickerSource {
  return {
    url: `/resources/activity-options?kind=${kind}`,
    once: kind === "event",
    read: (body) => (body as ActivityOptions).options.map((o) => ({ value: o.value, label: label(o.name), detail: o.detail })),
    match: (o, q) => matchesText(o, q) || fold(o.value).includes(fold(q.trim())),
  };
}

/**
 * Text search, event types, person, door, dates, times and trigger, then Filter, Remove filter and
 * Download report (docs/ARCHITECTURE.md §7.1, §7.2). A GET form, so the filter lives in the URL (empty
 * fields stay out of it); the id/type filter of a /users or /devices link and the sort ride along as
 * hidden fields. Any one field is enough to filter. Remount it (key) when the URL changes. On phones
 * everything but the search folds behind a "Filters (n)" button, so the log starts on the first screen.
 */
export function FilterBar({
  current,
  anyFilter,
  reportHref,
  archivedBefore,
  picked,
}: {
  /** The filter in the URL now, with the sort. */
  current: UrlFilter & { sort?: string };
  anyFilter: boolean;
  reportHref: string;
  /** The date (as shown) before which entries are in the archive, reached by dates; none while nothing is archived. */
  archivedBefore: string | null;
  /** The chosen person's and door's names. */
  picked: { person: Named; door: Named };
}) {
  const { t } = useTranslation("activity");
  const submit = useSubmit();
  const eventLabel = (name: string) => t(`name.${name}`, { defaultValue: name });
  const eventOption = (name: string): PickerOption => ({ value: name, label: eventLabel(name) });
  const [events, setEvents] = useState<PickerOption[]>(() => (current.events ?? []).map(eventOption));
  const named = (n: Named, id: string | undefined): PickerOption[] => (id ? [{ value: id, label: n?.name ?? `#${id}` }] : []);
  const [person, setPerson] = useState(() => named(picked.person, current.person));
  const [door, setDoor] = useState(() => named(picked.door, current.door));
  const [times, setTimes] = useState({ from: current.filterFromTime ?? "", to: current.filterToTime ?? "" });
  const chosen = FOLDED.filter((k) => current[k] && !(k === "filterOperationType" && current[k] === "All")).length + (current.events?.length ? 1 : 0);
  const hidden = (["id", "type", "sort"] as const).filter((k) => current[k]);
  const texts = (placeholder: string, list: string) => ({ placeholder, list, noMatch: t("noMatch"), remove: (label: string) => t("removeChoice", { name: label }) });

  return (
    <Form
      method="get"
      className="grid gap-3 rounded-lg border bg-card p-4"
      aria-label={t("filters")}
      onSubmit={(e) => {
        e.preventDefault();
        const next = new URLSearchParams();
        for (const [k, v] of new FormData(e.currentTarget)) if (typeof v === "string" && v.trim() && !(k === "filterOperationType" && v === "All")) next.append(k, v.trim());
        submit(next, { method: "get", preventScrollReset: true });
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t("search")} className="lg:col-span-2">
          <Input type="search" name="q" defaultValue={current.q ?? ""} placeholder={t("searchPlaceholder")} maxLength={100} />
        </Field>
        <FilterDisclosure active={chosen} className="sm:col-span-2" panelClassName="contents">
          <Field label={t("eventType")} className="lg:col-span-2">
            <SearchPicker name="event" multiple value={events} onChange={setEvents} source={activitySource("event", eventLabel)} texts={texts(t("eventTypeAny"), t("eventType"))} />
          </Field>
          <Field label={t("person")}>
            <SearchPicker name="person" clearable value={person} onChange={setPerson} source={activitySource("person")} texts={texts(t("anyone"), t("person"))} />
          </Field>
          <Field label={t("door")}>
            <SearchPicker name="door" clearable value={door} onChange={setDoor} source={activitySource("door")} texts={texts(t("anyDoor"), t("door"))} />
          </Field>
          {/* With the date fields it is about (folded with them on phones). */}
          {archivedBefore && (
            <p className="text-sm text-muted-foreground sm:col-span-2 lg:col-span-4" data-testid="hot-window">
              {t("archivedBefore", { date: archivedBefore })}
            </p>
          )}
          <Field label={t("fromDate")} hint={t("fromDateHint")}>
            <Input type="date" name="filterFromDate" defaultValue={current.filterFromDate ?? ""} />
          </Field>
          <Field label={t("toDate")} hint={t("toDateHint")}>
            <Input type="date" name="filterToDate" defaultValue={current.filterToDate ?? ""} />
          </Field>
          <Field label={t("fromTime")}>
            <TimeInput name="filterFromTime" value={times.from} onValueChange={(from) => setTimes((x) => ({ ...x, from }))} />
          </Field>
          <Field label={t("toTime")}>
            <TimeInput name="filterToTime" value={times.to} onValueChange={(to) => setTimes((x) => ({ ...x, to }))} />
          </Field>
          <Field label={t("operationType")}>
            <NativeSelect
              name="filterOperationType"
              defaultValue={current.filterOperationType ?? "All"}
              options={OPERATION_TYPES.map((op) => ({ value: op, label: t(`op.${op}`) }))}
            />
          </Field>
        </FilterDisclosure>
      </div>
      {hidden.map((k) => (
        <input key={k} type="hidden" name={k} value={current[k]} />
      ))}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit">{t("filter")}</Button>
        {anyFilter ? (
          <Button asChild variant="outline">
            <Link to="/activity">{t("removeFilter")}</Link>
          </Button>
        ) : (
          <Button type="button" variant="outline" disabled title={t("nothingToRemove")}>
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
