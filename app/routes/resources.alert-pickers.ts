import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { searchPicker } from "~/services/alert-pickers.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";

/**
 * The alert editor's user and device pickers search here (`?kind=users|devices&q=`): at most 20 of the
 * caller's company, for those who may see alerts. Another kind is a 400.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "activity");
  const params = new URL(request.url).searchParams;
  const kind = params.get("kind");
  if (kind !== "users" && kind !== "devices") return Response.json({ message: "kind must be users or devices" }, { status: 400 });
  const items = await searchPicker(getDb(context), auth, kind, (params.get("q") ?? "").slice(0, 100));
  return Response.json({ items }, { headers: { "Cache-Control": "no-store" } });
}
