import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { getCompanyStock, type StockRow } from "~/services/device-stock.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Device Stock" }];

/** /viewDeviceStock: the caller's stock boards (serial number and board type), 25 per page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel");
  const params = parseTableParams(request.url, { defaultSort: "serial", sortable: ["serial"] });
  return { ...(await getCompanyStock(getDb(context), auth, { page: { offset: params.offset, limit: params.pageSize } })), params };
}

export default function ViewDeviceStockPage() {
  const { company, rows, total, params } = useLoaderData<typeof loader>();
  const { t } = useTranslation("lifecycle");
  const columns = useMemo<ColumnDef<StockRow>[]>(
    () => [
      { id: "serial", accessorKey: "serialNumber", header: t("col.serial"), meta: { className: "font-mono" } },
      { id: "front", accessorKey: "serialFront", header: t("col.serialFront"), meta: { className: "font-mono" } },
      { id: "back", accessorKey: "serialBack", header: t("col.serialBack"), meta: { className: "font-mono" } },
      { id: "type", accessorKey: "boardType", header: t("col.boardType") },
    ],
    [t],
  );
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("stockTitle")}
        description={`${company.name} (${company.code})`}
        actions={
          <Button asChild variant="outline">
            <Link to="/varPanel">{t("backToCompanies")}</Link>
          </Button>
        }
      />
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("stockTitle")}
        getRowId={(r) => String(r.id)}
        emptyState={<EmptyState title={t("noStock")} />}
      />
    </div>
  );
}
