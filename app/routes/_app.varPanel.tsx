import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { EmailText } from "~/components/data-table/email-link";
import { CheckIcon } from "~/components/ui/icons";
import { PageHeader } from "~/components/ui/page-header";
import { CHILD_SORTS, listChildCompanies, type ChildCompany } from "~/services/device-stock.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { formatPhone } from "~/utils/format";
import { can, canUseVarPanel } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "VAR Panel" }];

/** /varPanel: the caller's child companies, 25 per page; a devices count opens the transfer screen for that child. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel");
  if (!canUseVarPanel(auth.permissions, auth.company.type)) throw new Response("Forbidden", { status: 403 });
  const params = parseTableParams(request.url, { defaultSort: "name", sortable: Object.keys(CHILD_SORTS) });
  const { rows, total } = await listChildCompanies(getDb(context), auth, { sort: params.sort, page: { offset: params.offset, limit: params.pageSize } });
  return {
    rows,
    total,
    params,
    company: auth.company.name,
    canRequest: can(auth.permissions, "var_panel", "add"),
    canTransfer: can(auth.permissions, "var_panel", "modify"),
  };
}

export default function VarPanelPage() {
  const { rows, total, params, company, canRequest, canTransfer } = useLoaderData<typeof loader>();
  const { t } = useTranslation("lifecycle");
  const columns = useMemo<ColumnDef<ChildCompany>[]>(
    () => [
      { id: "name", accessorKey: "name", header: t("col.companyName"), enableSorting: true, meta: { className: "whitespace-normal min-w-28" } },
      { id: "code", accessorKey: "code", header: t("col.code"), enableSorting: true, meta: { className: "font-mono" } },
      { id: "fullName", header: t("col.fullName"), meta: { className: "whitespace-normal" }, cell: ({ row }) => `${row.original.pocFirstName} ${row.original.pocLastName}`.trim() },
      { id: "phone", header: t("col.phone"), cell: ({ row }) => formatPhone(row.original.pocCountryCode, row.original.pocPhoneNumber) },
      {
        id: "email",
        accessorKey: "pocEmail",
        header: t("col.email"),
        enableSorting: true,
        meta: { className: "whitespace-normal" },
        cell: ({ row }) => <EmailText email={row.original.pocEmail} />,
      },
      {
        id: "devices",
        accessorKey: "totalDevices",
        header: t("col.devices"),
        enableSorting: true,
        meta: { className: "text-right" },
        cell: ({ row }) =>
          canTransfer ? (
            <Link
              to={`/deviceTransfer?company_id=${row.original.id}`}
              className="font-medium text-primary underline-offset-4 hover:underline"
              aria-label={t("transferTo", { name: row.original.name, count: row.original.totalDevices })}
            >
              {row.original.totalDevices}
            </Link>
          ) : (
            row.original.totalDevices
          ),
      },
      { id: "users", accessorKey: "totalUsers", header: t("col.users"), enableSorting: true, meta: { className: "text-right" } },
      {
        id: "active",
        header: t("col.active"),
        enableSorting: true,
        accessorKey: "isDeactive",
        cell: ({ row }) => (row.original.isDeactive ? <span className="sr-only">{t("no")}</span> : <CheckIcon className="size-4 text-primary" aria-label={t("yes")} />),
      },
    ],
    [t, canTransfer],
  );
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("varPanel")}
        description={company}
        actions={
          // Room for more reseller links (invoices) beside these.
          <nav aria-label={t("varPanel")} className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to="/viewDeviceStock">{t("viewStock")}</Link>
            </Button>
            {canRequest && (
              <Button asChild>
                <Link to="/newCompanyRequest">{t("newCompanyRequest")}</Link>
              </Button>
            )}
          </nav>
        }
      />
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("childCompanies")}
        getRowId={(r) => String(r.id)}
        emptyState={<EmptyState title={t("noChildren")} />}
      />
    </div>
  );
}
