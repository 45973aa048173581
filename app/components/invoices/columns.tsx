import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import type { SVGProps } from "react";
import { openColumn } from "~/components/data-table/open-column";
import { Badge } from "~/components/ui/badge";
import { LinkButton } from "~/components/ui/link-button";
import { Icon } from "~/components/ui/icons";
import type { InvoiceRow, InvoiceStatus } from "~/services/invoices.server";
import { formatCalendarDate } from "~/utils/format";
import { formatUsd } from "~/utils/invoice-money";

export const InvoiceIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <path d="M6 3h9l3 3v15H6z" />
    <path d="M9 9h6M9 13h6M9 17h4" />
  </Icon>
);

const STATUS_VARIANT: Record<InvoiceStatus, "secondary" | "success" | "destructive" | "outline"> = { open: "secondary", paid: "success", overdue: "destructive", void: "outline" };

export const InvoiceStatusBadge = ({ status, t }: { status: InvoiceStatus; t: TFunction }) => <Badge variant={STATUS_VARIANT[status]}>{t(`status.${status}`)}</Badge>;

/** Invoice list columns (billing portal and a company's invoices), dates in the reader's `language`; sortable ids match `INVOICE_SORTS`. `href` opens one. */
export function invoiceColumns(t: TFunction, language: string, href: (r: InvoiceRow) => string): ColumnDef<InvoiceRow>[] {
  return [
    openColumn<InvoiceRow>({ header: t("col.icon"), icon: <InvoiceIcon />, href, label: (r) => t("openInvoice", { number: r.invoiceNum }) }),
    {
      id: "number",
      accessorKey: "invoiceNum",
      header: t("col.number"),
      enableSorting: true,
      cell: ({ row }) => (
        <LinkButton to={href(row.original)} variant="link" size="inline" className="font-mono">
          {row.original.invoiceNum}
        </LinkButton>
      ),
    },
    { id: "customer", accessorFn: (r) => r.customer.name, header: t("col.customer"), enableSorting: true },
    { id: "issuer", accessorFn: (r) => r.issuer.name, header: t("col.issuer") },
    {
      id: "amount",
      accessorKey: "totalCents",
      header: t("col.amount"),
      enableSorting: true,
      meta: { className: "text-right tabular-nums" },
      cell: ({ row }) => formatUsd(row.original.totalCents),
    },
    {
      id: "dueDate",
      accessorKey: "dueDate",
      header: t("col.dueDate"),
      enableSorting: true,
      meta: { className: "whitespace-nowrap" },
      cell: ({ row }) => formatCalendarDate(row.original.dueDate, language),
    },
    { id: "status", accessorKey: "status", header: t("col.status"), enableSorting: true, cell: ({ row }) => <InvoiceStatusBadge status={row.original.status} t={t} /> },
  ];
}
