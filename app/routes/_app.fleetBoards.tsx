import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { fleetBoardColumns } from "~/components/fleet/columns";
import { FleetFilterBar } from "~/components/fleet/fleet-filters";
import { parseFleetFilters } from "~/schemas/fleet";
import { FLEET_BOARD_SORTS, FLEET_MODULES, listFleetBoards } from "~/services/fleet.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Fleet health" }];

/** One customer company's boards and their health (decision 0091); 404 outside the caller's view. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, FLEET_MODULES);
  const url = new URL(request.url);
  const companyId = Number(/^\d{1,15}$/.test(url.searchParams.get("company") ?? "") ? url.searchParams.get("company") : 0);
  const filters = parseFleetFilters(url.searchParams);
  const page = await tablePage(url, { defaultSort: "name", sortable: FLEET_BOARD_SORTS }, (_, slice) =>
    listFleetBoards(getDb(context), auth, companyId, { ...slice, filters, now: nowMs() }),
  );
  return { ...page, filters, zone: companyZone(auth) };
}

export default function FleetBoardsPage() {
  const { rows, total, params, filters, zone, company } = useLoaderData<typeof loader>();
  const { t } = useTranslation("fleet");
  const columns = useMemo(() => fleetBoardColumns(t, { zone }), [t, zone]);
  const filtered = Object.keys(filters).length > 0;
  return (
    <ListPage
      title={t("boardsTitle", { company: company.name })}
      description={t("boardsDescription", { code: company.code })}
      back={{ to: "/fleet", label: t("title") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t(filtered ? "emptyBoardsFiltered" : "emptyBoards")}
    >
      <FleetFilterBar t={t} filters={filters} keep={{ company: String(company.id) }} />
    </ListPage>
  );
}
