import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { InvoiceForm, type InvoiceDraft } from "~/components/invoices/invoice-form";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { invoiceFormSchema } from "~/schemas/invoices";
import { addInvoice, customerOptions, getInvoiceDetails, nextInvoiceNumber } from "~/services/invoices.server";
import { todayOf } from "~/utils/today";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { centsText, percentText } from "~/utils/invoice-money";
import { formAction } from "~/utils/form-action.server";
import { inFormFieldNames } from "~/utils/form-field-names.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Create Customer Invoice" }];

async function requireBiller(request: Request, context: LoaderFunctionArgs["context"]) {
  const auth = await requireModule(request, context, "billing_portal", "add");
  // An ec company has no child companies to bill.
  if (auth.company.type === "ec") throw new Response("Forbidden", { status: 403 });
  return auth;
}

/**
 * /createCustomerInvoice, or ?from=<invoice id> to re-bill an invoice's lines to its customer:
 * the lines come saved (quantity and MSRP fixed), the prices are the biller's to set.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireBiller(request, context);
  const db = getDb(context);
  const now = nowMs();
  const from = Number(new URL(request.url).searchParams.get("from"));
  let draft: InvoiceDraft = { customerId: "", invoiceNum: await nextInvoiceNumber(db, auth, now), dueDate: "", notes: "", lines: [] };
  if (Number.isInteger(from) && from > 0) {
    const source = await getInvoiceDetails(db, auth, from, now).catch((e: unknown) => {
      if (e instanceof ServiceError && e.status === 404) throw new Response(e.message, { status: 404 });
      throw e;
    });
    draft = {
      ...draft,
      customerId: String(source.customer.id),
      notes: source.notes,
      lines: source.lines.map((l) => ({
        id: l.id,
        name: l.name,
        desc: l.desc,
        qty: String(l.qty),
        price: centsText(l.msrpCents),
        discount: percentText(l.discountBp),
        price_per: centsText(l.pricePerCents),
      })),
    };
  }
  return { draft, customers: await customerOptions(db, auth), today: todayOf(now, companyZone(auth)) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireBiller(request, context);
  const now = nowMs();
  return formAction(request, invoiceFormSchema(todayOf(now, companyZone(auth))), async (value) => {
    const r = await inFormFieldNames(() => addInvoice(getDb(context), auth, value, now), { showMessage: true });
    // Spec §4: after "Invoice created successfully" the app goes to /billingPortal.
    return redirectWithMessage({ request, context }, { to: "/billingPortal", ns: "invoices", message: r.message });
  });
}

export default function CreateCustomerInvoice() {
  const { draft, customers, today } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("createTitle")}
        description={customers.length ? undefined : t("noCustomers")}
        actions={
          <LinkButton to="/billingPortal" variant="outline">
            {t("backToBilling")}
          </LinkButton>
        }
      />
      <InvoiceForm draft={draft} customers={customers} today={today} />
    </div>
  );
}
