import { Form, useSearchParams, useSubmit } from "@remix-run/react";
import type { TFunction } from "i18next";
import { Button } from "~/components/ui/button";
import { FiltersToggle, useFilterDisclosure } from "~/components/ui/filter-disclosure";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { LinkButton } from "~/components/ui/link-button";
import { NativeSelect } from "~/components/ui/native-select";
import { FLEET_FILTER_KEYS, FLEET_SEARCH_MAX, FLEET_TROUBLES, type FleetFilters } from "~/schemas/fleet";

/**
 * The fleet views' filters as a GET form, like the door alarms': a trouble (applies at once) and a search
 * (a company's name or code, or a board's name or serial). `keep` carries the params the view needs (the company).
 */
export function FleetFilterBar({ t, filters, keep = {} }: { t: TFunction; filters: FleetFilters; keep?: Record<string, string> }) {
  const [searchParams] = useSearchParams();
  const submit = useSubmit();
  const sort = searchParams.get("sort");
  const disclosure = useFilterDisclosure();
  const active = FLEET_FILTER_KEYS.filter((k) => filters[k] !== undefined).length;
  const cleared = new URLSearchParams({ ...keep, ...(sort ? { sort } : {}) });
  return (
    <Form
      id={disclosure.panelId}
      method="get"
      role="search"
      aria-label={t("filter.label")}
      className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-4"
      key={searchParams.toString()}
    >
      {Object.entries(keep).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {sort && <input type="hidden" name="sort" value={sort} />}
      <FiltersToggle disclosure={disclosure} active={active} />
      <div className={`grid gap-1 ${disclosure.folded}`}>
        <Label htmlFor="filter-trouble">{t("filter.trouble")}</Label>
        <NativeSelect id="filter-trouble" name="trouble" defaultValue={filters.trouble ?? ""} onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}>
          <option value="">{t("filter.any")}</option>
          {FLEET_TROUBLES.map((x) => (
            <option key={x} value={x}>
              {t(`trouble.${x}`)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className={`grid gap-1 ${disclosure.folded}`}>
        <Label htmlFor="filter-q">{t(keep.company ? "filter.searchBoards" : "filter.searchCompanies")}</Label>
        <Input id="filter-q" name="q" type="search" defaultValue={filters.q ?? ""} maxLength={FLEET_SEARCH_MAX} autoComplete="off" />
      </div>
      <div className={`flex items-center gap-3 ${disclosure.folded}`}>
        <Button type="submit" variant="outline">
          {t("filter.apply")}
        </Button>
        {active > 0 && (
          <LinkButton variant="link" size="inline" to={`?${cleared}`}>
            {t("filter.clear")}
          </LinkButton>
        )}
      </div>
    </Form>
  );
}
