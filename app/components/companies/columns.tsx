import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { EmailLink } from "~/components/data-table/email-link";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { LinkButton } from "~/components/ui/link-button";
import { CheckIcon } from "~/components/ui/icons";
import type { CompanyListRow } from "~/services/companies.server";
import { formatPhone } from "~/utils/format";
import { BuildingIcon } from "./icons";

/** Columns of /company (spec part 2 §2); sortable ids match `COMPANY_SORTS`. */
export function companyColumns(t: TFunction, opts: { canDelete: boolean; canModify: boolean }): ColumnDef<CompanyListRow>[] {
  const cols: ColumnDef<CompanyListRow>[] = [
    openColumn<CompanyListRow>({
      header: t("col.icon"),
      icon: <BuildingIcon />,
      href: (r) => (opts.canModify ? `/modifyCompany?id=${r.id}` : null),
      label: (r) => t("openCompany", { name: r.name }),
    }),
    { id: "name", accessorKey: "name", header: t("col.name"), enableSorting: true, meta: { className: "whitespace-normal min-w-28" } },
    { id: "code", accessorKey: "code", header: t("col.code"), enableSorting: true, meta: { className: "font-mono" } },
    { id: "fullName", accessorKey: "contactName", header: t("col.fullName"), enableSorting: true, meta: { className: "whitespace-normal min-w-24" } },
    {
      id: "phone",
      header: t("col.phone"),
      enableSorting: true,
      // From 1280 px; below, the phone is the second line of the e-mail cell (decision 0038).
      meta: { className: "whitespace-nowrap hidden xl:table-cell" },
      cell: ({ row }) => formatPhone(row.original.countryCode, row.original.phone),
    },
    {
      id: "email",
      header: t("col.email"),
      enableSorting: true,
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => {
        const phone = formatPhone(row.original.countryCode, row.original.phone);
        return (
          <span className="flex flex-col">
            <EmailLink email={row.original.email} />
            {phone && (
              <span className="text-xs whitespace-nowrap text-muted-foreground xl:hidden">
                <span className="sr-only">{t("col.phone")}: </span>
                {phone}
              </span>
            )}
          </span>
        );
      },
    },
    {
      id: "devices",
      header: t("col.devices"),
      enableSorting: true,
      meta: { className: "text-right" },
      cell: ({ row }) => (
        <LinkButton to={`/companyRelatedDevices?company_id=${row.original.id}`} variant="link" size="inline" aria-label={t("openDevices", { name: row.original.name })}>
          {row.original.totalDevices}
        </LinkButton>
      ),
    },
    { id: "users", accessorKey: "totalUsers", header: t("col.users"), enableSorting: true, meta: { className: "text-right" } },
    {
      id: "invoices",
      header: t("col.invoices"),
      enableSorting: true,
      meta: { className: "text-right" },
      cell: ({ row }) => (
        <LinkButton to={`/companyRelatedInvoices?company_id=${row.original.id}`} variant="link" size="inline" aria-label={t("openInvoices", { name: row.original.name })}>
          {row.original.totalInvoices}
        </LinkButton>
      ),
    },
    {
      id: "active",
      header: t("col.active"),
      enableSorting: true,
      cell: ({ row }) => (!row.original.isDeactive ? <CheckIcon className="size-4 text-primary" aria-label={t("yes")} /> : <span className="sr-only">{t("no")}</span>),
    },
  ];
  if (opts.canDelete) {
    cols.push(
      deleteColumn<CompanyListRow>(t, (r) => ({ name: r.name, code: r.code }), {
        label: "deleteCompany",
        title: "deleteTitle",
        description: "deleteDescription",
        confirm: "delete",
      }),
    );
  }
  return cols;
}
