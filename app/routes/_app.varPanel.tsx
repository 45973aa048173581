import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { CheckIcon } from "~/components/ui/icons";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { COMPANY_SORTS, listCompanies, type CompanyListRow } from "~/services/companies.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { formatPhone } from "~/utils/format";
import { can, canUseVarPanel } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "VAR Panel" }];

/** /varPanel: the reseller's child companies (its subtree), 25 per page, with the request links. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel");
  if (!canUseVarPanel(auth.permissions, auth.company.type)) throw new Response("Forbidden", { status: 403 });
  const params = parseTableParams(request.url, { defaultSort: "name", sortable: Object.keys(COMPANY_SORTS) });
  const { rows, total } = await listCompanies(getDb(context), auth, { sort: params.sort, page: { offset: params.offset, limit: params.pageSize } });
  return { rows, total, params, canRequest: can(auth.permissions, "var_panel", "add"), canSeeRequests: can(auth.permissions, ["company", "users"]) };
}

export default function VarPanelPage() {
  const { rows, total, params, canRequest, canSeeRequests } = useLoaderData<typeof loader>();
  const { t } = useTranslation("requests");
  const columns = useMemo<ColumnDef<CompanyListRow>[]>(
    () => [
      { id: "name", accessorKey: "company_name", header: t("col.name"), enableSorting: true },
      { id: "code", accessorKey: "company_id", header: t("col.code"), enableSorting: true, meta: { className: "font-mono" } },
      { id: "fullName", accessorKey: "full_name", header: t("col.fullName"), enableSorting: true },
      { id: "phone", header: t("col.phone"), cell: ({ row }) => formatPhone(row.original.poc_country_code, row.original.poc_phone_number) },
      { id: "email", accessorKey: "poc_e_mail", header: t("col.email"), enableSorting: true },
      { id: "devices", accessorKey: "totalDevices", header: t("col.devices"), enableSorting: true, meta: { className: "text-right" } },
      { id: "users", accessorKey: "totalUsers", header: t("col.users"), enableSorting: true, meta: { className: "text-right" } },
      {
        id: "active",
        header: t("col.active"),
        enableSorting: true,
        cell: ({ row }) => (row.original.is_deactive === "0" ? <CheckIcon className="size-4 text-primary" aria-label={t("yes")} /> : <span className="sr-only">{t("no")}</span>),
      },
    ],
    [t],
  );
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("varPanelTitle")}
        actions={
          <>
            {canSeeRequests && (
              <Button asChild variant="outline">
                <Link to="/viewCompanyRequests">{t("title")}</Link>
              </Button>
            )}
            {canRequest && (
              <Button asChild>
                <Link to="/newCompanyRequest">{t("newTitle")}</Link>
              </Button>
            )}
          </>
        }
      />
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("varPanelTitle")}
        getRowId={(r) => String(r.id)}
        emptyState={<EmptyState title={t("empty")} />}
      />
    </div>
  );
}
