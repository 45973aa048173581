import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { invoiceColumns } from "~/components/invoices/columns";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { INVOICE_SORTS, listInvoices } from "~/services/invoices.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Billing Portal" }];

/** /billingPortal: the invoices the caller reads, 25 per page, newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "billing_portal");
  const page = await tablePage(request.url, { defaultSort: "-created", sortable: Object.keys(INVOICE_SORTS) }, (_, slice) => listInvoices(getDb(context), auth, nowMs(), slice));
  // An ec company has no child companies to bill.
  return { ...page, company: auth.company.name, type: auth.company.type, canCreate: auth.company.type !== "ec" && can(auth.permissions, "billing_portal", "add") };
}

export default function BillingPortal() {
  const { rows, total, params, company, type, canCreate } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("invoices");
  const columns = useMemo(() => invoiceColumns(t, i18n.language, (r) => `/invoiceDetails?id=${r.id}`), [t, i18n.language]);
  // What the list holds depends on who reads it: root sees every reseller's invoices and is billed by no one,
  // a customer company only what it is billed (decision 0056).
  const suffix = type === "root" ? "Root" : type === "var" ? "" : "Ec";
  return (
    <ListPage
      title={t("title")}
      description={t(`description${suffix}`, { company })}
      add={canCreate && { to: "/createCustomerInvoice", label: t("createInvoice") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
      emptyHint={t(`emptyHint${suffix}`)}
    />
  );
}
