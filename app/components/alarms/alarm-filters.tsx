import { Form, useSearchParams, useSubmit } from "@remix-run/react";
import type { TFunction } from "i18next";
import { FiltersToggle, useFilterDisclosure } from "~/components/ui/filter-disclosure";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { LinkButton } from "~/components/ui/link-button";
import { NativeSelect } from "~/components/ui/native-select";
import { ALARM_FILTER_KEYS, ALARM_KINDS, ALARM_STATES, type AlarmFilters } from "~/schemas/door-alarms";

/** The /doorAlarms filters as a GET form, like the devices list's: the URL holds them, a choice applies at once. */
export function AlarmFilterBar({ t, filters, doors }: { t: TFunction; filters: AlarmFilters; doors: { id: number; name: string }[] }) {
  const [searchParams] = useSearchParams();
  const submit = useSubmit();
  const sort = searchParams.get("sort");
  const disclosure = useFilterDisclosure();
  const active = ALARM_FILTER_KEYS.filter((k) => filters[k] !== undefined).length;
  const apply = (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => submit(e.currentTarget.form, { preventScrollReset: true });
  const select = (name: "state" | "kind" | "door", choices: [string, string][]) => (
    <div className={`grid gap-1 ${disclosure.folded}`}>
      <Label htmlFor={`filter-${name}`}>{t(`filter.${name}`)}</Label>
      <NativeSelect id={`filter-${name}`} name={name} defaultValue={filters[name] === undefined ? "" : String(filters[name])} onChange={apply}>
        <option value="">{t("filter.any")}</option>
        {choices.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
  const day = (name: "from" | "to") => (
    <div className={`grid gap-1 ${disclosure.folded}`}>
      <Label htmlFor={`filter-${name}`}>{t(`filter.${name}`)}</Label>
      <Input id={`filter-${name}`} name={name} type="date" defaultValue={filters[name] ?? ""} onChange={apply} />
    </div>
  );
  return (
    <Form
      id={disclosure.panelId}
      method="get"
      role="search"
      aria-label={t("filter.label")}
      className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-6"
      key={searchParams.toString()}
    >
      {sort && <input type="hidden" name="sort" value={sort} />}
      <FiltersToggle disclosure={disclosure} active={active} />
      {select(
        "state",
        ALARM_STATES.map((s) => [s, t(`state.${s}`)]),
      )}
      {select(
        "kind",
        ALARM_KINDS.map((k) => [k, t(`kind.${k}`)]),
      )}
      {select(
        "door",
        doors.map((d) => [String(d.id), d.name]),
      )}
      {day("from")}
      {day("to")}
      {active > 0 && (
        <div className="flex items-center">
          <LinkButton variant="link" size="inline" to={sort ? `?sort=${encodeURIComponent(sort)}` : "?"}>
            {t("filter.clear")}
          </LinkButton>
        </div>
      )}
    </Form>
  );
}
