import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseDeviceFilters } from "~/schemas/device-filters";
import { DEVICES_FILE, deviceExportStream } from "~/services/device-export.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { csvAttachment } from "~/utils/http.server";

/** /devices' Export CSV (decision 0089): the company's devices in the registration's columns, with the list's search and filters when given. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  const filters = parseDeviceFilters(new URL(request.url).searchParams);
  return csvAttachment(await deviceExportStream(getDb(context), auth, filters, nowMs(), context.core), DEVICES_FILE);
}
