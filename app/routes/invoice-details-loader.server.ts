import { getInvoiceDetails } from "~/services/invoices.server";
import type { Auth } from "~/utils/auth-guards.server";
import { nowMs, type Db } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";

/** The invoice a details page shows, from `?id=`: without one, back to `back`; outside the caller's view, 404. */
export function loadInvoice(request: Request, db: Db, auth: Auth, back: string) {
  return loadRecord(request, { list: back, notFound: "404" }, (id) => getInvoiceDetails(db, auth, id, nowMs()));
}
