import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { fleetCompanyColumns } from "~/components/fleet/columns";
import { FleetFilterBar } from "~/components/fleet/fleet-filters";
import { FleetRollouts } from "~/components/fleet/fleet-rollouts";
import { parseFleetFilters } from "~/schemas/fleet";
import { listFleetRollouts } from "~/services/fleet-rollouts.server";
import { FLEET_COMPANY_SORTS, FLEET_MODULES, listFleetCompanies } from "~/services/fleet.server";
import { receivedSupportGrants } from "~/services/support-access.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Fleet health" }];

/** Customer companies' board health (decision 0091): root sees every company, a reseller its subtree; support access offered where granted. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, FLEET_MODULES);
  const url = new URL(request.url);
  const filters = parseFleetFilters(url.searchParams);
  const db = getDb(context);
  const now = nowMs();
  const page = await tablePage(url, { defaultSort: "-trouble", sortable: FLEET_COMPANY_SORTS }, (_, slice) => listFleetCompanies(db, auth, { ...slice, filters, now }));
  // Support access in force from these customers (decision 0093): the row offers to open their console.
  const grants = new Map(
    (
      await receivedSupportGrants(
        db,
        auth,
        now,
        page.rows.map((r) => r.id),
      )
    ).map((g) => [g.companyId, { id: g.id, expiresAt: g.expiresAt }]),
  );
  const rows = page.rows.map((r) => ({ ...r, supportGrant: grants.get(r.id) ?? null }));
  return { ...page, rows, filters, zone: companyZone(auth), rollouts: await listFleetRollouts(db, auth, now) };
}

export default function FleetPage() {
  const { rows, total, params, filters, zone, rollouts } = useLoaderData<typeof loader>();
  const { t } = useTranslation("fleet");
  const columns = useMemo(() => fleetCompanyColumns(t, { zone }), [t, zone]);
  const filtered = Object.keys(filters).length > 0;
  return (
    <div className="grid gap-8">
      <ListPage title={t("title")} description={t("description")} columns={columns} page={{ rows, total, params }} empty={t(filtered ? "emptyFiltered" : "empty")}>
        <FleetFilterBar t={t} filters={filters} />
      </ListPage>
      <FleetRollouts rollouts={rollouts} t={t} />
    </div>
  );
}
