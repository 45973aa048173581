import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { activityColumns, type FilterHref } from "~/components/activity/activity-columns";
import { FilterBar } from "~/components/activity/filter-bar";
import { gridRow } from "~/components/activity/grid-row";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { formatSort } from "~/utils/sort";
import { Alert, AlertTitle } from "~/components/ui/alert";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { ACTIVITY_PAGE_SIZE, ACTIVITY_SORTS, DEFAULT_ACTIVITY_SORT, FILTER_TYPES, filterFromSearch, hasAnyFilter, type FilterType } from "~/schemas/activity";
import { filterTargetName, listActivity, type ActivityPage } from "~/services/activity.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Activity" }];

/**
 * The URL is the state: the filter's own params (also what /users and /devices link with, e.g.
 * `?id=4&type=Device`), plus the grid's 1-based page and sort. Dates and times are the company's zone.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "activity");
  const db = getDb(context);
  const url = new URL(request.url);
  const params = parseTableParams(url, { defaultSort: DEFAULT_ACTIVITY_SORT, sortable: ACTIVITY_SORTS, pageSize: ACTIVITY_PAGE_SIZE });
  const filter = filterFromSearch(url.searchParams);
  const grid = { sort: formatSort(params.sort), page: params.page - 1, pageSize: params.pageSize };
  let result: ActivityPage;
  let error: string | null = null;
  try {
    result = await listActivity(db, auth, { ...filter, ...grid }, context.core);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status !== 400) throw e;
    // A hand-edited URL with a bad filter shows why and the whole log.
    error = translateMessage(await getFixedT(await getLanguage(request), "activity"), e.message, "activity");
    result = await listActivity(db, auth, grid, context.core);
  }
  const type = filter.type as FilterType | undefined;
  const targetName = !error && type && FILTER_TYPES.includes(type) && filter.id ? await filterTargetName(db, auth, type, Number(filter.id)) : null;
  return {
    rows: result.rows.map((r) => gridRow(r, result.tz)),
    total: result.total,
    params,
    filter,
    error,
    target: !error && type && filter.id ? { type, name: targetName ?? `#${filter.id}` } : null,
  };
}

export default function ActivityPageRoute() {
  const { rows, total, params, filter, error, target } = useLoaderData<typeof loader>();
  const { t } = useTranslation("activity");
  const [searchParams] = useSearchParams();
  const location = useLocation();

  const href: FilterHref = useMemo(
    () => (changes) => {
      const next = new URLSearchParams(searchParams);
      next.delete("page");
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) next.delete(k);
        else next.set(k, v);
      }
      return `/activity?${next}`;
    },
    [searchParams],
  );
  const columns = useMemo(() => activityColumns(t, href), [t, href]);
  const reportSearch = new URLSearchParams(filter as Record<string, string>);
  if (searchParams.get("sort")) reportSearch.set("sort", searchParams.get("sort")!);

  return (
    <div className="grid gap-4">
      <PageHeader title={t("title")} />
      {error && (
        <Alert variant="destructive" role="alert">
          <AlertTitle>{error}</AlertTitle>
        </Alert>
      )}
      <FilterBar
        key={location.search}
        current={{ ...filter, sort: searchParams.get("sort") ?? undefined }}
        anyFilter={hasAnyFilter(filter)}
        reportHref={`/resources/activity-report?${reportSearch}`}
      />
      {target && (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="target-filter">
          <span>{t("filteredBy", { what: t(`type.${target.type}`), name: target.name })}</span>
          <Link to={href({ id: null, type: null })} className="text-primary underline-offset-4 hover:underline">
            {t("clearTarget")}
          </Link>
        </p>
      )}
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("caption")}
        getRowId={(r) => String(r.id)}
        emptyState={<EmptyState title={t("empty")} description={hasAnyFilter(filter) ? t("emptyFiltered") : undefined} />}
      />
    </div>
  );
}
