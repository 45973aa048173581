import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import type { TicketListRow } from "~/services/support.server";
import { formatPhone, formatZonedTime } from "~/utils/format";

export const ticketUrl = (id: number) => `/supportTicketDetails?id=${id}`;

/** The ticket grid's columns; the platform's list adds the company column. */
export function ticketColumns(t: TFunction, timeZone: string, withCompany: boolean): ColumnDef<TicketListRow>[] {
  const cols: ColumnDef<TicketListRow>[] = [
    {
      id: "icon",
      header: () => <span className="sr-only">{t("open")}</span>,
      meta: { className: "w-10" },
      cell: ({ row }) => (
        <Link to={ticketUrl(row.original.id)} className="text-muted-foreground hover:text-foreground" aria-label={t("openTicket", { number: row.original.ticketNumber })}>
          <NAV_ICONS.support className="size-5" />
        </Link>
      ),
    },
    { id: "number", accessorKey: "ticketNumber", header: t("ticketNumber"), enableSorting: true, meta: { className: "font-mono" } },
    { id: "user", accessorKey: "userDisplayName", header: t("submittedBy"), enableSorting: true, cell: ({ row }) => row.original.userDisplayName ?? "" },
    { id: "phone", header: t("phone"), cell: ({ row }) => formatPhone(row.original.userCountryCode, row.original.userPhone) },
    { id: "email", header: t("email"), cell: ({ row }) => row.original.userEmail ?? "" },
    { id: "device", header: t("mobile"), cell: ({ row }) => [row.original.brand, row.original.phoneModel].filter(Boolean).join(" ") },
    { id: "createdAt", accessorKey: "createdAt", header: t("created"), enableSorting: true, cell: ({ row }) => formatZonedTime(row.original.createdAt, timeZone) },
  ];
  if (withCompany) cols.splice(2, 0, { id: "company", accessorKey: "companyName", header: t("company"), enableSorting: true, cell: ({ row }) => row.original.companyName ?? "" });
  return cols;
}
