import { isValidLocation } from "~/schemas/support";
import { getTicketDetails } from "~/services/support.server";
import { companyDefaultZone } from "~/services/time-zones.server";
import type { Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";
import { mapTiles } from "~/utils/map-tiles.server";
import { can } from "~/utils/permissions";
import { loadRecord } from "~/utils/record-from-url.server";

/** Where a ticket page goes back to: the company's list, or the platform's. */
export const ticketListUrl = (auth: Auth) => (can(auth.permissions, "support") && !can(auth.permissions, "company") ? "/support" : "/adminSupport");

/**
 * The ticket of `?id=` for the details and GPS pages, with the tile configuration and the zone of the
 * ticket's company. Without an id, or with one outside the caller's reach, back to the list.
 */
export async function ticketPageData(db: Db, auth: Auth, env: Env, request: Request) {
  return loadRecord(request, { list: ticketListUrl(auth) }, async (id) => {
    const details = await getTicketDetails(db, auth, id);
    const zone = await companyDefaultZone(db, details.ticket.companyId);
    const { latitude, longitude } = details.ticket;
    return { ...details, timeZone: zone?.name ?? "UTC", tiles: mapTiles(env), locationValid: isValidLocation(latitude, longitude), back: ticketListUrl(auth) };
  });
}
