import { Form, useSearchParams, useSubmit } from "@remix-run/react";
import { LinkButton } from "~/components/ui/link-button";
import type { TFunction } from "i18next";
import { Button } from "~/components/ui/button";
import { FiltersToggle, useFilterDisclosure } from "~/components/ui/filter-disclosure";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { DEVICE_FILTER_KEYS, type DeviceFilters } from "~/schemas/device-filters";

type Option = { id: number; name: string };

/**
 * The /devices filters as a GET form: the URL holds them (with the sort), a choice applies at once,
 * the search applies on Enter or the button. Changing a filter goes back to page 1. On phones the
 * choices fold behind a "Filters (n)" button (the search stays in view), so the list starts on the first screen.
 */
export function DeviceFilterBar({ t, filters, groups, types }: { t: TFunction; filters: DeviceFilters; groups: Option[]; types: Option[] }) {
  const [searchParams] = useSearchParams();
  const submit = useSubmit();
  const sort = searchParams.get("sort");
  const pageSize = searchParams.get("pageSize");
  const active = DEVICE_FILTER_KEYS.some((k) => filters[k] !== undefined);
  const disclosure = useFilterDisclosure();
  const select = (name: keyof DeviceFilters, choices: [string, string][]) => (
    <div className={`grid gap-1 ${disclosure.folded}`}>
      <Label htmlFor={`filter-${name}`}>{t(`filter.${name}`)}</Label>
      <NativeSelect
        id={`filter-${name}`}
        name={name}
        defaultValue={filters[name] === undefined ? "" : String(filters[name])}
        onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
      >
        <option value="">{t("filter.any")}</option>
        {choices.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
  return (
    <Form
      id={disclosure.panelId}
      method="get"
      role="search"
      aria-label={t("filter.label")}
      className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-8"
      key={searchParams.toString()}
    >
      {sort && <input type="hidden" name="sort" value={sort} />}
      {pageSize && <input type="hidden" name="pageSize" value={pageSize} />}
      <div className="grid gap-1 sm:col-span-2">
        <Label htmlFor="filter-q">{t("filter.q")}</Label>
        <div className="flex gap-2">
          <Input id="filter-q" name="q" type="search" maxLength={100} defaultValue={filters.q ?? ""} placeholder={t("filter.qPlaceholder")} />
          <Button type="submit" variant="outline">
            {t("filter.search")}
          </Button>
        </div>
      </div>
      <FiltersToggle disclosure={disclosure} active={DEVICE_FILTER_KEYS.filter((k) => k !== "q" && filters[k] !== undefined).length} />
      {select(
        "type",
        types.map((x) => [String(x.id), x.name]),
      )}
      {select(
        "group",
        groups.map((x) => [String(x.id), x.name]),
      )}
      {select("online", [
        ["1", t("online.yes")],
        ["0", t("online.no")],
        ["never", t("online.never")],
      ])}
      {select("battery", [
        ["low", t("details.batteryLow")],
        ["ok", t("details.batteryGood")],
      ])}
      {select("door", [
        ["open", t("door.open")],
        ["closed", t("door.closed")],
      ])}
      {select("firmware", [["pending", t("firmware.pending")]])}
      {filters.schedule && <input type="hidden" name="schedule" value={filters.schedule} />}
      {active && (
        <div className="flex flex-wrap items-center gap-2 sm:col-span-2 lg:col-span-4 xl:col-span-8">
          {filters.schedule && <span className="text-sm text-muted-foreground">{t("filter.scheduleOpen")}</span>}
          <LinkButton variant="link" size="inline" to={sort ? `?sort=${encodeURIComponent(sort)}` : "?"}>
            {t("filter.clear")}
          </LinkButton>
        </div>
      )}
    </Form>
  );
}
