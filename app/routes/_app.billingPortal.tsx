import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { invoiceColumns } from "~/components/invoices/columns";
import { LinkButton } from "~/components/invoices/invoice-view";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { INVOICE_SORTS, listInvoices } from "~/services/invoices.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Billing Portal" }];

/** /billingPortal: the invoices the caller reads, 25 per page, newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "billing_portal");
  const params = parseTableParams(request.url, { defaultSort: "-created", sortable: Object.keys(INVOICE_SORTS) });
  const r = await listInvoices(getDb(context), auth, nowMs(), { sort: params.sort, page: { offset: params.offset, limit: params.pageSize } });
  // An ec company has no child companies to bill.
  return { ...r, params, company: auth.company.name, canCreate: auth.company.type !== "ec" && can(auth.permissions, "billing_portal", "add") };
}

export default function BillingPortal() {
  const { rows, total, params, company, canCreate } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  const columns = useMemo(() => invoiceColumns(t, (r) => `/invoiceDetails?id=${r.id}`), [t]);
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("title")}
        description={t("description", { company })}
        actions={
          canCreate && (
            <LinkButton to="/createCustomerInvoice" variant="default">
              {t("createInvoice")}
            </LinkButton>
          )
        }
      />
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("title")}
        getRowId={(r) => String(r.id)}
        emptyState={<EmptyState title={t("empty")} description={t("emptyHint")} />}
      />
    </div>
  );
}
