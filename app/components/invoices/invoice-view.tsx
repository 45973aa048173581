import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";
import type { InvoiceDetails } from "~/services/invoices.server";
import { formatUsd, percentText } from "~/utils/invoice-money";
import { InvoiceStatusBadge, usDate } from "./columns";

/**
 * An invoice, read-only (spec part 2 §2 /invoiceDetails): header, line items and totals, laid out to
 * print as a clean page: the shell and the actions are hidden in print (`print:hidden`).
 */
export function InvoiceView({ invoice: inv, actions }: { invoice: InvoiceDetails; actions: ReactNode }) {
  const { t } = useTranslation("invoices");
  const row = (label: string, value: ReactNode, strong = false) => (
    <div className="flex justify-between gap-6 py-1">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={strong ? "font-semibold tabular-nums" : "tabular-nums"}>{value}</dd>
    </div>
  );
  return (
    <article className="grid gap-6" aria-labelledby="invoice-title">
      <PageHeader
        title={<span id="invoice-title">{t("detailsTitle")}</span>}
        description={inv.invoiceNum}
        actions={
          <div className="flex flex-wrap gap-2 print:hidden">
            <Button type="button" variant="outline" onClick={() => window.print()}>
              {t("print")}
            </Button>
            {actions}
          </div>
        }
      />
      <Card className="print:border-0 print:shadow-none">
        <CardContent className="grid gap-6 pt-6 sm:grid-cols-2 print:grid-cols-2">
          <dl className="grid content-start text-sm">
            {row(t("field.invoiceNum"), <span className="font-mono">{inv.invoiceNum}</span>)}
            {row(t("field.customer"), `${inv.customer.name} (${inv.customer.code})`)}
            {row(t("field.issuer"), `${inv.issuer.name} (${inv.issuer.code})`)}
            {row(t("field.dueDate"), usDate(inv.dueDate))}
            {row(t("col.status"), <InvoiceStatusBadge status={inv.status} t={t} />)}
          </dl>
          <dl className="grid content-start text-sm">
            {row(t("field.subtotal"), formatUsd(inv.amountCents))}
            {row(t("field.discount"), formatUsd(-inv.discountCents))}
            {row(t("field.shipping"), formatUsd(inv.shippingCents))}
            {row(t("field.tax"), formatUsd(inv.taxCents))}
            {row(t("field.total"), <span data-testid="invoice-total">{formatUsd(inv.totalCents)}</span>, true)}
          </dl>
          <div className="sm:col-span-2 print:col-span-2">
            <h2 className="text-sm font-medium">{t("field.notes")}</h2>
            <p className="text-sm whitespace-pre-wrap text-muted-foreground">{inv.notes}</p>
          </div>
        </CardContent>
      </Card>
      <div className="overflow-x-auto rounded-lg border border-border print:border-0">
        <table className="w-full text-sm">
          <caption className="sr-only">{t("lines")}</caption>
          <thead className="bg-muted/50 text-left">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                {t("line.name")}
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                {t("line.desc")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {t("line.qty")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {t("line.msrp")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {t("line.discount")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {t("line.pricePer")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {t("line.total")}
              </th>
            </tr>
          </thead>
          <tbody>
            {inv.lines.map((l) => (
              <tr key={l.id} className="border-t border-border">
                <td className="px-3 py-2">{l.name}</td>
                <td className="px-3 py-2 text-muted-foreground">{l.desc}</td>
                <td className="px-3 py-2 text-right tabular-nums">{l.qty}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatUsd(l.msrpCents)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{percentText(l.discountBp)}%</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatUsd(l.pricePerCents)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatUsd(l.totalCents)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t-2 border-border font-semibold">
              <td colSpan={6} className="px-3 py-2 text-right">
                {t("field.total")}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{formatUsd(inv.totalCents)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </article>
  );
}

/** A header link styled as a button. */
export const LinkButton = ({ to, children, variant = "outline" }: { to: string; children: ReactNode; variant?: "outline" | "default" }) => (
  <Button asChild variant={variant}>
    <Link to={to}>{children}</Link>
  </Button>
);
