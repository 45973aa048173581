import { Form, Link, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { namedOptions, SelectField } from "~/components/select-field";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { FilterDisclosure } from "~/components/ui/filter-disclosure";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Switch } from "~/components/ui/switch";
import { CUSTOM_FIELD_LIMITS, FIELD_NOT_SET, fieldFilterName, offersNotSet, type CustomFieldType } from "~/schemas/custom-fields";
import { SEARCH_MAX, USER_FLAGS, type UserFilters } from "~/schemas/search";

type Option = { id: number; fullName: string };
type ChoiceField = { key: string; label: string; type: CustomFieldType; choices: string[] };

/**
 * Search and filters of /users, kept in the URL (`q`, `status`, `flag`, `roleId`, `groupId`; the switch sets `hideInactive=0`): a GET form,
 * so the list can be bookmarked and shared; the sort and page size ride along, the page starts over.
 * One select per custom field of type choice (`field.<key>`: a choice, or "-" for none, decision 0095) applies at once;
 * a text, number or date field takes its value in a field of its own.
 * On phones the selects fold behind a "Filters (n)" button (the search and the switch stay), so the list starts on the first screen.
 */
export function UserFilterForm({
  filters,
  fieldFilters,
  fields,
  groups,
  roles,
  searchParams,
}: {
  filters: UserFilters;
  /** The custom field filters the list applied, key → value or "-". */
  fieldFilters: Record<string, string>;
  fields: ChoiceField[];
  groups: Option[];
  roles: { id: number; title: string }[];
  searchParams: URLSearchParams;
}) {
  const { t } = useTranslation("users");
  const keep = ["sort", "pageSize", "status", "hideInactive", "cols"].filter((k) => searchParams.has(k));
  const submit = useSubmit();
  const any = t("search.any");
  const flagOptions = USER_FLAGS.map((f) => ({ value: f, label: t(`search.flags.${f}`) }));
  const roleOptions = roles.map((r) => ({ value: r.id, label: r.title }));
  const groupOptions = namedOptions(groups);
  const choiceFields = fields.filter((f) => f.type === "choice");
  const valueFields = fields.filter((f) => f.type !== "choice");
  const chosen = [filters.flag, filters.roleId, filters.groupId].filter((v) => v !== undefined).length + Object.keys(fieldFilters).length;
  // The spec's 'Hide inactive' switch (on by default) applies at once; off lists every status.
  const toggleInactive = (hide: boolean) => {
    const next = new URLSearchParams(searchParams);
    next.delete("page");
    next.delete("status");
    if (hide) next.delete("hideInactive");
    else next.set("hideInactive", "0");
    submit(next, { method: "get", preventScrollReset: true });
  };
  return (
    <Form method="get" role="search" aria-label={t("search.label")} className="flex flex-wrap items-end gap-3">
      {keep.map((k) => (
        <input key={k} type="hidden" name={k} value={searchParams.get(k) ?? ""} />
      ))}
      <Field label={t("search.q")} id="user-q" className="min-w-56 flex-1">
        <Input id="user-q" type="search" name="q" defaultValue={filters.q} maxLength={SEARCH_MAX} placeholder={t("search.placeholder")} />
      </Field>
      <div className="flex h-9 items-center gap-2 self-end">
        <Switch id="hideInactive" checked={filters.status === "active"} onCheckedChange={toggleInactive} />
        <Label htmlFor="hideInactive">{t("hideInactive")}</Label>
      </div>
      <FilterDisclosure active={chosen} className="self-end" panelClassName="contents">
        <SelectField id="user-flag" label={t("search.flag")} className="w-full sm:w-48" name="flag" defaultValue={filters.flag ?? ""} blank={any} options={flagOptions} />
        {roles.length > 0 && (
          <SelectField id="user-role" label={t("search.role")} className="w-full sm:w-44" name="roleId" defaultValue={filters.roleId ?? ""} blank={any} options={roleOptions} />
        )}
        <SelectField id="user-group" label={t("search.group")} className="w-full sm:w-48" name="groupId" defaultValue={filters.groupId ?? ""} blank={any} options={groupOptions} />
        {choiceFields.map((f) => (
          <SelectField
            // Remounted when the applied value changes (a reset, back), since the value is only its default.
            key={`${f.key}=${fieldFilters[f.key] ?? ""}`}
            id={`user-field-${f.key}`}
            label={f.label}
            className="w-full sm:w-44"
            name={fieldFilterName(f.key)}
            defaultValue={fieldFilters[f.key] ?? ""}
            blank={any}
            options={[...f.choices.map((c) => ({ value: c, label: c })), ...(offersNotSet(f) ? [{ value: FIELD_NOT_SET, label: t("search.notSet") }] : [])]}
            onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
          />
        ))}
        {/* Text, number and date fields: the value whole ("-" for none), applied with Search as the words are. */}
        {valueFields.map((f) => (
          <Field key={`${f.key}=${fieldFilters[f.key] ?? ""}`} label={f.label} id={`user-field-${f.key}`} className="w-full sm:w-44">
            <Input
              id={`user-field-${f.key}`}
              type={f.type === "date" ? "date" : "text"}
              inputMode={f.type === "number" ? "decimal" : undefined}
              name={fieldFilterName(f.key)}
              defaultValue={fieldFilters[f.key] ?? ""}
              maxLength={CUSTOM_FIELD_LIMITS.value}
            />
          </Field>
        ))}
      </FilterDisclosure>
      <div className="flex gap-2">
        <Button type="submit">{t("search.submit")}</Button>
        <Button asChild variant="outline">
          <Link to="/users">{t("search.reset")}</Link>
        </Button>
      </div>
    </Form>
  );
}
