import { useNavigate } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import type { TableParams } from "~/components/data-table/params";
import { EmptyState } from "~/components/ui/empty-state";
import type { TicketListRow } from "~/services/support.server";
import { ticketColumns, ticketUrl } from "./ticket-columns";

/** The ticket grid of /support and /adminSupport: paged and sorted on the server, a row opens the ticket. */
export function TicketsTable({
  rows,
  total,
  params,
  timeZone,
  withCompany,
}: {
  rows: TicketListRow[];
  total: number;
  params: TableParams;
  timeZone: string;
  withCompany: boolean;
}) {
  const { t } = useTranslation("support");
  const navigate = useNavigate();
  const columns = useMemo(() => ticketColumns(t, timeZone, withCompany), [t, timeZone, withCompany]);
  return (
    <DataTable
      columns={columns}
      data={rows}
      total={total}
      params={params}
      caption={t("tickets")}
      getRowId={(r) => String(r.id)}
      onRowClick={(r) => navigate(ticketUrl(r.id))}
      emptyState={<EmptyState title={t("noTickets")} />}
    />
  );
}
