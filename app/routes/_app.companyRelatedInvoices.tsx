import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { invoiceColumns } from "~/components/invoices/columns";
import { LinkButton } from "~/components/invoices/invoice-view";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { INVOICE_SORTS, listCompanyInvoices } from "~/services/invoices.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Company Invoices" }];

/** /companyRelatedInvoices?company_id=…: the invoices billed to one company, 25 per page; without a company, back to /company. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const id = Number(new URL(request.url).searchParams.get("company_id"));
  if (!Number.isInteger(id) || id <= 0) throw redirect("/company");
  const params = parseTableParams(request.url, { defaultSort: "-created", sortable: Object.keys(INVOICE_SORTS) });
  try {
    return { ...(await listCompanyInvoices(getDb(context), auth, id, nowMs(), { sort: params.sort, page: { offset: params.offset, limit: params.pageSize } })), params };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 404) throw redirect("/company");
    throw e;
  }
}

export default function CompanyInvoicesPage() {
  const { company, rows, total, params } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  const columns = useMemo(() => invoiceColumns(t, (r) => `/companyRelatedInvoiceDetail?id=${r.id}&company_id=${company.id}`), [t, company.id]);
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("relatedTitle")}
        description={t("invoicesOf", { name: company.name, code: company.code })}
        actions={<LinkButton to="/company">{t("backToCompanies")}</LinkButton>}
      />
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("invoicesOf", { name: company.name, code: company.code })}
        getRowId={(r) => String(r.id)}
        emptyState={<EmptyState title={t("empty")} />}
      />
    </div>
  );
}
