import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { activityCard } from "~/components/activity/activity-card";
import { activityColumns } from "~/components/activity/activity-columns";
import { FilterBar } from "~/components/activity/filter-bar";
import { gridRow } from "~/components/activity/grid-row";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { formatSort } from "~/utils/sort";
import { Alert, AlertTitle } from "~/components/ui/alert";
import { LinkButton } from "~/components/ui/link-button";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { ACTIVITY_PAGE_SIZE, ACTIVITY_SORTS, DEFAULT_ACTIVITY_SORT, FILTER_TYPES, filterFromSearch, filterToSearch, hasAnyFilter, type FilterType } from "~/schemas/activity";
import { pickedNames } from "~/services/activity-pickers.server";
import { activityLog, filterTargetName, listActivity, type ActivityPage } from "~/services/activity.server";
import { requireActivityReader } from "~/utils/auth-guards.server";
import { can } from "~/utils/permissions";
import { companyLogDb } from "~/utils/company-log.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formatDate } from "~/utils/format";
import { ServiceError } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Activity" }];

/**
 * The URL is the state: the filter's own params (also what /users and /devices link with, e.g.
 * `?id=4&type=Device`, and the dashboard, `?additionalFilter=Access+Denied`, read as an event type),
 * plus the grid's 1-based page and sort. Dates and times are the company's zone.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireActivityReader(request, context);
  const db = getDb(context);
  const env = context.cloudflare.env;
  const url = new URL(request.url);
  const language = await getLanguage(request);
  const filter = filterFromSearch(url.searchParams);
  // Dates before the store's hot window read a view of the archive.
  const { db: log, archivedBefore } = await activityLog(env, auth, filter, nowMs());
  let error: string | null = null;
  let tz = "UTC";
  const page = await tablePage(url, { defaultSort: DEFAULT_ACTIVITY_SORT, sortable: ACTIVITY_SORTS, pageSize: ACTIVITY_PAGE_SIZE }, async (params) => {
    const grid = { sort: formatSort(params.sort), page: params.page - 1, pageSize: params.pageSize };
    let result: ActivityPage;
    try {
      result = await listActivity(log, auth, { ...filter, ...grid }, context.core);
    } catch (e) {
      if (!(e instanceof ServiceError) || e.status !== 400) throw e;
      // A hand-edited URL with a bad filter shows why and the whole log.
      error = translateMessage(await getFixedT(language, "activity"), e.message, "activity");
      result = await listActivity(companyLogDb(env, auth.company.id), auth, grid, context.core);
    }
    tz = result.tz;
    return { rows: result.rows.map((r) => gridRow(r, result.tz, language)), total: result.total };
  });
  const type = filter.type as FilterType | undefined;
  const targetName = !error && type && FILTER_TYPES.includes(type) && filter.id ? await filterTargetName(db, auth, type, Number(filter.id)) : null;
  const id = (v: string | undefined) => (v && /^\d{1,15}$/.test(v) ? Number(v) : undefined);
  const picked = filter.person || filter.door ? await pickedNames(db, auth, id(filter.person), id(filter.door)) : { person: null, door: null };
  const p = auth.permissions;
  return {
    ...page,
    filter,
    error,
    picked,
    // A name links to its record only where that page would open for the reader.
    rights: { users: can(p, "users"), devices: can(p, "devices"), groups: can(p, "device_group") },
    // The root company's log is the platform's audit trail (decision 0071).
    audit: auth.company.type === "root",
    archivedBefore: archivedBefore === null ? null : formatDate(archivedBefore, tz, language),
    target: !error && type && filter.id ? { type, name: targetName ?? `#${filter.id}` } : null,
  };
}

export default function ActivityPageRoute() {
  const { rows, total, params, filter, error, archivedBefore, target, picked, rights, audit } = useLoaderData<typeof loader>();
  const { t } = useTranslation("activity");
  const [searchParams] = useSearchParams();
  const location = useLocation();

  const columns = useMemo(() => activityColumns(t, rights), [t, rights]);
  const card = useMemo(() => activityCard(t, rights), [t, rights]);
  const reportSearch = filterToSearch(filter);
  if (searchParams.get("sort")) reportSearch.set("sort", searchParams.get("sort")!);
  const withoutTarget = filterToSearch({ ...filter, id: undefined, type: undefined });
  if (searchParams.get("sort")) withoutTarget.set("sort", searchParams.get("sort")!);

  return (
    <ListPage
      title={t(audit ? "auditTitle" : "title")}
      caption={t(audit ? "auditCaption" : "caption")}
      columns={columns}
      renderCard={card}
      page={{ rows, total, params }}
      empty={t("empty")}
      emptyHint={hasAnyFilter(filter) ? t("emptyFiltered") : undefined}
    >
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
        archivedBefore={archivedBefore}
        picked={picked}
      />
      {target && (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="target-filter">
          <span>{t("filteredBy", { what: t(`type.${target.type}`), name: target.name })}</span>
          <LinkButton to={`/activity?${withoutTarget}`} variant="link" size="inline">
            {t("clearTarget")}
          </LinkButton>
        </p>
      )}
    </ListPage>
  );
}
