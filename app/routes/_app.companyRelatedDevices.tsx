import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { listCompanyDevices, type CompanyDeviceRow } from "~/services/companies.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formatDate } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Company Devices" }];

/** /companyRelatedDevices?company_id=…: a company's devices, 25 per page; without an id, back to /company. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const id = Number(new URL(request.url).searchParams.get("company_id"));
  if (!Number.isInteger(id) || id <= 0) throw redirect("/company");
  const params = parseTableParams(request.url, { defaultSort: "serial", sortable: ["serial"] });
  try {
    const r = await listCompanyDevices(getDb(context), auth, id, { page: { offset: params.offset, limit: params.pageSize } });
    return { ...r, params, today: new Date(nowMs()).toISOString().slice(0, 10) };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 404) throw redirect("/company");
    throw e;
  }
}

export default function CompanyDevicesPage() {
  const { company, details, total, params, today } = useLoaderData<typeof loader>();
  const { t } = useTranslation("companies");
  const columns = useMemo<ColumnDef<CompanyDeviceRow>[]>(
    () => [
      { id: "serial", accessorKey: "serialNumber", header: t("dev.serial"), meta: { className: "font-mono" } },
      { id: "front", accessorKey: "serialFront", header: t("dev.front"), meta: { className: "font-mono" } },
      { id: "back", accessorKey: "serialBack", header: t("dev.back"), meta: { className: "font-mono" } },
      { id: "name", accessorKey: "fullName", header: t("dev.name") },
      { id: "type", accessorKey: "boardType", header: t("dev.type") },
      {
        id: "status",
        header: t("dev.status"),
        // Spec §3: an unconfigured device with a start date in the future "will be activated on {date}".
        cell: ({ row }) =>
          row.original.status === "unconfigured" && row.original.startDate && row.original.startDate > today
            ? t("dev.willActivate", { date: formatDate(Date.parse(`${row.original.startDate}T12:00:00Z`), "UTC") })
            : t(`dev.status.${row.original.status}`),
      },
    ],
    [t, today],
  );
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("dev.title")}
        description={`${company.name} (${company.code}) - ${company.type.toUpperCase()}`}
        actions={
          <Button asChild variant="outline">
            <Link to="/company">{t("backToList")}</Link>
          </Button>
        }
      />
      <DataTable
        columns={columns}
        data={details}
        total={total}
        params={params}
        caption={t("dev.title")}
        getRowId={(r) => String(r.id)}
        emptyState={<EmptyState title={t("empty")} />}
      />
    </div>
  );
}
