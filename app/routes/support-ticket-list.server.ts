import { tablePage } from "~/components/data-table/params";
import { listTickets, type TICKET_SORTS } from "~/services/support.server";
import { companyZone, type Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";

/** One page of the caller's ticket list, with the zone its times are shown in (the caller's company's). */
export async function ticketsPage(db: Db, auth: Auth, url: string, sortable: readonly (keyof typeof TICKET_SORTS)[]) {
  const page = await tablePage(url, { defaultSort: "-createdAt", sortable }, (_, slice) => listTickets(db, auth, slice));
  return { ...page, timeZone: companyZone(auth) };
}
