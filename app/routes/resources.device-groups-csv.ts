import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { deviceGroupExportStream, GROUPS_FILE } from "~/services/device-export.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { csvAttachment } from "~/utils/http.server";

/** /deviceGroups' Export CSV (decision 0089): every live group of the company with its schedule, holidays and doors. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "device_group");
  return csvAttachment(deviceGroupExportStream(getDb(context), auth), GROUPS_FILE);
}
