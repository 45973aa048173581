import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { SEARCH_MAX, USER_FLAGS, USER_STATUSES, type UserFilters } from "~/schemas/search";

type Option = { id: number; fullName: string };

/**
 * Search and filters of /users, kept in the URL (`q`, `status`, `flag`, `roleId`, `groupId`): a GET form,
 * so the list can be bookmarked and shared; the sort and page size ride along, the page starts over.
 */
export function UserFilterForm({
  filters,
  groups,
  roles,
  searchParams,
}: {
  filters: UserFilters;
  groups: Option[];
  roles: { id: number; title: string }[];
  searchParams: URLSearchParams;
}) {
  const { t } = useTranslation("users");
  const keep = ["sort", "pageSize"].filter((k) => searchParams.has(k));
  return (
    <Form method="get" role="search" aria-label={t("search.label")} className="flex flex-wrap items-end gap-3">
      {keep.map((k) => (
        <input key={k} type="hidden" name={k} value={searchParams.get(k) ?? ""} />
      ))}
      <Field label={t("search.q")} id="user-q" className="min-w-56 flex-1">
        <Input id="user-q" type="search" name="q" defaultValue={filters.q} maxLength={SEARCH_MAX} placeholder={t("search.placeholder")} />
      </Field>
      <Field label={t("search.status")} id="user-status" className="w-40">
        <NativeSelect id="user-status" name="status" defaultValue={filters.status}>
          {USER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`search.statuses.${s}`)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={t("search.flag")} id="user-flag" className="w-48">
        <NativeSelect id="user-flag" name="flag" defaultValue={filters.flag ?? ""}>
          <option value="">{t("search.any")}</option>
          {USER_FLAGS.map((f) => (
            <option key={f} value={f}>
              {t(`search.flags.${f}`)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {roles.length > 0 && (
        <Field label={t("search.role")} id="user-role" className="w-44">
          <NativeSelect id="user-role" name="roleId" defaultValue={filters.roleId ?? ""}>
            <option value="">{t("search.any")}</option>
            {roles.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title}
              </option>
            ))}
          </NativeSelect>
        </Field>
      )}
      <Field label={t("search.group")} id="user-group" className="w-48">
        <NativeSelect id="user-group" name="groupId" defaultValue={filters.groupId ?? ""}>
          <option value="">{t("search.any")}</option>
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.fullName}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <div className="flex gap-2">
        <Button type="submit">{t("search.submit")}</Button>
        <Button asChild variant="outline">
          <Link to="/users">{t("search.reset")}</Link>
        </Button>
      </div>
    </Form>
  );
}
