import { Form } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { EmailText } from "~/components/data-table/email-link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { CompanyRequestRow } from "~/services/company-requests.server";
import { formatDate, formatPhone } from "~/utils/format";

/** Columns of /viewCompanyRequests, dates in the reader's `language`; with `decide` (root), a pending request's accept and reject buttons (disabled while `busy`). */
export function requestColumns(t: TFunction, language: string, decide: boolean, busy: boolean): ColumnDef<CompanyRequestRow>[] {
  const cols: ColumnDef<CompanyRequestRow>[] = [
    { id: "name", accessorKey: "companyName", header: t("col.name"), meta: { className: "whitespace-normal min-w-28" } },
    { id: "type", header: t("col.type"), cell: ({ row }) => row.original.companyType.toUpperCase() },
    { id: "term", header: t("col.term"), meta: { className: "whitespace-normal" }, cell: ({ row }) => t("term", { n: row.original.billingTermYears }) },
    { id: "reseller", header: t("col.reseller"), meta: { className: "whitespace-normal" }, cell: ({ row }) => `${row.original.reseller.name} (${row.original.reseller.code})` },
    {
      id: "poc",
      header: t("col.poc"),
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => (
        <span className="grid">
          <span>{`${row.original.poc.firstName} ${row.original.poc.lastName}`}</span>
          <span className="text-xs text-muted-foreground">
            <EmailText email={row.original.poc.email} />
          </span>
          <span className="text-xs whitespace-nowrap text-muted-foreground">{formatPhone(row.original.poc.countryCode, row.original.poc.phoneNumber)}</span>
        </span>
      ),
    },
    { id: "createdAt", header: t("col.createdAt"), meta: { className: "whitespace-normal" }, cell: ({ row }) => formatDate(row.original.createdAt, "UTC", language) },
    {
      id: "status",
      header: t("col.status"),
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => (
        <Badge className="whitespace-normal" variant={row.original.status === "pending" ? "outline" : row.original.status === "accepted" ? "success" : "destructive"}>
          {t(`status.${row.original.status}`)}
          {row.original.createdCompanyCode ? ` · ${row.original.createdCompanyCode}` : ""}
        </Badge>
      ),
    },
  ];
  if (decide)
    cols.push({
      id: "actions",
      header: () => <span className="sr-only">{t("col.actions")}</span>,
      cell: ({ row }) =>
        row.original.status === "pending" ? (
          <div className="flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="id" value={row.original.id} />
              <Button type="submit" name="intent" value="accept" size="sm" disabled={busy} aria-label={t("acceptLabel", { name: row.original.companyName })}>
                {t("accept")}
              </Button>
            </Form>
            <ConfirmDialog
              trigger={
                <Button type="button" size="sm" variant="outline" aria-label={t("rejectLabel", { name: row.original.companyName })}>
                  {t("reject")}
                </Button>
              }
              title={t("rejectTitle")}
              description={t("rejectDescription", { name: row.original.companyName })}
              fields={{ intent: "reject", id: row.original.id }}
              confirmLabel={t("reject")}
              cancelLabel={t("cancel")}
              destructive
            />
          </div>
        ) : null,
    });
  return cols;
}
