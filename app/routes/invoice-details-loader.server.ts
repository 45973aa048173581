import { redirect } from "@remix-run/cloudflare";
import { getInvoiceDetails } from "~/services/invoices.server";
import type { Auth } from "~/utils/auth-guards.server";
import { nowMs, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

/** The invoice a details page shows, from `?id=`: without one, back to `back`; outside the caller's view, 404. */
export async function loadInvoice(request: Request, db: Db, auth: Auth, back: string) {
  const id = Number(new URL(request.url).searchParams.get("id"));
  if (!Number.isInteger(id) || id <= 0) throw redirect(back);
  try {
    return await getInvoiceDetails(db, auth, id, nowMs());
  } catch (e) {
    if (e instanceof ServiceError && e.status === 404) throw new Response(e.message, { status: 404 });
    throw e;
  }
}
