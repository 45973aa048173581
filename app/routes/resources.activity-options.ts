import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { eventTypeOptions, searchActivityDoors, searchActivityPeople } from "~/services/activity-pickers.server";
import { requireActivityReader } from "~/utils/auth-guards.server";
import { companyLogDb } from "~/utils/company-log.server";
import { getDb } from "~/utils/db.server";

/**
 * The activity filter's pickers: `?kind=person|door&q=…`, the first matches of the caller's company, or
 * `?kind=event`, every event type its log offers (as catalogue names; the page translates them).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireActivityReader(request, context);
  const search = new URL(request.url).searchParams;
  const kind = search.get("kind");
  const q = (search.get("q") ?? "").slice(0, 100);
  const db = getDb(context);
  const options =
    kind === "event"
      ? (await eventTypeOptions(companyLogDb(context.cloudflare.env, auth.company.id), auth)).map((name) => ({ value: name, name, detail: null }))
      : kind === "person" || kind === "door"
        ? (await (kind === "person" ? searchActivityPeople : searchActivityDoors)(db, auth, q)).map((o) => ({ value: String(o.id), name: o.name, detail: o.detail }))
        : null;
  if (!options) return Response.json({ message: "kind must be event, person or door" }, { status: 400 });
  return Response.json({ options }, { headers: { "Cache-Control": "no-store" } });
}
