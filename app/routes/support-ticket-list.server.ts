import { parseTableParams } from "~/components/data-table/params";
import { listTickets, type TICKET_SORTS } from "~/services/support.server";
import { companyZone, type Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";

/** One page of the caller's ticket list, with the zone its times are shown in (the caller's company's). */
export async function ticketsPage(db: Db, auth: Auth, url: string, sortable: readonly (keyof typeof TICKET_SORTS)[]) {
  const params = parseTableParams(url, { defaultSort: "-createdAt", sortable });
  const { rows, total } = await listTickets(db, auth, { sort: params.sort, page: { offset: params.offset, limit: params.pageSize } });
  return { rows, total, params, timeZone: companyZone(auth) };
}
