import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { deleteColumn } from "~/components/data-table/delete-column";
import { CheckIcon } from "~/components/ui/icons";
import { formatDateTime, formatPhone } from "~/utils/format";
import { UserIcon } from "./icons";

/** A /users grid row (the service's list shape, spec names). */
export type UserRow = {
  id: number;
  dispay_name: string;
  e_mail: string;
  phone_number: string;
  country_code: string;
  is_installer: boolean;
  is_sentinel: boolean;
  is_inactive: boolean;
  isSOInterrupt: boolean;
  isSuperAdmin: boolean;
  lastActivity: number | null;
};

const Flag = ({ on, t }: { on: boolean; t: TFunction }) =>
  on ? <CheckIcon className="size-4 text-primary" aria-label={t("yes")} /> : <span className="sr-only">{t("no")}</span>;

/** Columns of /users (docs/ARCHITECTURE.md §7.1); sortable ids match `USER_SORTS`. */
export function userColumns(t: TFunction, opts: { canDelete: boolean; timeZone: string }): ColumnDef<UserRow>[] {
  const cols: ColumnDef<UserRow>[] = [
    {
      id: "details",
      header: () => <span className="sr-only">{t("col.details")}</span>,
      meta: { className: "w-10" },
      cell: ({ row }) => (
        <Link to={`/modifyUser?id=${row.original.id}`} aria-label={t("openUser", { name: row.original.dispay_name })} className="text-muted-foreground hover:text-foreground">
          <UserIcon />
        </Link>
      ),
    },
    { id: "displayName", accessorKey: "dispay_name", header: t("col.displayName"), enableSorting: true },
    {
      id: "email",
      accessorKey: "e_mail",
      header: t("col.email"),
      enableSorting: true,
      cell: ({ row }) => (
        <a href={`mailto:${row.original.e_mail}`} className="text-primary hover:underline">
          {row.original.e_mail}
        </a>
      ),
    },
    {
      id: "phone",
      accessorKey: "phone_number",
      header: t("col.phone"),
      enableSorting: true,
      meta: { className: "whitespace-nowrap" },
      cell: ({ row }) => formatPhone(row.original.country_code, row.original.phone_number),
    },
    { id: "isSOInterrupt", accessorKey: "isSOInterrupt", header: t("col.soInterrupt"), enableSorting: true, cell: ({ row }) => <Flag on={row.original.isSOInterrupt} t={t} /> },
    { id: "isInstaller", accessorKey: "is_installer", header: t("col.installer"), enableSorting: true, cell: ({ row }) => <Flag on={row.original.is_installer} t={t} /> },
    { id: "isSentinel", accessorKey: "is_sentinel", header: t("col.sentinel"), enableSorting: true, cell: ({ row }) => <Flag on={row.original.is_sentinel} t={t} /> },
    { id: "isSuperAdmin", accessorKey: "isSuperAdmin", header: t("col.superAdmin"), enableSorting: true, cell: ({ row }) => <Flag on={row.original.isSuperAdmin} t={t} /> },
    { id: "active", accessorKey: "is_inactive", header: t("col.active"), enableSorting: true, cell: ({ row }) => <Flag on={!row.original.is_inactive} t={t} /> },
    {
      id: "lastActivity",
      accessorKey: "lastActivity",
      header: t("col.lastActivity"),
      enableSorting: true,
      meta: { className: "whitespace-nowrap" },
      cell: ({ row }) =>
        row.original.lastActivity ? (
          <Link to={`/activity?id=${row.original.id}&type=Triggered+By`} className="text-primary hover:underline">
            {formatDateTime(row.original.lastActivity, opts.timeZone)}
          </Link>
        ) : (
          "-"
        ),
    },
  ];
  if (opts.canDelete)
    cols.push(
      deleteColumn<UserRow>({
        header: t("col.delete"),
        label: (u) => t("deleteUser", { name: u.dispay_name }),
        title: t("deleteTitle"),
        description: (u) => t("deleteDescription", { name: u.dispay_name }),
        confirm: t("delete"),
        cancel: t("cancel"),
      }),
    );
  return cols;
}
