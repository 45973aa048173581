import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { filterFromSearch } from "~/schemas/activity";
import { activityReport, REPORT_FILE } from "~/services/activity.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

/** /activity's Download report: the same filter and sort as the grid, as activity_report.csv. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "activity");
  const search = new URL(request.url).searchParams;
  try {
    const csv = await activityReport(getDb(context), auth, { ...filterFromSearch(search), sort: search.get("sort") ?? undefined }, context.core);
    // The byte-order mark makes spreadsheet programs read the names as UTF-8.
    return new Response(`\uFEFF${csv}`, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${REPORT_FILE}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (e) {
    if (e instanceof ServiceError) throw new Response(e.message, { status: e.status });
    throw e;
  }
}
