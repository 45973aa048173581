import { Link } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import type { TicketListRow } from "~/services/support.server";
import { EmailText } from "~/components/data-table/email-link";
import { ZonedTime } from "~/components/ui/zoned-time";
import { formatPhone } from "~/utils/format";

/** Names, addresses and times wrap, so the grid fits 1024 px (decision 0038). */
const WRAP = "whitespace-normal";

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
    { id: "user", accessorKey: "userDisplayName", header: t("submittedBy"), enableSorting: true, meta: { className: WRAP }, cell: ({ row }) => row.original.userDisplayName ?? "" },
    { id: "phone", header: t("phone"), cell: ({ row }) => formatPhone(row.original.userCountryCode, row.original.userPhone) },
    { id: "email", header: t("email"), meta: { className: WRAP }, cell: ({ row }) => (row.original.userEmail ? <EmailText email={row.original.userEmail} /> : "") },
    { id: "device", header: t("mobile"), meta: { className: WRAP }, cell: ({ row }) => [row.original.brand, row.original.phoneModel].filter(Boolean).join(" ") },
    {
      id: "createdAt",
      accessorKey: "createdAt",
      header: t("created"),
      enableSorting: true,
      meta: { className: WRAP },
      cell: ({ row }) => <ZonedTime value={row.original.createdAt} timeZone={timeZone} />,
    },
  ];
  if (withCompany)
    cols.splice(2, 0, {
      id: "company",
      accessorKey: "companyName",
      header: t("company"),
      enableSorting: true,
      meta: { className: WRAP },
      cell: ({ row }) => row.original.companyName ?? "",
    });
  return cols;
}
