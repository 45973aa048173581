import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { InvoiceDetails } from "~/services/invoices.server";
import { formatUsd, percentText } from "~/utils/invoice-money";
import { formatCalendarDate } from "~/utils/format";
import { InvoiceStatusBadge } from "./columns";

/**
 * An invoice, read-only (spec part 2 §2 /invoiceDetails): header, line items and totals, laid out to
 * print as a clean page: the shell and the actions are hidden in print (`print:hidden`).
 */
export function InvoiceView({ invoice: inv, actions }: { invoice: InvoiceDetails; actions: ReactNode }) {
  const { t, i18n } = useTranslation("invoices");
  const row = (label: string, value: ReactNode, strong = false) => (
    <div className="flex justify-between gap-6 py-1">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={strong ? "font-semibold tabular-nums" : "tabular-nums"}>{value}</dd>
    </div>
  );
  return (
    <article className="grid grid-cols-1 gap-6" aria-labelledby="invoice-title">
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
        <CardContent className="grid grid-cols-1 gap-6 pt-5 sm:grid-cols-2 sm:pt-6 print:grid-cols-2">
          <dl className="grid content-start text-sm">
            {row(t("field.invoiceNum"), <span className="font-mono">{inv.invoiceNum}</span>)}
            {row(t("field.customer"), `${inv.customer.name} (${inv.customer.code})`)}
            {row(t("field.issuer"), `${inv.issuer.name} (${inv.issuer.code})`)}
            {row(t("field.dueDate"), formatCalendarDate(inv.dueDate, i18n.language))}
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
      {/* min-w-0: a grid item may shrink below its table, so on a phone the table scrolls inside its box, not the page. */}
      <div className="min-w-0 rounded-lg border border-border print:border-0">
        <Table>
          <TableCaption className="sr-only">{t("lines")}</TableCaption>
          <TableHeader className="bg-muted/50">
            <TableRow>
              <TableHead>{t("line.name")}</TableHead>
              <TableHead>{t("line.desc")}</TableHead>
              <TableHead numeric>{t("line.qty")}</TableHead>
              <TableHead numeric>{t("line.msrp")}</TableHead>
              <TableHead numeric>{t("line.discount")}</TableHead>
              <TableHead numeric>{t("line.pricePer")}</TableHead>
              <TableHead numeric>{t("line.total")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {inv.lines.map((l) => (
              <TableRow key={l.id}>
                <TableCell>{l.name}</TableCell>
                <TableCell className="text-muted-foreground">{l.desc}</TableCell>
                <TableCell numeric>{l.qty}</TableCell>
                <TableCell numeric>{formatUsd(l.msrpCents)}</TableCell>
                <TableCell numeric>{percentText(l.discountBp)}%</TableCell>
                <TableCell numeric>{formatUsd(l.pricePerCents)}</TableCell>
                <TableCell numeric>{formatUsd(l.totalCents)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableCell colSpan={6} className="text-right">
                {t("field.total")}
              </TableCell>
              <TableCell numeric>{formatUsd(inv.totalCents)}</TableCell>
            </TableRow>
          </TableFooter>
        </Table>
      </div>
    </article>
  );
}
