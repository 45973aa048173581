import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { filterFromSearch } from "~/schemas/activity";
import { activityReportStream, REPORT_FILE, reportSource } from "~/services/activity.server";
import { requireActivityReader } from "~/utils/auth-guards.server";
import { ServiceError } from "~/utils/errors.server";
import { csvAttachment } from "~/utils/http.server";

/** /activity's Download report: every row the filter matches, archive included, streamed as activity_report.csv in time order. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireActivityReader(request, context);
  const search = new URL(request.url).searchParams;
  try {
    const body = await activityReportStream(reportSource(context.cloudflare.env, auth), auth, { ...filterFromSearch(search), sort: search.get("sort") ?? undefined }, context.core);
    return csvAttachment(body, REPORT_FILE);
  } catch (e) {
    if (e instanceof ServiceError) throw new Response(e.message, { status: e.status });
    throw e;
  }
}
