import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { InvoiceView } from "~/components/invoices/invoice-view";
import { LinkButton } from "~/components/ui/link-button";
import { loadInvoice } from "~/routes/invoice-details-loader.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Invoice Details" }];

/** /invoiceDetails?id=…: one invoice, printable; a customer invoice can be made from one billed to someone else. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "billing_portal");
  const invoice = await loadInvoice(request, getDb(context), auth, "/billingPortal");
  // Spec §2: the link shows when the customer differs from the current company.
  const canCreate = invoice.customer.id !== auth.company.id && auth.company.type !== "ec" && can(auth.permissions, "billing_portal", "add");
  return { invoice, canCreate };
}

export default function InvoiceDetailsPage() {
  const { invoice, canCreate } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  return (
    <InvoiceView
      invoice={invoice}
      actions={
        <>
          <LinkButton to="/billingPortal" variant="outline">
            {t("backToBilling")}
          </LinkButton>
          {canCreate && <LinkButton to={`/createCustomerInvoice?from=${invoice.id}`}>{t("createFromThis")}</LinkButton>}
        </>
      }
    />
  );
}
