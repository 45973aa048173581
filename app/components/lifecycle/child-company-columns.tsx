import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { EmailText } from "~/components/data-table/email-link";
import { CheckIcon } from "~/components/ui/icons";
import { LinkButton } from "~/components/ui/link-button";
import type { ChildCompany } from "~/services/device-stock.server";
import { formatPhone } from "~/utils/format";

/** Columns of /varPanel; sortable ids match `CHILD_SORTS`. Each row's "Transfer boards" (and its devices count) opens the transfer screen for that child. */
export function childCompanyColumns(t: TFunction, canTransfer: boolean): ColumnDef<ChildCompany>[] {
  return [
    { id: "name", accessorKey: "name", header: t("col.companyName"), enableSorting: true, meta: { className: "whitespace-normal min-w-28" } },
    { id: "code", accessorKey: "code", header: t("col.code"), enableSorting: true, meta: { className: "font-mono" } },
    { id: "fullName", header: t("col.fullName"), meta: { className: "whitespace-normal" }, cell: ({ row }) => `${row.original.pocFirstName} ${row.original.pocLastName}`.trim() },
    { id: "phone", header: t("col.phone"), meta: { className: "hidden xl:table-cell" }, cell: ({ row }) => formatPhone(row.original.pocCountryCode, row.original.pocPhoneNumber) },
    {
      id: "email",
      accessorKey: "pocEmail",
      header: t("col.email"),
      enableSorting: true,
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => <EmailText email={row.original.pocEmail} />,
    },
    {
      id: "devices",
      accessorKey: "totalDevices",
      header: t("col.devices"),
      enableSorting: true,
      meta: { className: "text-right" },
      cell: ({ row }) =>
        canTransfer ? (
          <LinkButton
            to={`/deviceTransfer?company_id=${row.original.id}`}
            variant="link"
            size="inline"
            aria-label={t("transferTo", { name: row.original.name, count: row.original.totalDevices })}
          >
            {row.original.totalDevices}
          </LinkButton>
        ) : (
          row.original.totalDevices
        ),
    },
    { id: "users", accessorKey: "totalUsers", header: t("col.users"), enableSorting: true, meta: { className: "text-right" } },
    {
      id: "active",
      header: t("col.active"),
      enableSorting: true,
      accessorKey: "isDeactive",
      cell: ({ row }) => (row.original.isDeactive ? <span className="sr-only">{t("no")}</span> : <CheckIcon className="size-4 text-primary" aria-label={t("yes")} />),
    },
    ...(canTransfer
      ? [
          {
            id: "transfer",
            header: () => <span className="sr-only">{t("transferBoards")}</span>,
            cell: ({ row }) => (
              <LinkButton to={`/deviceTransfer?company_id=${row.original.id}`} variant="outline" size="sm" aria-label={t("transferBoardsTo", { name: row.original.name })}>
                {t("transferBoards")}
              </LinkButton>
            ),
          } satisfies ColumnDef<ChildCompany>,
        ]
      : []),
  ];
}
