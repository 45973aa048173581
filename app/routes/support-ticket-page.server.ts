import { redirect } from "@remix-run/cloudflare";
import { isValidLocation } from "~/schemas/support";
import { getTicketDetails } from "~/services/support.server";
import { companyDefaultZone } from "~/services/time-zones.server";
import type { Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { mapTiles } from "~/utils/map-tiles.server";
import { can } from "~/utils/permissions";

/** Where a ticket page goes back to: the company's list, or the platform's. */
export const ticketListUrl = (auth: Auth) => (can(auth.permissions, "support") && !can(auth.permissions, "company") ? "/support" : "/adminSupport");

/**
 * The ticket of `?id=` for the details and GPS pages, with the tile configuration and the zone of the
 * ticket's company. Without an id, or with one outside the caller's reach, back to the list.
 */
export async function ticketPageData(db: Db, auth: Auth, env: Env, url: string) {
  const id = Number(new URL(url).searchParams.get("id"));
  if (!Number.isInteger(id) || id <= 0) throw redirect(ticketListUrl(auth));
  try {
    const details = await getTicketDetails(db, auth, id);
    const zone = await companyDefaultZone(db, details.ticket.companyId);
    const { latitude, longitude } = details.ticket;
    return { ...details, timeZone: zone?.name ?? "UTC", tiles: mapTiles(env), locationValid: isValidLocation(latitude, longitude), back: ticketListUrl(auth) };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 404) throw redirect(ticketListUrl(auth));
    throw e;
  }
}
