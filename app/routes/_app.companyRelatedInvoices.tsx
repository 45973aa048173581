import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { invoiceColumns } from "~/components/invoices/columns";
import { INVOICE_SORTS, listCompanyInvoices } from "~/services/invoices.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";

export const meta: MetaFunction = () => [{ title: "Company Invoices" }];

/** /companyRelatedInvoices?company_id=…: the invoices billed to one company, 25 per page; without a company, back to /company. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  return loadRecord(request, { list: "/company", param: "company_id" }, (id) =>
    tablePage(request.url, { defaultSort: "-created", sortable: Object.keys(INVOICE_SORTS) }, (_, slice) => listCompanyInvoices(getDb(context), auth, id, nowMs(), slice)),
  );
}

export default function CompanyInvoicesPage() {
  const { company, rows, total, params } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("invoices");
  const columns = useMemo(() => invoiceColumns(t, i18n.language, (r) => `/companyRelatedInvoiceDetail?id=${r.id}&company_id=${company.id}`), [t, i18n.language, company.id]);
  return (
    <ListPage
      title={t("relatedTitle")}
      description={t("invoicesOf", { name: company.name, code: company.code })}
      caption={t("invoicesOf", { name: company.name, code: company.code })}
      back={{ to: "/company", label: t("backToCompanies") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
    />
  );
}
