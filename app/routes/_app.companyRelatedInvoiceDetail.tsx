import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { InvoiceView } from "~/components/invoices/invoice-view";
import { LinkButton } from "~/components/ui/link-button";
import { loadInvoice } from "~/routes/invoice-details-loader.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Invoice Details" }];

/** /companyRelatedInvoiceDetail?id=…&company_id=…: the platform's view of one invoice; without an id, back to the company's invoices. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const companyId = Number(new URL(request.url).searchParams.get("company_id"));
  const back = Number.isInteger(companyId) && companyId > 0 ? `/companyRelatedInvoices?company_id=${companyId}` : "/companyRelatedInvoices";
  return { invoice: await loadInvoice(request, getDb(context), auth, back), back };
}

export default function CompanyInvoiceDetailPage() {
  const { invoice, back } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  return (
    <InvoiceView
      invoice={invoice}
      actions={
        <LinkButton to={back} variant="outline">
          {t("backToRelated")}
        </LinkButton>
      }
    />
  );
}
