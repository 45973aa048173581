import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deleteColumn } from "~/components/data-table/delete-column";
import { CheckIcon } from "~/components/ui/icons";
import type { CompanyListRow } from "~/services/companies.server";
import { formatPhone } from "~/utils/format";
import { BuildingIcon } from "./icons";

/** Columns of /company (spec part 2 §2); sortable ids match `COMPANY_SORTS`. */
export function companyColumns(t: TFunction, opts: { canDelete: boolean; canModify: boolean }): ColumnDef<CompanyListRow>[] {
  const cols: ColumnDef<CompanyListRow>[] = [
    {
      id: "icon",
      header: () => <span className="sr-only">{t("col.icon")}</span>,
      meta: { className: "w-10" },
      cell: ({ row }) =>
        opts.canModify ? (
          <Link
            to={`/modifyCompany?id=${row.original.id}`}
            aria-label={t("openCompany", { name: row.original.company_name })}
            className="text-muted-foreground hover:text-foreground"
          >
            <BuildingIcon />
          </Link>
        ) : (
          <BuildingIcon className="text-muted-foreground" />
        ),
    },
    { id: "name", accessorKey: "company_name", header: t("col.name"), enableSorting: true },
    { id: "code", accessorKey: "company_id", header: t("col.code"), enableSorting: true, meta: { className: "font-mono" } },
    { id: "fullName", accessorKey: "full_name", header: t("col.fullName"), enableSorting: true },
    {
      id: "phone",
      header: t("col.phone"),
      enableSorting: true,
      meta: { className: "whitespace-nowrap" },
      cell: ({ row }) => formatPhone(row.original.poc_country_code, row.original.poc_phone_number),
    },
    {
      id: "email",
      header: t("col.email"),
      enableSorting: true,
      cell: ({ row }) => (
        <a href={`mailto:${row.original.poc_e_mail}`} className="text-primary hover:underline">
          {row.original.poc_e_mail}
        </a>
      ),
    },
    {
      id: "devices",
      header: t("col.devices"),
      enableSorting: true,
      meta: { className: "text-right" },
      cell: ({ row }) => (
        <Link
          to={`/companyRelatedDevices?company_id=${row.original.id}`}
          className="text-primary hover:underline"
          aria-label={t("openDevices", { name: row.original.company_name })}
        >
          {row.original.totalDevices}
        </Link>
      ),
    },
    { id: "users", accessorKey: "totalUsers", header: t("col.users"), enableSorting: true, meta: { className: "text-right" } },
    {
      id: "invoices",
      header: t("col.invoices"),
      enableSorting: true,
      meta: { className: "text-right" },
      cell: ({ row }) => (
        <Link
          to={`/companyRelatedInvoices?company_id=${row.original.id}`}
          className="text-primary hover:underline"
          aria-label={t("openInvoices", { name: row.original.company_name })}
        >
          {row.original.totalInvoices}
        </Link>
      ),
    },
    {
      id: "active",
      header: t("col.active"),
      enableSorting: true,
      cell: ({ row }) => (row.original.is_deactive === "0" ? <CheckIcon className="size-4 text-primary" aria-label={t("yes")} /> : <span className="sr-only">{t("no")}</span>),
    },
  ];
  if (opts.canDelete) {
    cols.push(
      deleteColumn<CompanyListRow>({
        header: t("col.delete"),
        label: (r) => t("deleteCompany", { name: r.company_name }),
        title: t("deleteTitle"),
        description: (r) => t("deleteDescription", { name: r.company_name, code: r.company_id }),
        confirm: t("delete"),
        cancel: t("cancel"),
      }),
    );
  }
  return cols;
}
